import { z } from "zod";
import { featurePart, jsonSchema, patchBody, responseSchema, serverFields, type OpenApiPart } from "@/lib/api/openapi-kit";
import { body, conflict, errors, idParam, list, noContent, ok, ref, tooLarge } from "@/lib/api/openapi-paths";
import { presetInput, presetPatch } from "./schemas";

/**
 * The REST contract of presets (named sets of run-level variable values per suite): the component and the paths.
 */

/** A preset as the API returns it: its fields as stored plus the server-set ones. */
export const presetResource = presetInput
  .extend({ ...serverFields.shape, suite_id: z.uuid() })
  .describe("A named set of run-level variable values of a suite (the variables model's presets)");

function paths() {
  const tags = ["Presets"];
  return {
    "/api/v1/suites/{id}/presets": {
      parameters: [idParam],
      get: {
        operationId: "listPresets",
        tags,
        summary: "List a suite's variable presets",
        description: "Role: viewer. Sorted by name; one page (next_cursor is always null).",
        responses: { "200": list("Preset"), ...errors },
      },
      post: {
        operationId: "createPreset",
        tags,
        summary: "Add a preset",
        description:
          "Role: editor. `values` are checked against the suite agent's variables as run values are (known names, data type, static possible values); " +
          "names are unique per suite (409). Start a run with it through POST /api/v1/suites/{id}/runs `preset`.",
        requestBody: body("PresetInput"),
        responses: { "201": ok("The created Preset", ref("Preset")), ...errors, ...conflict, ...tooLarge() },
      },
    },
    "/api/v1/presets/{id}": {
      parameters: [idParam],
      get: {
        operationId: "getPreset",
        tags,
        summary: "Get a preset",
        description: "Role: viewer.",
        responses: { "200": ok("Preset", ref("Preset")), ...errors },
      },
      patch: {
        operationId: "updatePreset",
        tags,
        summary: "Update a preset",
        description: "Role: editor. A new `values` object replaces the stored one; validated like a create.",
        requestBody: body("PresetPatch"),
        responses: { "200": ok("The updated Preset", ref("Preset")), ...errors, ...conflict, ...tooLarge() },
      },
      delete: {
        operationId: "deletePreset",
        tags,
        summary: "Delete a preset",
        description: "Role: editor.",
        responses: { ...noContent, ...errors },
      },
    },
  };
}

export function presetsOpenApi(): OpenApiPart {
  return featurePart(
    "Presets",
    "Named sets of run-level variable values per suite (the variables model's presets), selectable when starting a run (`preset`), in the run and comparison dialogs and by the CLI's --preset. Read: viewer; write: editor.",
    {
      paths: paths(),
      schemas: {
        Preset: responseSchema(presetResource),
      },
      requests: { PresetInput: jsonSchema(presetInput), PresetPatch: patchBody(presetPatch) },
    },
  );
}
