import { withSession } from "@/lib/api/handler";
import { loadMatrixData } from "@/lib/matrices/loaders";

/** The matrix (status, combination statistics) and its case × combination table, for the matrix page's polling. */
export const GET = withSession({
  role: "viewer",
  handler: async ({ ctx, params }) => ({ json: await loadMatrixData(ctx, params.matrixId!) }),
});
