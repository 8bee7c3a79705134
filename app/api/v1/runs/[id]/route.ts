import { getByIdRoute } from "@/lib/api/routes";
import { getRun } from "@/lib/runs/service";

export const GET = getByIdRoute("viewer", getRun);
