import { z } from "zod";
import { trialsInput } from "@/lib/runs/schemas";
// Directly from the schemas module: `@/lib/evaluation` pulls node:crypto into client bundles.
import { metricConfigListSchema } from "@/lib/evaluation/schemas";
import { booleanQuery, paginationQuery } from "@/lib/api/query";
import { TEXT_LIMITS } from "@/lib/validation/limits";
import { variableValues } from "@/lib/agents/schemas";
import { DEFAULT_REVIEW_RULES, suiteReviewSettings } from "@/lib/review/schemas";

export const SCHEDULE_TYPES = ["manual", "hourly", "daily", "weekly"] as const;

export const suiteFields = z.object({
  agent_id: z.uuid("Choose an agent"),
  name: z.string().trim().min(1, "Name is required").max(TEXT_LIMITS.suiteName, `Use at most ${TEXT_LIMITS.suiteName} characters`),
  description: z
    .string()
    .trim()
    .max(TEXT_LIMITS.suiteDescription)
    .nullish()
    .transform((v) => v || null),
  schedule_type: z.enum(SCHEDULE_TYPES, { error: "Schedule must be manual, hourly, daily or weekly" }).default("manual"),
  /** "HH:MM" in the workspace's time zone. Daily/weekly: the time of day; hourly: only the minutes count (null = on the hour). */
  schedule_time: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Use HH:MM (24-hour)")
    .nullish()
    .or(z.literal("").transform(() => null))
    .transform((v) => v ?? null),
  schedule_day_of_week: z
    .number({ error: "Day of week must be 0 (Sunday) to 6 (Saturday)" })
    .int()
    .min(0, "Day of week must be 0 (Sunday) to 6 (Saturday)")
    .max(6, "Day of week must be 0 (Sunday) to 6 (Saturday)")
    .nullish()
    .transform((v) => v ?? null),
  llm_judge_model_config_id: z
    .uuid("Choose a model configuration")
    .nullish()
    .transform((v) => v ?? null),
  /** The simulated user's model configuration; null = the judge's. */
  simulator_model_config_id: z
    .uuid("Choose a model configuration")
    .nullish()
    .transform((v) => v ?? null),
  /** The execution model's EvaluationMetric list; each `model` override is checked against the workspace by the service. */
  metrics: metricConfigListSchema.default([]),
  alert_on_regression: z.boolean().default(true),
  alert_threshold_percent: z
    .number({ error: "Threshold must be a whole number" })
    .int("Threshold must be a whole number")
    .min(1, "Threshold must be between 1 and 100")
    .max(100, "Threshold must be between 1 and 100")
    .default(10),
  /** The test case format difficulty weighting: a hard case counts this many times in `weighted_pass_rate` (normal: 1). */
  hard_weight: z
    .number({ error: "Hard case weight must be a number" })
    .min(1, "Hard case weight must be between 1 and 10")
    .max(10, "Hard case weight must be between 1 and 10")
    .default(2),
  /** Trials per case of a run that does not say (schedules, API and CLI runs without `trials`). */
  default_trials: trialsInput.default(1),
  /** Human review: which results of a finished run go to review, how many labels an item needs, when the judge is trusted. */
  review_rules: suiteReviewSettings.review_rules.default(DEFAULT_REVIEW_RULES),
  required_reviews: suiteReviewSettings.required_reviews.default(1),
  calibration_min_labels: suiteReviewSettings.calibration_min_labels.default(30),
  calibration_trusted_kappa: suiteReviewSettings.calibration_trusted_kappa.default(0.6),
  is_enabled: z.boolean().default(true),
  /** The variables model suite-level values, checked against the agent's variables_schema by the service. */
  variables: variableValues.default({}),
  /** Retention override (the reference schema): runs younger than this many days are kept; null = the instance setting. */
  retention_days: z
    .number({ error: "Retention days must be a whole number" })
    .int("Retention days must be a whole number")
    .min(0, "Retention days must be 0 or more")
    .max(36_500, "Retention days must be at most 36500")
    .nullish()
    .transform((v) => v ?? null),
  /** Retention override: the newest this many completed runs are kept whatever their age; null = the instance setting. */
  retention_runs: z
    .number({ error: "Retention runs must be a whole number" })
    .int("Retention runs must be a whole number")
    .min(0, "Retention runs must be 0 or more")
    .max(100_000, "Retention runs must be at most 100000")
    .nullish()
    .transform((v) => v ?? null),
});

function refineSchedule(s: z.output<typeof suiteFields>, ctx: z.RefinementCtx) {
  if ((s.schedule_type === "daily" || s.schedule_type === "weekly") && !s.schedule_time) {
    ctx.addIssue({ code: "custom", path: ["schedule_time"], message: `A ${s.schedule_type} schedule needs a time (HH:MM)` });
  }
  if (s.schedule_type === "weekly" && s.schedule_day_of_week === null) {
    ctx.addIssue({ code: "custom", path: ["schedule_day_of_week"], message: "A weekly schedule needs a day of week" });
  }
}

export const suiteInput = suiteFields.superRefine(refineSchedule);
export type SuiteInput = z.input<typeof suiteInput>;
export type SuiteData = z.output<typeof suiteInput>;
/**
 * PATCH body: every field optional and **without defaults** (zod 4's `.partial()` keeps
 * `.default()`, which would silently reset omitted fields). Merge the defined keys over the
 * stored suite, then re-validate with `suiteMerged`.
 */
const f = suiteFields.shape;
export const suitePatch = suiteFields
  .extend({
    schedule_type: f.schedule_type.unwrap(),
    alert_on_regression: f.alert_on_regression.unwrap(),
    alert_threshold_percent: f.alert_threshold_percent.unwrap(),
    hard_weight: f.hard_weight.unwrap(),
    default_trials: f.default_trials.unwrap(),
    review_rules: f.review_rules.unwrap(),
    required_reviews: f.required_reviews.unwrap(),
    calibration_min_labels: f.calibration_min_labels.unwrap(),
    calibration_trusted_kappa: f.calibration_trusted_kappa.unwrap(),
    is_enabled: f.is_enabled.unwrap(),
    variables: f.variables.unwrap(),
    metrics: f.metrics.unwrap(),
  })
  .partial();
export type SuitePatch = z.input<typeof suitePatch>;
/** The public field names, in display order. */
export const SUITE_FIELDS = Object.keys(suiteFields.shape) as (keyof z.output<typeof suiteFields>)[];
/** Re-validates a merged suite (existing + patch). */
export const suiteMerged = suiteInput;

/** GET /api/v1/suites: `agent_id`, a name search and `deleted=true` for the trash. */
export const suiteListQuery = paginationQuery.extend({
  agent_id: z.uuid("agent_id must be a UUID").optional(),
  /** `deleted=true` lists the trash instead of live suites. */
  deleted: booleanQuery("deleted"),
  q: z.string().trim().max(TEXT_LIMITS.search).optional(),
});
export type SuiteListQuery = z.output<typeof suiteListQuery>;
