import { listRoute } from "@/lib/api/routes";
import { pairListQuery } from "@/lib/comparisons/schemas";
import { listPairs } from "@/lib/comparisons/service";

/** A comparison's pairs, optionally filtered by verdict change and sorted by a diff. */
export const GET = listRoute("viewer", pairListQuery, (ctx, query, params) => listPairs(ctx, params.id!, query));
