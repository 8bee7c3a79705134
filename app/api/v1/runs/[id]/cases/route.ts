import { listRoute } from "@/lib/api/routes";
import { runCasesQuery } from "@/lib/runs/schemas";
import { listRunCases } from "@/lib/runs/trial-reads";

/** A page of the run's test cases, each with its trials' figures and stability. */
export const GET = listRoute("viewer", runCasesQuery, (ctx, query, params) => listRunCases(ctx, params.id!, query));
