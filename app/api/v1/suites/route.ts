import { z } from "zod";
import { listResponse, paginationQuery, withApi } from "@/lib/api/handler";
import { createSuite, listSuites } from "@/lib/suites/service";

const listQuery = paginationQuery.extend({
  agent_id: z.uuid("agent_id must be a UUID").optional(),
  /** `deleted=true` lists the trash instead of live suites. */
  deleted: z.enum(["true", "false"], { error: "deleted must be true or false" }).optional().transform((v) => v === "true"),
  q: z.string().trim().max(200).optional(),
});

export const GET = withApi({
  role: "viewer",
  query: listQuery,
  handler: async ({ ctx, query }) => {
    const page = await listSuites(ctx, query);
    return listResponse(page.data, page.next_cursor);
  },
});

/** The body is validated by the service (field rules plus workspace checks on agent, judge and variables). */
export const POST = withApi({
  role: "editor",
  body: z.unknown(),
  handler: async ({ ctx, body }) => ({ status: 201, json: await createSuite(ctx, body) }),
});
