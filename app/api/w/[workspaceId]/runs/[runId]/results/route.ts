import { withSession } from "@/lib/api/handler";
import { caseResultListQuery } from "@/lib/runs/schemas";
import { listCaseResults } from "@/lib/runs/service";
import { toCaseResultPage } from "@/lib/runs/dto";

/** A page of the run's case results as slim table rows (no transcripts), filterable by status and tag. */
export const GET = withSession({
  role: "viewer",
  query: caseResultListQuery,
  handler: async ({ ctx, params, query }) => ({ json: toCaseResultPage(await listCaseResults(ctx, params.runId!, query)) }),
});
