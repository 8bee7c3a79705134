import { listRoute } from "@/lib/api/routes";
import { caseResultListQuery } from "@/lib/runs/schemas";
import { listCaseResults } from "@/lib/runs/service";

/** A page of the run's case results; transcripts only with `?include=transcript`. */
export const GET = listRoute("viewer", caseResultListQuery, (ctx, query, params) => listCaseResults(ctx, params.id!, query));
