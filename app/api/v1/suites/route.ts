import { z } from "zod";
import { withApi } from "@/lib/api/handler";
import { listRoute } from "@/lib/api/routes";
import { suiteListQuery } from "@/lib/suites/schemas";
import { createSuite, listSuites } from "@/lib/suites/service";

export const GET = listRoute("viewer", suiteListQuery, (ctx, query) => listSuites(ctx, query));

/** The body is validated by the service (field rules plus workspace checks on agent, judge and variables). */
export const POST = withApi({
  role: "editor",
  body: z.unknown(),
  handler: async ({ ctx, body }) => ({ status: 201, json: await createSuite(ctx, body) }),
});
