import { withApi } from "@/lib/api/handler";
import { agentPatchBody } from "@/lib/agents/schemas";
import { deleteAgent, getAgent, updateAgent } from "@/lib/agents/service";

export const GET = withApi({
  role: "viewer",
  handler: async ({ ctx, params }) => ({ json: await getAgent(ctx, params.id!) }),
});

/**
 * The given fields replace the stored ones (`http` merges one level deep), then the whole agent
 * is validated. Header values equal to their masked form ("••••1234") keep the stored value.
 */
export const PATCH = withApi({
  role: "editor",
  body: agentPatchBody,
  handler: async ({ ctx, params, body }) => ({ json: await updateAgent(ctx, params.id!, body) }),
});

/** 409 while the agent has live suites (deleting it would delete their cases and runs). */
export const DELETE = withApi({
  role: "editor",
  handler: async ({ ctx, params }) => {
    await deleteAgent(ctx, params.id!);
    return { status: 204, json: null };
  },
});
