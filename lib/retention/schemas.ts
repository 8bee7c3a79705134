import { z } from "zod";
import { booleanQuery } from "@/lib/api/query";

/**
 * Retention (the reference schema): the instance settings, their PATCH body, the cleanup route's query and
 * the response shapes (for the OpenAPI document). No `server-only`: the settings form and the
 * OpenAPI builder import these.
 */

/** The reference schema's system-settings keys (InstanceSetting.key). */
export const RETENTION_KEYS = {
  cleanup_time: "test_suites.retention_cleanup_time",
  days: "test_suites.retention_days",
  runs: "test_suites.retention_runs",
  traffic_days: "traffic.retention_days",
} as const;
export type RetentionField = keyof typeof RETENTION_KEYS;
export const RETENTION_DEFAULTS = { cleanup_time: "02:00", days: 30, runs: 30, traffic_days: 14 } as const;
export const RETENTION_SOURCES = ["database", "env", "default"] as const;
export type RetentionSource = (typeof RETENTION_SOURCES)[number];

export const MAX_RETENTION_DAYS = 36_500;
export const MAX_RETENTION_RUNS = 100_000;

export const cleanupTime = z.string("cleanup_time must be a string HH:MM").regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Use HH:MM (24-hour, UTC)");
// At least 1 each: with 0 days and 0 runs a cleanup would delete every finished run of every
// workspace. (A suite may still override its own retention down to 0.)
export const retentionDays = z
  .number("days must be a whole number")
  .int("days must be a whole number")
  .min(1, "days must be at least 1 (0 would let a cleanup delete runs of any age)")
  .max(MAX_RETENTION_DAYS, `days must be at most ${MAX_RETENTION_DAYS}`);
export const retentionRuns = z
  .number("runs must be a whole number")
  .int("runs must be a whole number")
  .min(1, "runs must be at least 1 (each suite keeps at least its newest completed run)")
  .max(MAX_RETENTION_RUNS, `runs must be at most ${MAX_RETENTION_RUNS}`);
export const trafficRetentionDays = z
  .number("traffic_days must be a whole number")
  .int("traffic_days must be a whole number")
  .min(1, "traffic_days must be at least 1")
  .max(MAX_RETENTION_DAYS, `traffic_days must be at most ${MAX_RETENTION_DAYS}`);

/**
 * PATCH /api/v1/settings/retention: each field optional; `null` clears the database value so the
 * env/default applies again. Unknown fields are refused (a typo must not be a silent no-op).
 */
export const retentionSettingsPatch = z.strictObject({
  cleanup_time: cleanupTime.nullable().optional().describe('Nightly cleanup time "HH:MM" in UTC; null clears the database value'),
  days: retentionDays.nullable().optional().describe("Runs younger than this many days are kept (at least 1); null clears"),
  runs: retentionRuns
    .nullable()
    .optional()
    .describe("The newest this many completed runs of each suite are kept whatever their age (at least 1); null clears"),
  traffic_days: trafficRetentionDays
    .nullable()
    .optional()
    .describe("Traffic conversations (OpenTelemetry) are kept this many days after their last span (at least 1); null clears"),
});
export type RetentionSettingsPatch = z.input<typeof retentionSettingsPatch>;

/** The settings form: empty inputs mean "no database value" (null). */
export const retentionSettingsForm = z.object({
  cleanup_time: z
    .string()
    .transform((v) => v.trim())
    .pipe(z.union([z.literal("").transform(() => null), cleanupTime])),
  days: z
    .string()
    .transform((v) => (v.trim() === "" ? null : Number(v.trim())))
    .pipe(retentionDays.nullable()),
  runs: z
    .string()
    .transform((v) => (v.trim() === "" ? null : Number(v.trim())))
    .pipe(retentionRuns.nullable()),
  traffic_days: z
    .string()
    .transform((v) => (v.trim() === "" ? null : Number(v.trim())))
    .pipe(trafficRetentionDays.nullable()),
});
export type RetentionSettingsFormInput = z.input<typeof retentionSettingsForm>;

/**
 * POST /api/v1/admin/cleanup?dry_run=true|false&confirm=true|false (both absent = false). A
 * cleanup that would delete more than half of all finished runs needs confirm=true.
 */
export const cleanupQuery = z.object({
  dry_run: booleanQuery("dry_run"),
  confirm: booleanQuery("confirm"),
});
