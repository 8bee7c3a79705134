import { listResponse, withApi } from "@/lib/api/handler";
import { paginationQuery } from "@/lib/api/query";
import { agentInput } from "@/lib/agents/schemas";
import { createAgent, listAgents } from "@/lib/agents/service";

export const GET = withApi({
  role: "viewer",
  query: paginationQuery,
  handler: async ({ ctx, query }) => {
    const page = await listAgents(ctx, query);
    return listResponse(page.data, page.nextCursor);
  },
});

export const POST = withApi({
  role: "editor",
  body: agentInput,
  handler: async ({ ctx, body }) => ({ status: 201, json: await createAgent(ctx, body) }),
});
