import { getByIdRoute } from "@/lib/api/routes";
import { getCaseResult } from "@/lib/runs/service";

/** One case result with every LLM call's exact request and raw response. */
export const GET = getByIdRoute("viewer", getCaseResult);
