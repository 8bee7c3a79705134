import { z } from "zod";
import { deleteByIdRoute, getByIdRoute, updateByIdRoute } from "@/lib/api/routes";
import { deleteSuite, getSuite, updateSuite } from "@/lib/suites/service";

export const GET = getByIdRoute("viewer", getSuite);

/** Partial update: the given fields over the stored suite; `agent_id` cannot change. */
export const PATCH = updateByIdRoute("editor", z.unknown(), updateSuite);

/** Soft delete: the suite moves to the trash (`GET /api/v1/suites?deleted=true`). */
export const DELETE = deleteByIdRoute("editor", deleteSuite);
