"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { workspaceAction } from "@/lib/actions/safe-action";
import { agentInput } from "./schemas";
import { createAgent, deleteAgent, updateAgent } from "./service";

const agentsPath = (workspaceId: string) => `/w/${workspaceId}/agents`;
const idInput = z.object({ id: z.uuid("Unknown agent") });

export const createAgentAction = workspaceAction(agentInput, "editor", async (input, ctx) => {
  const agent = await createAgent(ctx, input);
  revalidatePath(agentsPath(ctx.workspaceId), "layout");
  return agent;
});

/** `patch` is merged over the stored agent and validated by the service, so issue paths are plain field names. */
export const updateAgentAction = workspaceAction(
  idInput.extend({ patch: z.record(z.string(), z.unknown()) }),
  "editor",
  async ({ id, patch }, ctx) => {
    const agent = await updateAgent(ctx, id, patch);
    revalidatePath(agentsPath(ctx.workspaceId), "layout");
    return agent;
  },
);

export const deleteAgentAction = workspaceAction(idInput, "editor", async ({ id }, ctx) => {
  await deleteAgent(ctx, id);
  revalidatePath(agentsPath(ctx.workspaceId), "layout");
  return { id };
});
