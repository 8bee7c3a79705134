import { withApi } from "@/lib/api/handler";
import { presetPatch } from "@/lib/presets/schemas";
import { deletePreset, getPreset, updatePreset } from "@/lib/presets/service";

export const GET = withApi({
  role: "viewer",
  handler: async ({ ctx, params }) => ({ json: await getPreset(ctx, params.id!) }),
});

/** Renames the preset and/or replaces its values. */
export const PATCH = withApi({
  role: "editor",
  body: presetPatch,
  handler: async ({ ctx, params, body }) => ({ json: await updatePreset(ctx, params.id!, body) }),
});

export const DELETE = withApi({
  role: "editor",
  handler: async ({ ctx, params }) => {
    await deletePreset(ctx, params.id!);
    return { status: 204, json: null };
  },
});
