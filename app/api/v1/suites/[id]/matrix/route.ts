import { z } from "zod";
import { withApi } from "@/lib/api/handler";
import { createMatrix } from "@/lib/matrices/service";

/**
 * Starts a matrix → 202 with the pending matrix: one run per combination of the given variable
 * values. The service parses the body (createMatrixInput) so a 400 names `variables.NAME` and
 * the combination that does not resolve.
 */
export const POST = withApi({
  role: "editor",
  body: z.unknown(),
  handler: async ({ ctx, params, body }) => ({ status: 202, json: await createMatrix(ctx, params.id!, body, "api") }),
});
