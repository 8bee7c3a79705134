import { z } from "zod";
import { withApi } from "@/lib/api/handler";
import { importComparison } from "@/lib/comparisons/service";
import { MAX_IMPORT_BYTES } from "@/lib/validation/limits";

/**
 * Loads an A/B engine session document (our JSON report, or a `TestSession.to_dict()` file) as a
 * read-only comparison → 201. Up to MAX_IMPORT_BYTES (10 MB), like test-case imports.
 */
export const POST = withApi({
  role: "editor",
  body: z.unknown(),
  maxBytes: MAX_IMPORT_BYTES,
  handler: async ({ ctx, params, body }) => ({ status: 201, json: await importComparison(ctx, params.id!, body) }),
});
