/**
 * Why a verdict flipped between two runs of a suite: the test changed (the case's own content, or
 * the suite's evaluation settings), the agent changed (prompt, tools, model, parameters, variable
 * values), both, or neither — a flip with neither is possibly flaky. Runs and case results carry
 * content hashes (migration run_history: assay_agent_hash, assay_eval_hash, assay_case_hash); the
 * field-by-field diffs below say what changed, for the changes card and the alert. Pure functions:
 * the run page's client components import them too.
 */

export const CHANGE_CAUSES = ["test", "agent", "both", "neither"] as const;
export type ChangeCause = (typeof CHANGE_CAUSES)[number];

/** What changed between the runs as a whole (the same for every flipped case). */
export type RunDelta = { agent_changed: boolean; evaluation_changed: boolean };

/** A hash pair differs; a missing hash (a row written before hashes existed) counts as unchanged, never as a cause. */
export function hashChanged(before: string | null | undefined, after: string | null | undefined): boolean {
  return Boolean(before && after && before !== after);
}

export function causeOf(caseChanged: boolean, delta: RunDelta): ChangeCause {
  const test = caseChanged || delta.evaluation_changed;
  if (test && delta.agent_changed) return "both";
  if (test) return "test";
  if (delta.agent_changed) return "agent";
  return "neither";
}

export const CAUSE_LABELS: Record<ChangeCause, string> = {
  test: "the case changed",
  agent: "the agent changed",
  both: "the case and the agent changed",
  neither: "neither changed: possibly flaky",
};

/**
 * One sentence on why verdicts flipped, for the first line of an alert and its webhook text, e.g.
 * "All 2 flipped cases were edited since the baseline run: the test changed, not the agent."
 */
export function explainFlips(flips: { cause: ChangeCause; case_changed: boolean }[]): string {
  const n = flips.length;
  if (n === 0) return "";
  const count = (c: ChangeCause) => flips.filter((f) => f.cause === c).length;
  if (count("test") === n) {
    if (flips.every((f) => f.case_changed)) {
      return `${n === 1 ? "The flipped case was" : `All ${n} flipped cases were`} edited since the baseline run: the test changed, not the agent.`;
    }
    return "The test changed since the baseline run (the suite's evaluation settings), not the agent.";
  }
  if (count("agent") === n) return "The agent changed since the baseline run and no flipped case was edited.";
  if (count("neither") === n) return "Neither the agent nor any flipped case changed since the baseline run: possibly flaky.";
  const parts: string[] = [];
  if (count("test")) parts.push(`${count("test")} after a test change`);
  if (count("agent")) parts.push(`${count("agent")} after an agent change`);
  if (count("both")) parts.push(`${count("both")} after both`);
  if (count("neither")) parts.push(`${count("neither")} with neither changed (possibly flaky)`);
  return `Of ${n} flipped cases: ${parts.join(", ")}.`;
}

/** One field that differs between two snapshots; `before`/`after` are the stored values (undefined: absent). */
export type FieldDiff = { field: string; before: unknown; after: unknown };

const same = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/** JSON with object keys sorted, so key order never counts as a change (jsonb keeps no order either). */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === "object") {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
    );
  }
  return v === undefined ? null : v;
}

function diffFields(fields: [string, unknown, unknown][]): FieldDiff[] {
  return fields.filter(([, a, b]) => !same(a, b)).map(([field, before, after]) => ({ field, before, after }));
}

type AgentSnapshotLike = {
  kind?: unknown;
  system_prompt?: unknown;
  tools?: unknown;
  model_config?: { base_url?: unknown; model?: unknown; temperature?: unknown; max_tokens?: unknown } | null;
  http?: { url?: unknown; timeout_ms?: unknown; header_names?: unknown } | null;
  overrides?: { temperature?: unknown; max_tokens?: unknown } | null;
};
type VariablesLike = { values?: Record<string, unknown> } | null | undefined;

/** What differs in the agent configuration: the fields assay_agent_hash covers, one diff each (variables one per name). */
export function agentDiff(before: unknown, after: unknown, beforeVars: unknown, afterVars: unknown): FieldDiff[] {
  const a = (before ?? {}) as AgentSnapshotLike;
  const b = (after ?? {}) as AgentSnapshotLike;
  const va = ((beforeVars as VariablesLike)?.values ?? {}) as Record<string, unknown>;
  const vb = ((afterVars as VariablesLike)?.values ?? {}) as Record<string, unknown>;
  const names = [...new Set([...Object.keys(va), ...Object.keys(vb)])].sort();
  return diffFields([
    ["kind", a.kind, b.kind],
    ["system_prompt", a.system_prompt, b.system_prompt],
    ["tools", a.tools, b.tools],
    ["model", a.model_config?.model, b.model_config?.model],
    ["base_url", a.model_config?.base_url, b.model_config?.base_url],
    ["temperature", a.overrides?.temperature ?? a.model_config?.temperature, b.overrides?.temperature ?? b.model_config?.temperature],
    ["max_tokens", a.overrides?.max_tokens ?? a.model_config?.max_tokens, b.overrides?.max_tokens ?? b.model_config?.max_tokens],
    ["http.url", a.http?.url, b.http?.url],
    ["http.timeout_ms", a.http?.timeout_ms, b.http?.timeout_ms],
    ["http.header_names", a.http?.header_names, b.http?.header_names],
    ...names.map((n): [string, unknown, unknown] => [`variables.${n}`, va[n], vb[n]]),
  ]);
}

type EvalSnapshotLike = {
  judge_model_config?: { model?: unknown; base_url?: unknown } | null;
  simulator_model_config?: { model?: unknown; base_url?: unknown } | null;
  metrics?: unknown;
  max_turns_cap?: unknown;
};

/** What differs in the evaluation settings (the fields assay_eval_hash covers). */
export function evaluationDiff(before: unknown, after: unknown): FieldDiff[] {
  const a = (before ?? {}) as EvalSnapshotLike;
  const b = (after ?? {}) as EvalSnapshotLike;
  return diffFields([
    ["judge_model", a.judge_model_config?.model, b.judge_model_config?.model],
    ["judge_base_url", a.judge_model_config?.base_url, b.judge_model_config?.base_url],
    ["simulator_model", a.simulator_model_config?.model, b.simulator_model_config?.model],
    ["simulator_base_url", a.simulator_model_config?.base_url, b.simulator_model_config?.base_url],
    ["metrics", a.metrics, b.metrics],
    ["max_turns_cap", a.max_turns_cap, b.max_turns_cap],
  ]);
}

/** Snapshot keys that do not shape a case's execution or verdict (assay_case_hash leaves them out too). */
const CASE_LABEL_KEYS = new Set(["id", "name", "description", "difficulty", "tags", "status"]);

/** What differs in a case's content between two of its snapshots (the fields assay_case_hash covers). */
export function caseDiff(before: unknown, after: unknown): FieldDiff[] {
  const a = (before ?? {}) as Record<string, unknown>;
  const b = (after ?? {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !CASE_LABEL_KEYS.has(k));
  return diffFields(keys.map((k): [string, unknown, unknown] => [k, a[k], b[k]]));
}
