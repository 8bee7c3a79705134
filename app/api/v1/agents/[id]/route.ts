import { deleteByIdRoute, getByIdRoute, updateByIdRoute } from "@/lib/api/routes";
import { agentPatchBody } from "@/lib/agents/schemas";
import { deleteAgent, getAgent, updateAgent } from "@/lib/agents/service";

export const GET = getByIdRoute("viewer", getAgent);

/**
 * The given fields replace the stored ones (`http` merges one level deep), then the whole agent
 * is validated. Header values equal to their masked form ("••••1234") keep the stored value.
 */
export const PATCH = updateByIdRoute("editor", agentPatchBody, updateAgent);

/** 409 while the agent has live suites (deleting it would delete their cases and runs). */
export const DELETE = deleteByIdRoute("editor", deleteAgent);
