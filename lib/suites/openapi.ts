import { z } from "zod";
import { featurePart, jsonSchema, patchBody, responseSchema, serverFields, type OpenApiPart } from "@/lib/api/openapi-kit";
import { collection, conflict, errors, idParam, listParameters, ok, ref, single } from "@/lib/api/openapi-paths";
import { suiteFields, suiteInput, suiteListQuery, suitePatch } from "./schemas";

/**
 * The REST contract of suites: the server-set fields of a suite, the OpenAPI component and the
 * paths under /api/v1/suites (the suite itself; its cases, runs and comparisons are their features').
 */

/** A suite as the API returns it: its settings plus the server-set fields. */
export const suiteResource = suiteFields.extend({
  ...serverFields.shape,
  deleted_at: z.iso.datetime().nullable().describe("Set while the suite is in the trash"),
});

/** Lists add the recent pass rates to each suite. */
const suiteListFields = z.object({
  last_pass_rate: z
    .number()
    .nullable()
    .optional()
    .describe("List responses only: pass rate (0–100) of the last completed run that executed a case; null without one"),
  recent_pass_rates: z
    .array(z.number())
    .optional()
    .describe("List responses only: pass rates of the last (up to 20) completed runs, oldest first; the last is last_pass_rate"),
});

export function suitesOpenApi(): OpenApiPart {
  return featurePart(
    "Suites",
    "Groups of test cases for one agent, with the judge model, metrics, schedule, alerting and variable values. Deleting moves a suite to the trash. Read: viewer; write: editor.",
    {
      paths: {
        "/api/v1/suites": collection({
          tag: "Suites",
          item: "Suite",
          plural: "Suites",
          deleteNote: "",
          listParams: listParameters(suiteListQuery, {
            agent_id: "Only suites of this agent",
            deleted: "true lists the trash (soft-deleted suites) instead of live suites",
            q: "Text search in the name",
          }),
        }),
        "/api/v1/suites/{id}": single({
          tag: "Suites",
          item: "Suite",
          plural: "Suites",
          deleteNote: "Soft delete: the suite moves to the trash (GET /api/v1/suites?deleted=true) and can be restored.",
        }),
        "/api/v1/suites/{id}/restore": {
          parameters: [idParam],
          post: {
            operationId: "restoreSuite",
            tags: ["Suites"],
            summary: "Restore a suite from the trash",
            description: "Role: editor. 409 when a live suite of the agent has its name.",
            responses: { "200": ok("The restored Suite", ref("Suite")), ...errors, ...conflict },
          },
        },
      },
      schemas: { Suite: responseSchema(suiteResource.extend(suiteListFields.shape)) },
      requests: { SuiteInput: jsonSchema(suiteInput), SuitePatch: patchBody(suitePatch) },
    },
  );
}
