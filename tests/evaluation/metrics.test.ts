import { describe, expect, it } from "vitest";
import { createEvalCache } from "@/lib/evaluation/llm-json";
import { buildMetricRequest, metricSchemaName, type MetricInputs } from "@/lib/evaluation/metric-prompts";
import {
  evaluateMetric,
  evaluateMetrics,
  meetsThreshold,
  metricsForCase,
  normaliseScore,
  normaliseThreshold,
  parseMetricReply,
} from "@/lib/evaluation/metrics";
import { metricConfigListSchema, metricConfigSchema, type MetricConfigInput } from "@/lib/evaluation/schemas";
import { fakeLlm, METRIC_DEFAULTS } from "./helpers";

const inputs: MetricInputs = {
  conversation: "Turn 1 — user:\nWhen do you open?\n\nTurn 1 — agent:\nAt 9.",
  question: "When do you open?",
  response: "At 9.",
  groundTruth: "The shop opens at 9am.",
  context: 'get_hours: {"open":"09:00"}',
};
const metric = (m: MetricConfigInput) => metricConfigSchema.parse(m);
const reply = (score: unknown, reasoning = "because") => JSON.stringify({ reasoning, score });

describe("metricConfigSchema", () => {
  it("applies the execution model's defaults", () => {
    expect(metric({ metric: "relevance" })).toEqual({ metric: "relevance", ...METRIC_DEFAULTS });
  });

  it.each([
    [{ metric: "" }, "metric"],
    [{ metric: "relevance", threshold: 6 }, "threshold"],
    [{ metric: "relevance", scale: 3, threshold: 4 }, "threshold"],
    [{ metric: "relevance", threshold: -1 }, "threshold"],
    [{ metric: "relevance", retry_on_failure: 0 }, "retry_on_failure"],
    [{ metric: "relevance", retry_on_failure: 4 }, "retry_on_failure"],
    [{ metric: "relevance", timeout_ms: 0 }, "timeout_ms"],
    [{ metric: "relevance", scale: 1 }, "scale"],
    [{ metric: "relevance", model: "gpt-4o" }, "model"],
    [{ metric: "custom" }, "custom_prompt"],
    [{ metric: "politeness" }, "custom_prompt"],
  ])("rejects %j at %s", (input, path) => {
    const r = metricConfigSchema.safeParse(input);
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path.join("."))).toContain(path);
  });

  it("accepts a threshold on the metric's own scale (the execution model: threshold 4 with scale 5)", () => {
    expect(metricConfigSchema.safeParse({ metric: "relevance", threshold: 4, scale: 5 }).success).toBe(true);
    expect(metricConfigSchema.safeParse({ metric: "relevance", threshold: 10, scale: 10 }).success).toBe(true);
    expect(metricConfigSchema.safeParse({ metric: "relevance", threshold: 0 }).success).toBe(true);
    const r = metricConfigSchema.safeParse({ metric: "relevance", threshold: 6 });
    expect(r.error?.issues[0]?.message).toBe("Threshold is on the metric's own scale: at most 5 (its scale)");
  });

  it("accepts a named custom metric with a prompt, and rejects duplicate names in a list", () => {
    expect(metricConfigSchema.safeParse({ metric: "politeness", custom_prompt: "Is it polite?" }).success).toBe(true);
    const list = metricConfigListSchema.safeParse([{ metric: "relevance" }, { metric: "relevance", threshold: 0.5 }]);
    expect(list.success).toBe(false);
    expect(list.error?.issues[0]?.path).toEqual([1, "metric"]);
  });
});

describe("normalisation and threshold", () => {
  it("normalises (s - min) / (max - min)", () => {
    expect(normaliseScore(1, 1, 5)).toBe(0);
    expect(normaliseScore(5, 1, 5)).toBe(1);
    expect(normaliseScore(4, 1, 5)).toBe(0.75);
    expect(normaliseScore(8, 1, 11)).toBe(0.7);
    expect(() => normaliseScore(1, 1, 1)).toThrow();
  });

  it("compares the score with the threshold on the metric's scale; null threshold always passes", () => {
    expect(meetsThreshold(4, 4)).toBe(true);
    expect(meetsThreshold(3, 4)).toBe(false);
    expect(meetsThreshold(3, 3.5)).toBe(false);
    expect(meetsThreshold(1, null)).toBe(true);
  });

  it("normalises thresholds like scores, clamped to 0..1", () => {
    expect(normaliseThreshold(4, 5)).toBe(0.75);
    expect(normaliseThreshold(3.8, 5)).toBe(0.7);
    expect(normaliseThreshold(0, 5)).toBe(0);
    expect(normaliseThreshold(null, 5)).toBeNull();
  });

  it("records score and threshold on the scale, both normalised, the raw score, reasoning and model", async () => {
    const llm = fakeLlm(() => reply(4, "mostly relevant"), undefined, "gpt-4o");
    const r = await evaluateMetric(metric({ metric: "relevance", threshold: 4 }), inputs, llm);
    expect(r).toMatchObject({
      metric_name: "relevance",
      score: 4,
      normalized_score: 0.75,
      raw_score: 4,
      threshold: 4,
      normalized_threshold: 0.75,
      passed: true,
      scale: 5,
      error: null,
      retry_count: 0,
      model_used: "gpt-4o",
      reasoning: "mostly relevant",
    });
    expect(r.evaluation_time_ms).toBeGreaterThanOrEqual(0);
  });

  it("fails below the threshold on a custom scale", async () => {
    const llm = fakeLlm(() => reply(6));
    const r = await evaluateMetric(metric({ metric: "coherence", scale: 10, threshold: 7 }), inputs, llm);
    expect(r).toMatchObject({ score: 6, normalized_score: 0.5556, threshold: 7, normalized_threshold: 0.6667, passed: false });
    expect(llm.calls[0]?.schema).toMatchObject({ properties: { score: { type: "integer", minimum: 1, maximum: 10 } } });
  });
});

describe("replies, retries and timeouts", () => {
  it.each([
    ["out of range", reply(6)],
    ["zero", reply(0)],
    ["non-integer", reply(3.5)],
    ["string score", reply("4")],
    ["extra key", JSON.stringify({ reasoning: "r", score: 3, verdict: "pass" })],
    ["garbage", "four"],
  ])("rejects %s", (_, raw) => {
    expect(parseMetricReply(raw, 5).ok).toBe(false);
  });

  it("retries unparseable output and counts retries", async () => {
    const llm = fakeLlm((_, n) => (n < 3 ? "garbage" : reply(5)));
    const r = await evaluateMetric(metric({ metric: "fluency", retry_on_failure: 3 }), inputs, llm);
    expect(r).toMatchObject({ passed: true, score: 5, normalized_score: 1, retry_count: 2, error: null });
    expect(llm.calls).toHaveLength(3);
  });

  it("gives up after retry_on_failure retries with the last error", async () => {
    const llm = fakeLlm(() => {
      throw new Error("HTTP 503");
    });
    const r = await evaluateMetric(metric({ metric: "fluency", retry_on_failure: 2, threshold: 3 }), inputs, llm);
    expect(llm.calls).toHaveLength(3);
    // Not evaluated: neither passed nor failed (only fail_on_error lets it decide the case).
    expect(r).toMatchObject({ passed: null, score: null, normalized_score: null, normalized_threshold: 0.5, retry_count: 2 });
    expect(r.error).toMatch(/HTTP 503/);
  });

  it("does not retry without retry_on_failure", async () => {
    const llm = fakeLlm(() => "nope");
    const r = await evaluateMetric(metric({ metric: "fluency" }), inputs, llm);
    expect(llm.calls).toHaveLength(1);
    expect(r.retry_count).toBe(0);
    expect(r.error).toMatch(/not valid JSON/);
  });

  it("times out each call after timeout_ms and retries", async () => {
    const llm = fakeLlm((_, n) => (n === 1 ? new Promise<string>(() => {}) : reply(3)));
    const started = Date.now();
    const r = await evaluateMetric(metric({ metric: "fluency", timeout_ms: 50, retry_on_failure: 1 }), inputs, llm);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(r).toMatchObject({ score: 3, normalized_score: 0.5, retry_count: 1, error: null });
    expect(llm.calls[0]?.timeoutMs).toBe(50);

    const hung = fakeLlm(() => new Promise<string>(() => {}));
    const t = await evaluateMetric(metric({ metric: "fluency", timeout_ms: 30 }), inputs, hung);
    expect(t.error).toBe("Metric timed out after 30 ms");
    expect(t.evaluation_time_ms).toBeGreaterThanOrEqual(25);
  });

  it("retries are not served a cached bad reply", async () => {
    const cache = createEvalCache();
    const llm = fakeLlm((_, n) => (n === 1 ? "bad" : reply(2)));
    const r = await evaluateMetric(metric({ metric: "fluency", retry_on_failure: 1 }), inputs, llm, { cache });
    expect(r).toMatchObject({ raw_score: 2, retry_count: 1 });
    expect(llm.calls).toHaveLength(2);
  });
});

describe("metric prompts and inputs", () => {
  it("errors without a call when correctness has no ground truth", async () => {
    const llm = fakeLlm(() => reply(5));
    const r = await evaluateMetric(metric({ metric: "correctness", threshold: 3 }), { ...inputs, groundTruth: null }, llm);
    expect(r.error).toMatch(/ground_truth/);
    expect(r.passed).toBeNull();
    expect(llm.calls).toHaveLength(0);
  });

  it("groundedness uses ground truth and tool results; fluency only the response", () => {
    const g = buildMetricRequest(metric({ metric: "groundedness" }), inputs).messages[1]?.content ?? "";
    expect(g).toContain("The shop opens at 9am.");
    expect(g).toContain('get_hours: {"open":"09:00"}');
    const f = buildMetricRequest(metric({ metric: "fluency" }), inputs).messages[1]?.content ?? "";
    expect(f).toContain("At 9.");
    expect(f).not.toContain("9am");
  });

  it("custom prompts replace the rubric and fill placeholders", () => {
    const req = buildMetricRequest(
      metric({ metric: "politeness", custom_prompt: "Rate politeness of {{response}} given {{ question }}. Keep {{unknown}}." }),
      inputs,
    );
    expect(req.schemaName).toBe("metric_politeness");
    expect(req.messages[1]?.content).toBe("Rate politeness of At 9. given When do you open?. Keep {{unknown}}.");
    const plain = buildMetricRequest(metric({ metric: "custom", custom_prompt: "Is the answer short?" }), inputs);
    expect(plain.messages[0]?.content).toContain("Is the answer short?");
    expect(plain.messages[1]?.content).toContain("At 9.");
    expect(metricSchemaName("x".repeat(64))).toHaveLength(64);
  });

  it("evaluates enabled metrics only, with the per-metric model override", async () => {
    const judge = fakeLlm(() => reply(5), undefined, "judge-model");
    const special = fakeLlm(() => reply(1), undefined, "special-model");
    const modelId = "7f0c2a1e-8a4b-4c1d-9e2f-0a1b2c3d4e5f";
    const results = await evaluateMetrics(
      [
        metric({ metric: "relevance" }),
        metric({ metric: "fluency", enabled: false }),
        metric({ metric: "coherence", model: modelId, threshold: 3 }),
      ],
      inputs,
      { llm: judge, metricLlm: (id) => (id === modelId ? special : judge) },
    );
    expect(results.map((r) => [r.metric_name, r.model_used, r.passed])).toEqual([
      ["relevance", "judge-model", true],
      ["coherence", "special-model", false],
    ]);
  });

  it("reports an unavailable override model as a metric error", async () => {
    const results = await evaluateMetrics([metric({ metric: "relevance", model: "7f0c2a1e-8a4b-4c1d-9e2f-0a1b2c3d4e5f" })], inputs, {
      llm: fakeLlm(() => reply(5)),
      metricLlm: () => {
        throw new Error("model configuration not found");
      },
    });
    expect(results[0]).toMatchObject({ passed: null, model_used: null });
    expect(results[0]?.error).toMatch(/not found/);
  });
});

describe("per-test metric selection (the execution model's test case evaluations)", () => {
  const suite = [
    metric({ metric: "relevance", threshold: 4 }),
    metric({ metric: "fluency", enabled: false }),
    metric({ metric: "politeness", custom_prompt: "Is it polite?", scale: 10, threshold: 7 }),
  ];

  it("null: the suite's enabled metrics", () => {
    expect(metricsForCase(suite, null).metrics.map((m) => m.metric)).toEqual(["relevance", "politeness"]);
    expect(metricsForCase(suite, undefined).unknown).toEqual([]);
  });

  it("a list: exactly those, in its order, with the suite's configuration (also a disabled one)", () => {
    const { metrics, unknown } = metricsForCase(suite, ["politeness", "fluency"]);
    expect(metrics.map((m) => [m.metric, m.enabled, m.threshold, m.scale])).toEqual([
      ["politeness", true, 7, 10],
      ["fluency", true, null, 5],
    ]);
    expect(unknown).toEqual([]);
  });

  it("an empty list runs no metric; an unconfigured built-in runs with defaults; an unknown name is reported", () => {
    expect(metricsForCase(suite, [])).toEqual({ metrics: [], unknown: [] });
    const { metrics, unknown } = metricsForCase(suite, ["coherence", "tone"]);
    expect(metrics).toEqual([metric({ metric: "coherence" })]);
    expect(unknown).toEqual(["tone"]);
  });
});
