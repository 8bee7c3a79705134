import { z } from "zod";
import { listResponse, withApi } from "@/lib/api/handler";
import { suiteListQuery } from "@/lib/suites/schemas";
import { createSuite, listSuites } from "@/lib/suites/service";

export const GET = withApi({
  role: "viewer",
  query: suiteListQuery,
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
