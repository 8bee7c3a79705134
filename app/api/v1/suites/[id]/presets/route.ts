import { withApi, listResponse } from "@/lib/api/handler";
import { presetInput } from "@/lib/presets/schemas";
import { createPreset, listPresets } from "@/lib/presets/service";

/** The suite's variable presets, by name (one page). */
export const GET = withApi({
  role: "viewer",
  handler: async ({ ctx, params }) => listResponse(await listPresets(ctx, params.id!), null),
});

/** Adds a preset `{name, values}`; values are checked against the suite agent's variables. */
export const POST = withApi({
  role: "editor",
  body: presetInput,
  handler: async ({ ctx, params, body }) => ({ status: 201, json: await createPreset(ctx, params.id!, body) }),
});
