import { getByIdRoute } from "@/lib/api/routes";
import { runChangeDetails } from "@/lib/runs/change-details";

export const GET = getByIdRoute("viewer", runChangeDetails);
