import { z } from "zod";
import { paginationQuery } from "@/lib/api/query";

/**
 * Query and input schemas of the alert routes and actions. No `server-only`: the
 * OpenAPI builder and the alerts page import them too.
 */

/** GET /api/v1/alerts: `suite_id`, `acknowledged=true|false` (absent: both), cursor pagination. */
export const alertListQuery = paginationQuery.extend({
  suite_id: z.uuid("suite_id must be a UUID").optional(),
  acknowledged: z.enum(["true", "false"], { error: "acknowledged must be true or false" }).optional(),
});
export type AlertListQuery = z.output<typeof alertListQuery>;

export const alertIdInput = z.object({ id: z.uuid("Unknown alert") });
export const runIdInput = z.object({ id: z.uuid("Unknown run") });
