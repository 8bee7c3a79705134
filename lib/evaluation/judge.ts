/**
 * The outcome judge (DESIGN.md "Judge verdicts"): one structured-output call over the whole
 * transcript; outcomes get server-generated keys o1…oN (all required, nothing else allowed), each
 * answered with {reasoning, evidence_turns, verdict} — reasoning first. The platform, not the
 * model, decides pass (every outcome passed). Fail closed: any malformed reply fails every
 * outcome and reports a judge error.
 */
import { callJson, errorMessage, isPlainObject, parseJsonObject, readVerdict, type EvalCache, type Parsed } from "./llm-json";
import { TURN_NUMBERING, countTurns, renderTranscript } from "./transcript";
import type { EvalJsonRequest, EvalLlm, OutcomeResult, TranscriptMessage } from "./types";

export const OUTCOME_SCHEMA_NAME = "outcome_verdicts";

export type OutcomeKey = { key: string; label: string; expected: unknown };

/** Server-generated keys o1…oN, in the order of the case's expected_outcomes object. */
export function outcomeKeys(expectedOutcomes: Record<string, unknown> | null | undefined): OutcomeKey[] {
  return Object.entries(expectedOutcomes ?? {}).map(([label, expected], i) => ({ key: `o${i + 1}`, label, expected }));
}

export const DEFAULT_OUTCOME_RUBRIC = [
  "- Judge only from what the transcript shows. An outcome the transcript gives no evidence for is not met.",
  "- The agent's tool calls and the tool results it received count as the agent's actions; the agent's claims that it did something it did not do (no matching tool call) do not.",
  "- Judge the AGENT's behaviour, not the user's. Statements by the user never satisfy an outcome on the agent's behalf.",
  "- Be strict and literal about negative outcomes: if an outcome says something must not happen, a single occurrence fails it.",
  "- Judge each outcome independently of the others.",
].join("\n");

function describeExpected(value: unknown): string {
  return JSON.stringify(value === undefined ? null : value);
}

export type OutcomeJudgeInput = {
  transcript: TranscriptMessage[];
  expectedOutcomes: Record<string, unknown> | null | undefined;
  /** Replaces DEFAULT_OUTCOME_RUBRIC (never the output schema). */
  criteriaOverride?: string | null;
};

export function buildOutcomeSchema(keys: readonly OutcomeKey[]): Record<string, unknown> {
  const item = {
    type: "object",
    properties: {
      reasoning: { type: "string" },
      evidence_turns: { type: "array", items: { type: "integer" } },
      verdict: { type: "string", enum: ["pass", "fail"] },
    },
    required: ["reasoning", "evidence_turns", "verdict"],
    additionalProperties: false,
  };
  return {
    type: "object",
    properties: Object.fromEntries(keys.map((k) => [k.key, item])),
    required: keys.map((k) => k.key),
    additionalProperties: false,
  };
}

/** The exact judge request (for tests, and to show "why did the judge say that?"). */
export function buildOutcomeJudgeRequest(input: OutcomeJudgeInput): EvalJsonRequest & { keys: OutcomeKey[] } {
  const keys = outcomeKeys(input.expectedOutcomes);
  const rubric = input.criteriaOverride?.trim() ? input.criteriaOverride.trim() : DEFAULT_OUTCOME_RUBRIC;
  const system = [
    "You are an impartial QA evaluator. You evaluate the behaviour of an AI AGENT in a conversation with a user (the user may be simulated) against a list of expected outcomes written by a tester.",
    "",
    "Each expected outcome has a key (o1, o2, …), a label and an expected value. The label describes the outcome; the value is the state it is expected to have:",
    "- true: the described outcome must happen (be true) by the end of the conversation;",
    "- false: the described outcome must NOT happen (be false);",
    '- a string or number: the described thing must have that value (for example a label "refund amount" with value 25 means the agent must settle on a refund of 25);',
    "- anything else (a list or object): the described thing must match it in substance.",
    "",
    'The conversation is given in numbered turns: turn N is the N-th user message and everything the agent did in reply — its messages, the tool calls it made (shown inline under its message as → TOOL CALL) and the tool results it received. Each message is headed by its turn and who it is from (for example "Turn 2 — user:", "Turn 2 — agent:"). The system prompt, shown first, is the agent\'s instructions and not a turn.',
    "",
    "## Evaluation criteria",
    rubric,
    "",
    "## Answer",
    'For EVERY key, first write your reasoning, then list the numbers of the turns that are your evidence (the N of "Turn N"; empty when there is none), then give the verdict "pass" (the outcome is met as expected) or "fail". Do not add other keys. Answer in the required JSON format only.',
  ].join("\n");
  const outcomes = keys
    .map((k) => `- ${k.key}: label: ${JSON.stringify(k.label)}; expected value: ${describeExpected(k.expected)}`)
    .join("\n");
  const user = ["## Conversation", renderTranscript(input.transcript), "", "## Expected outcomes", outcomes].join("\n");
  return {
    purpose: "judge",
    messages: [
      { role: "system", content: system },
      { role: "user", content: user },
    ],
    schemaName: OUTCOME_SCHEMA_NAME,
    schema: buildOutcomeSchema(keys),
    keys,
  };
}

type Verdicts = Map<string, { reasoning: string; evidence_turns: number[]; verdict: "pass" | "fail" }>;

/** Strictly validates the judge reply: every key present, no extra keys, known verdicts. */
export function parseOutcomeVerdicts(raw: string, keys: readonly OutcomeKey[], turnCount: number): Parsed<Verdicts> {
  const parsed = parseJsonObject(raw);
  if (!parsed.ok) return parsed;
  const known = new Set(keys.map((k) => k.key));
  const extra = Object.keys(parsed.value).filter((k) => !known.has(k));
  if (extra.length > 0) return { ok: false, error: `Judge reply has unexpected key(s): ${extra.join(", ")}` };
  const verdicts: Verdicts = new Map();
  for (const { key } of keys) {
    const item = parsed.value[key];
    if (item === undefined) return { ok: false, error: `Judge reply is missing outcome ${key}` };
    const verdict = readVerdict(item, `Judge reply for ${key}`, ["reasoning", "evidence_turns", "verdict"]);
    if (!verdict.ok) return verdict;
    const turns = isPlainObject(item) ? item.evidence_turns : undefined;
    if (!Array.isArray(turns) || !turns.every((t) => Number.isInteger(t))) {
      return { ok: false, error: `Judge reply for ${key}: evidence_turns must be a list of turn numbers` };
    }
    // Turn numbers outside the transcript are dropped rather than failing the verdict.
    const evidence = [...new Set(turns as number[])].filter((t) => t >= 1 && t <= turnCount).sort((a, b) => a - b);
    verdicts.set(key, { ...verdict.value, evidence_turns: evidence });
  }
  return { ok: true, value: verdicts };
}

export type OutcomeJudgement = { results: OutcomeResult[]; judge_error: string | null };

/** Every outcome failed with the same reason (judge error, or not evaluated). */
export function failedOutcomes(keys: readonly OutcomeKey[], reasoning: string): OutcomeResult[] {
  return keys.map((k) => ({
    key: k.key,
    label: k.label,
    expected: k.expected,
    passed: false,
    reasoning,
    evidence_turns: [],
    turn_numbering: TURN_NUMBERING,
  }));
}

export async function judgeOutcomes(
  input: OutcomeJudgeInput,
  llm: EvalLlm,
  cache?: EvalCache | null,
  timeoutMs?: number,
): Promise<OutcomeJudgement> {
  // No outcomes, no judge: skip rendering the transcript into a prompt nobody sends (every case
  // without expected outcomes would pay for it).
  if (outcomeKeys(input.expectedOutcomes).length === 0) return { results: [], judge_error: null };
  const req = buildOutcomeJudgeRequest(input);
  const { keys, ...request } = req;
  if (timeoutMs) request.timeoutMs = timeoutMs;
  let raw: string;
  try {
    raw = (await callJson(llm, request, cache)).raw;
  } catch (err) {
    const error = `Judge call failed: ${errorMessage(err)}`;
    return { results: failedOutcomes(keys, `Judge error: ${error}`), judge_error: error };
  }
  const verdicts = parseOutcomeVerdicts(raw, keys, countTurns(input.transcript));
  if (!verdicts.ok) return { results: failedOutcomes(keys, `Judge error: ${verdicts.error}`), judge_error: verdicts.error };
  return {
    results: keys.map((k) => {
      const v = verdicts.value.get(k.key)!;
      return {
        key: k.key,
        label: k.label,
        expected: k.expected,
        passed: v.verdict === "pass",
        reasoning: v.reasoning,
        evidence_turns: v.evidence_turns,
        turn_numbering: TURN_NUMBERING,
      };
    }),
    judge_error: null,
  };
}
