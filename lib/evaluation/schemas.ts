import { z } from "zod";
import { TEXT_LIMITS } from "@/lib/validation/limits";

/**
 * The execution model's EvaluationMetric as stored on a suite (`Suite.metrics`, a list of these).
 *
 * Scores (the execution model): the judge answers an integer on 1..`scale` (default 5) and `threshold` is on
 * that same scale (`threshold: 4` with `scale: 5` means "4 or better"): the metric passes when
 * `score >= threshold`. Results also carry both normalised to 0..1 with `(s - 1) / (scale - 1)`
 * (what averages and charts use). A null threshold makes the metric informational: it passes
 * whenever it could be evaluated. Thresholds stored before this rule were on 0..1; the
 * `failure_reasons` migration rewrote them as `1 + t × (scale − 1)`, which passes the same scores.
 */

export const BUILT_IN_METRICS = ["groundedness", "relevance", "coherence", "fluency", "correctness"] as const;
export type BuiltInMetric = (typeof BUILT_IN_METRICS)[number];
export const CUSTOM_METRIC = "custom";

export const DEFAULT_METRIC_SCALE = 5;
export const DEFAULT_METRIC_TIMEOUT_MS = 30_000;
export const MAX_METRICS_PER_SUITE = 20;

export function isBuiltInMetric(name: string): name is BuiltInMetric {
  return (BUILT_IN_METRICS as readonly string[]).includes(name);
}

const nullableText = z
  .string()
  .nullish()
  .transform((v) => (v == null || v.trim() === "" ? null : v));

export const metricConfigSchema = z
  .object({
    metric: z
      .string({ error: "Metric name is required" })
      .trim()
      .min(1, "Metric name is required")
      .max(TEXT_LIMITS.identifier, `Use at most ${TEXT_LIMITS.identifier} characters`)
      .regex(/^[A-Za-z0-9_-]+$/, "Use letters, digits, - and _ only"),
    threshold: z
      .number({ error: "Threshold must be a number" })
      .min(0, "Threshold must be between 0 and the metric's scale")
      .nullish()
      .transform((v) => v ?? null),
    enabled: z.boolean().default(true),
    scale: z
      .number({ error: "Scale must be a whole number" })
      .int("Scale must be a whole number")
      .min(2, "Scale must be at least 2")
      .max(100, "Scale must be at most 100")
      .default(DEFAULT_METRIC_SCALE),
    /** A model configuration id that overrides the suite's judge model for this metric. */
    model: z
      .uuid("Choose a model configuration")
      .nullish()
      .transform((v) => v ?? null),
    fail_on_error: z.boolean().default(false),
    retry_on_failure: z
      .number({ error: "Retries must be a whole number" })
      .int("Retries must be a whole number")
      .min(1, "Retries must be between 1 and 3")
      .max(3, "Retries must be between 1 and 3")
      .nullish()
      .transform((v) => v ?? null),
    timeout_ms: z
      .number({ error: "Timeout must be a whole number of milliseconds" })
      .int("Timeout must be a whole number of milliseconds")
      .positive("Timeout must be positive")
      .max(600_000, "Timeout must be at most 600000 ms")
      .nullish()
      .transform((v) => v ?? null),
    custom_prompt: nullableText.pipe(
      z.string().max(TEXT_LIMITS.description, `Use at most ${TEXT_LIMITS.description} characters`).nullable(),
    ),
  })
  .superRefine((m, ctx) => {
    if (m.threshold !== null && m.threshold > m.scale) {
      ctx.addIssue({
        code: "custom",
        path: ["threshold"],
        message: `Threshold is on the metric's own scale: at most ${m.scale} (its scale)`,
      });
    }
    if (!isBuiltInMetric(m.metric) && !m.custom_prompt) {
      ctx.addIssue({
        code: "custom",
        path: ["custom_prompt"],
        message:
          m.metric === CUSTOM_METRIC
            ? "A custom metric needs a custom prompt"
            : `Unknown metric "${m.metric}": use ${BUILT_IN_METRICS.join(", ")} or give a custom prompt`,
      });
    }
  });

export type MetricConfigInput = z.input<typeof metricConfigSchema>;
export type MetricConfig = z.output<typeof metricConfigSchema>;

/** The suite's list: at most 20 metrics, names unique (results are keyed by metric_name). */
export const metricConfigListSchema = z
  .array(metricConfigSchema)
  .max(MAX_METRICS_PER_SUITE, `At most ${MAX_METRICS_PER_SUITE} metrics`)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((m, i) => {
      if (seen.has(m.metric)) {
        ctx.addIssue({ code: "custom", path: [i, "metric"], message: `Metric "${m.metric}" is listed twice` });
      }
      seen.add(m.metric);
    });
  });
