/**
 * The execution model metrics. The judge scores 1..scale and the metric passes when that score reaches
 * `threshold`, which is on the same scale (null threshold = informational, passes whenever
 * evaluated). Results carry `score`/`threshold` on the metric's scale and both normalised to 0..1
 * with `(s - 1) / (scale - 1)` (`normalized_score`/`normalized_threshold`). Errors, timeouts and
 * unparseable replies are retried `retry_on_failure` times (counted in retry_count); a metric that
 * still fails has `error` set and `passed: null` (not evaluated, so neither passed nor failed), and
 * decides the case only when `fail_on_error` is set (the case is then an error). So a case can never
 * be passed while one of its metric results says `passed: false`.
 */
import { EvalTimeoutError, callJson, errorMessage, parseJsonObject, withTimeout, type EvalCache, type Parsed } from "./llm-json";
import { buildMetricRequest, missingMetricInput, type MetricInputs } from "./metric-prompts";
import { DEFAULT_METRIC_TIMEOUT_MS, isBuiltInMetric, metricConfigSchema, type MetricConfig } from "./schemas";
import type { EvalLlm, MetricResult } from "./types";

/** `(s - min) / (max - min)`, for scores on any scale. */
export function normaliseScore(score: number, min: number, max: number): number {
  if (max <= min) throw new Error(`Invalid scale ${min}..${max}`);
  return (score - min) / (max - min);
}

const EPSILON = 1e-9;

/** Passed when the score reaches the threshold, both on the metric's scale (null threshold: always). */
export function meetsThreshold(score: number, threshold: number | null): boolean {
  return threshold === null || score + EPSILON >= threshold;
}

const round4 = (v: number) => Math.round(v * 1e4) / 1e4;

/** A threshold on 1..scale as 0..1 (a threshold below the scale's minimum 1 counts as 0). */
export function normaliseThreshold(threshold: number | null, scale: number): number | null {
  return threshold === null ? null : round4(Math.min(1, Math.max(0, normaliseScore(threshold, 1, scale))));
}

/** Validates `{reasoning, score}` strictly: integer score within 1..scale, no other keys. */
export function parseMetricReply(raw: string, scale: number): Parsed<{ reasoning: string; score: number }> {
  const parsed = parseJsonObject(raw);
  if (!parsed.ok) return parsed;
  const v = parsed.value;
  const extra = Object.keys(v).filter((k) => k !== "reasoning" && k !== "score");
  if (extra.length > 0) return { ok: false, error: `Metric reply has unexpected key(s): ${extra.join(", ")}` };
  if (typeof v.reasoning !== "string") return { ok: false, error: "Metric reply is missing reasoning" };
  if (typeof v.score !== "number" || !Number.isInteger(v.score) || v.score < 1 || v.score > scale) {
    return { ok: false, error: `Metric score must be an integer from 1 to ${scale}, got ${JSON.stringify(v.score ?? null)}` };
  }
  return { ok: true, value: { reasoning: v.reasoning, score: v.score } };
}

export type MetricRunOptions = {
  cache?: EvalCache | null;
  /** Clock for evaluation_time_ms (tests). */
  now?: () => number;
};

export async function evaluateMetric(
  config: MetricConfig,
  inputs: MetricInputs,
  llm: EvalLlm,
  options: MetricRunOptions = {},
): Promise<MetricResult> {
  const now = options.now ?? Date.now;
  const started = now();
  const base = {
    metric_name: config.metric,
    threshold: config.threshold,
    normalized_threshold: normaliseThreshold(config.threshold, config.scale),
    scale: config.scale,
    model_used: llm.model,
  };
  const failed = (error: string, retryCount: number): MetricResult => ({
    ...base,
    score: null,
    normalized_score: null,
    raw_score: null,
    reasoning: null,
    passed: null,
    error,
    retry_count: retryCount,
    evaluation_time_ms: Math.max(0, Math.round(now() - started)),
  });

  const missing = missingMetricInput(config, inputs);
  if (missing) return failed(missing, 0);
  let req;
  try {
    req = buildMetricRequest(config, inputs);
  } catch (err) {
    return failed(errorMessage(err), 0);
  }
  const timeoutMs = config.timeout_ms ?? DEFAULT_METRIC_TIMEOUT_MS;
  req.timeoutMs = timeoutMs;
  const attempts = 1 + (config.retry_on_failure ?? 0);
  let lastError = "Not evaluated";
  for (let attempt = 0; attempt < attempts; attempt++) {
    try {
      const { raw } = await withTimeout(callJson(llm, req, options.cache), timeoutMs);
      const reply = parseMetricReply(raw, config.scale);
      if (reply.ok) {
        return {
          ...base,
          score: reply.value.score,
          normalized_score: round4(normaliseScore(reply.value.score, 1, config.scale)),
          raw_score: reply.value.score,
          reasoning: reply.value.reasoning,
          passed: meetsThreshold(reply.value.score, config.threshold),
          error: null,
          retry_count: attempt,
          evaluation_time_ms: Math.max(0, Math.round(now() - started)),
        };
      }
      lastError = reply.error;
      options.cache?.forget(llm, req);
    } catch (err) {
      lastError = err instanceof EvalTimeoutError ? `Metric timed out after ${timeoutMs} ms` : `Metric call failed: ${errorMessage(err)}`;
      options.cache?.forget(llm, req);
    }
  }
  return failed(lastError, attempts - 1);
}

export type MetricsContext = {
  llm: EvalLlm;
  /** Resolves a metric's `model` override (a model configuration id) to a client. */
  metricLlm?: (modelConfigId: string) => EvalLlm | Promise<EvalLlm>;
  cache?: EvalCache | null;
  now?: () => number;
};

/** Evaluates the enabled metrics concurrently; disabled ones produce no result. */
export function evaluateMetrics(configs: readonly MetricConfig[], inputs: MetricInputs, ctx: MetricsContext): Promise<MetricResult[]> {
  return Promise.all(
    configs
      .filter((c) => c.enabled)
      .map(async (config) => {
        let llm = ctx.llm;
        if (config.model && ctx.metricLlm) {
          try {
            llm = await ctx.metricLlm(config.model);
          } catch (err) {
            return {
              metric_name: config.metric,
              score: null,
              normalized_score: null,
              raw_score: null,
              reasoning: null,
              threshold: config.threshold,
              normalized_threshold: normaliseThreshold(config.threshold, config.scale),
              passed: null,
              scale: config.scale,
              error: `Model for this metric is unavailable: ${errorMessage(err)}`,
              retry_count: 0,
              evaluation_time_ms: 0,
              model_used: null,
            } satisfies MetricResult;
          }
        }
        return evaluateMetric(config, inputs, llm, { cache: ctx.cache, now: ctx.now });
      }),
  );
}

/**
 * The execution model per-test metric selection. A case without `evaluations` (null) gets the suite's
 * enabled metrics. A case with a list gets exactly the metrics it names, in its order, with the
 * suite's configuration for each (also when that metric is disabled on the suite: disabled means
 * "not run by default"); an empty list runs no metric. A built-in name the suite does not
 * configure runs with the defaults (scale 5, no threshold: informational); any other unknown name
 * is returned in `unknown` and reported as a metric error.
 */
export function metricsForCase(
  suiteMetrics: readonly MetricConfig[],
  evaluations: readonly string[] | null | undefined,
): { metrics: MetricConfig[]; unknown: string[] } {
  if (evaluations == null) return { metrics: suiteMetrics.filter((m) => m.enabled), unknown: [] };
  const byName = new Map(suiteMetrics.map((m) => [m.metric, m]));
  const metrics: MetricConfig[] = [];
  const unknown: string[] = [];
  for (const name of new Set(evaluations)) {
    const configured = byName.get(name);
    if (configured) metrics.push({ ...configured, enabled: true });
    else if (isBuiltInMetric(name)) metrics.push(metricConfigSchema.parse({ metric: name }));
    else unknown.push(name);
  }
  return { metrics, unknown };
}

/** The result of a metric a case asked for that the suite does not configure. */
export function unknownMetricResult(name: string): MetricResult {
  return {
    metric_name: name,
    score: null,
    normalized_score: null,
    raw_score: null,
    reasoning: null,
    threshold: null,
    normalized_threshold: null,
    passed: null,
    scale: null,
    error: `The suite has no metric "${name}" (add it to the suite's metrics, with a custom prompt)`,
    retry_count: 0,
    evaluation_time_ms: 0,
    model_used: null,
  };
}
