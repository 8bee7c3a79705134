import { featurePart, jsonSchema, outputComponents, type OpenApiPart } from "@/lib/api/openapi-kit";
import { body, errorResponse, errors, ok, queryParameters, ref, tooLarge } from "@/lib/api/openapi-paths";
import { z } from "zod";
import { cleanupQuery, RETENTION_SOURCES, retentionSettingsPatch } from "./schemas";

/**
 * The REST contract of retention: the instance-wide settings and the cleanup (instance admins only).
 */

const setting = <T extends z.ZodType>(value: T) => z.object({ value, source: z.enum(RETENTION_SOURCES) });
/** GET/PATCH response: every value with where it came from. */
export const retentionSettingsResponse = z.object({
  cleanup_time: setting(z.string()).describe("HH:MM, UTC"),
  days: setting(z.number().int()),
  runs: setting(z.number().int()),
  traffic_days: setting(z.number().int()).describe("Days traffic conversations are kept after their last span"),
});
export const cleanupResponse = z.object({
  dry_run: z.boolean(),
  runs_deleted: z.number().int().describe("Runs deleted (or that a dry run would delete), comparison arm runs included"),
  results_deleted: z.number().int().describe("Case results deleted with them"),
  llm_calls_deleted: z.number().int().describe("LLM call logs deleted with them"),
  conversations_deleted: z.number().int().describe("Traffic conversations past traffic_days deleted (with their spans)"),
  bytes_freed_estimate: z.number().int().describe("Sum of pg_column_size over the deleted rows: an estimate of the space freed"),
});

function paths() {
  const tags = ["Retention"];
  const role = "Role: admin of the instance's first workspace (the settings are instance-wide).";
  return {
    "/api/v1/settings/retention": {
      get: {
        operationId: "getRetentionSettings",
        tags,
        summary: "Read the retention settings with their sources",
        description: `${role} Each value comes with \`source\`: database, env or default.`,
        responses: { "200": ok("RetentionSettings", ref("RetentionSettings")), ...errors },
      },
      patch: {
        operationId: "updateRetentionSettings",
        tags,
        summary: "Change the retention settings",
        description: `${role} Given fields are stored; \`null\` clears the stored value (env/default apply again); omitted fields are untouched. Unknown fields are refused.`,
        requestBody: body("RetentionSettingsPatch"),
        responses: { "200": ok("The settings now in effect", ref("RetentionSettings")), ...errors, ...tooLarge() },
      },
    },
    "/api/v1/admin/cleanup": {
      post: {
        operationId: "runRetentionCleanup",
        tags,
        summary: "Run the retention cleanup now (or preview it)",
        description: `${role} \`dry_run=true\` counts what a cleanup would delete and deletes nothing. A cleanup that would delete more than half of all finished runs (of every workspace) is refused with 409 \`confirmation_required\` unless \`confirm=true\`. Every call that runs is recorded as a cleanup record.`,
        parameters: queryParameters(cleanupQuery, {
          dry_run: "true: count only, delete nothing (default false)",
          confirm: "true: go ahead even if more than half of all finished runs would be deleted (default false)",
        }),
        responses: {
          "200": ok("What was (or would be) deleted", ref("CleanupResult")),
          ...errors,
          "409": errorResponse(
            "confirmation_required: the cleanup would delete more than half of all finished runs; repeat with confirm=true",
          ),
        },
      },
    },
  };
}

export function retentionOpenApi(): OpenApiPart {
  return featurePart(
    "Retention",
    "Instance-wide retention (the reference schema): runs older than `days` are deleted by a nightly cleanup at `cleanup_time` (UTC) except each suite's newest `runs` finished runs (completed, failed or cancelled), " +
      "pinned baselines, pending/running runs, runs of open alerts and arm runs of starred comparisons. Values resolve database > env (TEST_SUITES_RETENTION_*) > default. " +
      "Only admin keys of the instance's first workspace may use these routes (403 otherwise).",
    {
      paths: paths(),
      schemas: outputComponents({ RetentionSettings: retentionSettingsResponse, CleanupResult: cleanupResponse }),
      requests: { RetentionSettingsPatch: jsonSchema(retentionSettingsPatch) },
    },
  );
}
