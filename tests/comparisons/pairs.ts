// Builders for comparison pairs in the comparison tests: deterministic noise from the same PRNG
// the statistics use, so every expected sentence and number is reproducible.
import type { ArmExecution, ArmStatus, ComparisonPair } from "@/lib/comparisons/diffs";
import { mulberry32 } from "@/lib/comparisons/statistics";

export function execution(overrides: Partial<ArmExecution> = {}): ArmExecution {
  return { response: "an answer", prompt_tokens: 80, completion_tokens: 20, latency_ms: 200, status: "passed", error: null, ...overrides };
}

export function failedCall(): ArmExecution {
  return execution({
    response: "",
    prompt_tokens: 0,
    completion_tokens: 0,
    latency_ms: 0,
    status: "error",
    error: "Failed after 3 attempts: HTTP 503",
  });
}

export interface PairPlan {
  n: number;
  /** Added to the variant's latency, ms. */
  latencyShiftMs?: number;
  /** Uniform noise of each arm's latency, ± ms. */
  noiseMs?: number;
  /** Variant total tokens = baseline × this (baseline 100 tokens). */
  tokenFactor?: number;
  seed?: number;
  statuses?: (i: number) => [ArmStatus, ArmStatus];
}

export function makePairs(plan: PairPlan): ComparisonPair[] {
  const random = mulberry32(plan.seed ?? 1);
  const noise = () => (random() - 0.5) * 2 * (plan.noiseMs ?? 10);
  return Array.from({ length: plan.n }, (_, i) => {
    const [b, v] = plan.statuses?.(i) ?? ["passed", "passed"];
    const variantTotal = Math.round(100 * (plan.tokenFactor ?? 1));
    return {
      baseline: execution({ latency_ms: 200 + noise(), prompt_tokens: 80, completion_tokens: 20, status: b }),
      variant: execution({
        latency_ms: 200 + (plan.latencyShiftMs ?? 0) + noise(),
        prompt_tokens: variantTotal - 20,
        completion_tokens: 20,
        status: v,
      }),
    };
  });
}
