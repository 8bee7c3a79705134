import { z } from "zod";
import { withApi } from "@/lib/api/handler";
import { exportTestCases } from "@/lib/test-cases/import-export";

/** GET ?format=json|yaml (default json): the suite's cases as a downloadable document. */
export const GET = withApi({
  role: "viewer",
  query: z.object({ format: z.enum(["yaml", "json"], { error: "format must be yaml or json" }).default("json") }),
  handler: async ({ ctx, params, query }) => {
    const file = await exportTestCases(ctx, params.id ?? "", query.format);
    return new Response(file.body, {
      status: 200,
      headers: {
        "content-type": file.content_type,
        "content-disposition": `attachment; filename="${file.filename}"`,
        "cache-control": "no-store",
      },
    });
  },
});
