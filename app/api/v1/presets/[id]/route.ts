import { deleteByIdRoute, getByIdRoute, updateByIdRoute } from "@/lib/api/routes";
import { presetPatch } from "@/lib/presets/schemas";
import { deletePreset, getPreset, updatePreset } from "@/lib/presets/service";

export const GET = getByIdRoute("viewer", getPreset);

/** Renames the preset and/or replaces its values. */
export const PATCH = updateByIdRoute("editor", presetPatch, updatePreset);

export const DELETE = deleteByIdRoute("editor", deletePreset);
