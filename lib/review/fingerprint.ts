/**
 * The judge's fingerprint: which judge gave a verdict. Calibration figures belong to one judge —
 * change its endpoint or model, the text of its rubrics and prompts (a code change), or the
 * suite's metric criteria, and a new fingerprint starts, with figures of its own. A review item
 * records the fingerprint of the run its result comes from (`Run.evalSnapshot`); the suite's
 * current fingerprint is computed the same way from its settings today.
 */
import { createHash } from "node:crypto";
import { buildOutcomeJudgeRequest } from "@/lib/evaluation/judge";
import { buildCheckJudgeRequest } from "@/lib/evaluation/checks";
import { METRIC_RUBRICS } from "@/lib/evaluation/metric-prompts";

/** What a fingerprint is made of, kept beside it for display ("gpt-4o at https://…, rubric 3f2a…"). */
export type JudgeInfo = {
  model_config_name: string | null;
  base_url: string | null;
  model: string | null;
  /** Hash of the judge prompts the code sends (outcome judge, llm_judge checks, metric rubrics). */
  rubric_hash: string;
  /** Hash of the suite's metric configuration (custom prompts, thresholds, scales, model overrides). */
  criteria_hash: string;
};

/** JSON with object keys sorted: the same settings hash the same whichever order they were stored in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

const sha = (value: unknown) => createHash("sha256").update(canonical(value)).digest("hex");

let rubricHash: string | null = null;
/**
 * The prompts as the code builds them for a fixed input: any edit to a rubric or prompt template
 * changes it. Computed once per process.
 */
function currentRubricHash(): string {
  rubricHash ??= sha({
    outcomes: buildOutcomeJudgeRequest({ transcript: [], expectedOutcomes: { outcome: true } }).messages,
    check: buildCheckJudgeRequest({ type: "llm_judge", expected_answer: "answer", criteria: null }, { question: "q", response: "r" })
      .messages,
    checkWithCriteria: buildCheckJudgeRequest(
      { type: "llm_judge", expected_answer: "answer", criteria: "c" },
      { question: "q", response: "r" },
    ).messages,
    metrics: METRIC_RUBRICS,
  }).slice(0, 16);
  return rubricHash;
}

type JudgeModel = { name?: unknown; base_url?: unknown; model?: unknown } | null | undefined;

/** The fingerprint of a judge model (a run's `evalSnapshot.judge_model_config`, or a suite's judge) with the suite's metrics. */
export function judgeFingerprint(judge: JudgeModel, metrics: unknown): { fingerprint: string; info: JudgeInfo } {
  const text = (v: unknown) => (typeof v === "string" ? v : null);
  const info: JudgeInfo = {
    model_config_name: text(judge?.name),
    base_url: text(judge?.base_url),
    model: text(judge?.model),
    rubric_hash: currentRubricHash(),
    criteria_hash: sha(Array.isArray(metrics) ? metrics : []).slice(0, 16),
  };
  const fingerprint = sha([info.base_url, info.model, info.rubric_hash, info.criteria_hash]).slice(0, 16);
  return { fingerprint, info };
}

/** The fingerprint of the judge a run used, from its `evalSnapshot`. */
export function runJudgeFingerprint(evalSnapshot: unknown): { fingerprint: string; info: JudgeInfo } {
  const snap = (evalSnapshot ?? {}) as { judge_model_config?: JudgeModel; metrics?: unknown };
  return judgeFingerprint(snap.judge_model_config, snap.metrics);
}
