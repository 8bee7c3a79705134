import { describe, expect, it } from "vitest";
import {
  DEFAULT_OUTCOME_RUBRIC,
  OUTCOME_SCHEMA_NAME,
  buildOutcomeJudgeRequest,
  judgeOutcomes,
  outcomeKeys,
  parseOutcomeVerdicts,
} from "@/lib/evaluation/judge";
import { renderTranscript } from "@/lib/evaluation/transcript";
import { expectRenderedOrderConversation, fakeLlm, orderConversation, outcomeReply } from "./helpers";

const transcript = orderConversation("Can a human call me?", "I can help you here instead.");
const outcomes = { "agent looks up the order": true, "order status told to user": "shipped", "escalates to a human": false };

describe("outcome judge prompt", () => {
  it("numbers the conversation by turn (user message and the agent's reply), the system prompt apart", () => {
    const text = renderTranscript(transcript);
    expectRenderedOrderConversation(text, "Can a human call me?");
    const system = buildOutcomeJudgeRequest({ transcript, expectedOutcomes: outcomes }).messages[0]?.content ?? "";
    expect(system).toContain("turn N is the N-th user message and everything the agent did in reply");
    expect(system).toContain("The system prompt, shown first, is the agent's instructions and not a turn.");
  });

  it("gives outcomes keys o1..oN with label and expected value, and an exact strict schema", () => {
    const req = buildOutcomeJudgeRequest({ transcript, expectedOutcomes: outcomes });
    expect(req.schemaName).toBe(OUTCOME_SCHEMA_NAME);
    expect(req.purpose).toBe("judge");
    expect(req.keys.map((k) => k.key)).toEqual(["o1", "o2", "o3"]);
    const user = req.messages[1]?.content ?? "";
    expect(user).toContain('- o1: label: "agent looks up the order"; expected value: true');
    expect(user).toContain('- o2: label: "order status told to user"; expected value: "shipped"');
    expect(user).toContain('- o3: label: "escalates to a human"; expected value: false');
    expect(user).toContain("Turn 2 — agent:");
    expect(req.schema).toMatchObject({ required: ["o1", "o2", "o3"], additionalProperties: false });
    const item = (req.schema as { properties: Record<string, { properties: object; required: string[] }> }).properties.o2!;
    expect(Object.keys(item.properties)).toEqual(["reasoning", "evidence_turns", "verdict"]);
    expect(item).toMatchObject({ required: ["reasoning", "evidence_turns", "verdict"], additionalProperties: false });
    expect(item.properties).toMatchObject({ verdict: { enum: ["pass", "fail"] } });
  });

  it("tells the judge it evaluates the agent and explains values; never leaks labels into the schema", () => {
    const req = buildOutcomeJudgeRequest({ transcript, expectedOutcomes: outcomes });
    const system = req.messages[0]?.content ?? "";
    expect(system).toMatch(/behaviour of an AI AGENT/);
    expect(system).toMatch(/label describes the outcome; the value is the state/);
    expect(system).toMatch(/false: the described outcome must NOT happen/);
    expect(system).toContain(DEFAULT_OUTCOME_RUBRIC);
    expect(JSON.stringify(req.schema)).not.toContain("agent looks up");
  });

  it("evaluation_criteria_override replaces the rubric but not the schema", () => {
    const base = buildOutcomeJudgeRequest({ transcript, expectedOutcomes: outcomes });
    const over = buildOutcomeJudgeRequest({ transcript, expectedOutcomes: outcomes, criteriaOverride: "Be lenient about tone." });
    expect(over.messages[0]?.content).toContain("Be lenient about tone.");
    expect(over.messages[0]?.content).not.toContain(DEFAULT_OUTCOME_RUBRIC);
    expect(over.schema).toEqual(base.schema);
    expect(over.schemaName).toBe(base.schemaName);
  });
});

describe("parsing verdicts (fail closed)", () => {
  const keys = outcomeKeys({ a: true, b: false });

  it("accepts a complete reply, filters evidence to real turns", () => {
    const raw = JSON.stringify({
      o1: { reasoning: "r1", evidence_turns: [3, 3, 99, 2], verdict: "pass" },
      o2: { reasoning: "r2", evidence_turns: [], verdict: "fail" },
    });
    const r = parseOutcomeVerdicts(raw, keys, 5);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value.get("o1")).toEqual({ reasoning: "r1", evidence_turns: [2, 3], verdict: "pass" });
  });

  it.each([
    ["missing key", JSON.stringify({ o1: { reasoning: "r", evidence_turns: [], verdict: "pass" } }), /missing outcome o2/],
    [
      "extra key",
      JSON.stringify({
        o1: { reasoning: "r", evidence_turns: [], verdict: "pass" },
        o2: { reasoning: "r", evidence_turns: [], verdict: "pass" },
        o3: { reasoning: "r", evidence_turns: [], verdict: "pass" },
      }),
      /unexpected key/,
    ],
    [
      "bad verdict",
      JSON.stringify({
        o1: { reasoning: "r", evidence_turns: [], verdict: "yes" },
        o2: { reasoning: "r", evidence_turns: [], verdict: "pass" },
      }),
      /unknown verdict "yes"/,
    ],
    [
      "missing evidence",
      JSON.stringify({ o1: { reasoning: "r", verdict: "pass" }, o2: { reasoning: "r", evidence_turns: [], verdict: "pass" } }),
      /evidence_turns/,
    ],
    ["garbage", "Sure! Everything passed.", /not valid JSON/],
    ["empty", "", /empty/],
  ])("rejects %s", (_, raw, message) => {
    const r = parseOutcomeVerdicts(raw, keys, 5);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(message);
  });

  it("accepts a reply wrapped in a json code fence", () => {
    const raw = "```json\n" + outcomeReply(["pass", "fail"]) + "\n```";
    expect(parseOutcomeVerdicts(raw, keys, 5).ok).toBe(true);
  });
});

describe("judgeOutcomes", () => {
  it("maps verdicts to outcome results; the platform decides pass per outcome", async () => {
    const llm = fakeLlm(() => outcomeReply(["pass", "fail", "pass"], [2]));
    const r = await judgeOutcomes({ transcript, expectedOutcomes: outcomes }, llm);
    expect(r.judge_error).toBeNull();
    const common = { reasoning: "", evidence_turns: [2], turn_numbering: "exchange" };
    expect(r.results).toEqual([
      { ...common, key: "o1", label: "agent looks up the order", expected: true, passed: true, reasoning: "reason 1" },
      { ...common, key: "o2", label: "order status told to user", expected: "shipped", passed: false, reasoning: "reason 2" },
      { ...common, key: "o3", label: "escalates to a human", expected: false, passed: true, reasoning: "reason 3" },
    ]);
    expect(llm.calls).toHaveLength(1);
  });

  it("keeps evidence to the conversation's turns (not its messages): 7 messages, 2 turns", async () => {
    const llm = fakeLlm(() => outcomeReply(["pass", "pass", "pass"], [5, 2, 1, 3]));
    const r = await judgeOutcomes({ transcript, expectedOutcomes: outcomes }, llm);
    expect(r.results.map((o) => o.evidence_turns)).toEqual([
      [1, 2],
      [1, 2],
      [1, 2],
    ]);
  });

  it("fails every outcome and reports a judge error on a malformed reply", async () => {
    const llm = fakeLlm(() => JSON.stringify({ o1: { reasoning: "x", evidence_turns: [], verdict: "pass" } }));
    const r = await judgeOutcomes({ transcript, expectedOutcomes: outcomes }, llm);
    expect(r.judge_error).toMatch(/missing outcome o2/);
    expect(r.results.map((o) => o.passed)).toEqual([false, false, false]);
    expect(r.results[0]?.reasoning).toMatch(/^Judge error:/);
  });

  it("reports a judge error when the call throws", async () => {
    const llm = fakeLlm(() => {
      throw new Error("connection refused");
    });
    const r = await judgeOutcomes({ transcript, expectedOutcomes: outcomes }, llm);
    expect(r.judge_error).toMatch(/connection refused/);
    expect(r.results.map((o) => o.passed)).toEqual([false, false, false]);
  });

  it("makes no call without expected outcomes", async () => {
    const llm = fakeLlm(() => "{}");
    expect(await judgeOutcomes({ transcript, expectedOutcomes: null }, llm)).toEqual({ results: [], judge_error: null });
    expect(llm.calls).toHaveLength(0);
  });
});
