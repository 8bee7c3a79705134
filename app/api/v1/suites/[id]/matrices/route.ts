import { listRoute } from "@/lib/api/routes";
import { matrixListQuery } from "@/lib/matrices/schemas";
import { listMatrices } from "@/lib/matrices/service";

/** The suite's matrices, newest first. */
export const GET = listRoute("viewer", matrixListQuery, (ctx, query, params) => listMatrices(ctx, params.id!, query));
