import { getByIdRoute } from "@/lib/api/routes";
import { getComparison } from "@/lib/comparisons/service";

export const GET = getByIdRoute("viewer", getComparison);
