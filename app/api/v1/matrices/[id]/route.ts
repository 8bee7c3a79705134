import { getByIdRoute } from "@/lib/api/routes";
import { getMatrix } from "@/lib/matrices/service";

export const GET = getByIdRoute("viewer", getMatrix);
