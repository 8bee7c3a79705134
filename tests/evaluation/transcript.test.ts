import { describe, expect, it } from "vitest";
import { createEvalCache, parseJsonObject } from "@/lib/evaluation/llm-json";
import {
  TURN_NUMBERING,
  citedTurns,
  countTurns,
  isRepeating,
  lastUserMessage,
  normaliseMessage,
  renderTranscript,
  splitTurns,
  toolResultsText,
} from "@/lib/evaluation/transcript";
import type { TranscriptMessage } from "@/lib/evaluation/types";
import type { EvalJsonRequest } from "@/lib/evaluation/types";
import { expectRenderedOrderConversation, fakeLlm, orderConversation } from "./helpers";

describe("isRepeating", () => {
  it("detects the latest message repeating one of the previous two (normalised)", () => {
    expect(isRepeating(["Hi", "Where is my order?", "where is my order"])).toBe(true);
    expect(isRepeating(["Where is my order?", "Thanks", "WHERE IS   my order!!"])).toBe(true);
    expect(isRepeating(["Where is my order?", "a", "b", "where is my order"])).toBe(false);
    expect(isRepeating(["Where is my order?", "Can you check again?"])).toBe(false);
    expect(isRepeating(["ok"])).toBe(false);
    expect(isRepeating([])).toBe(false);
    expect(isRepeating(["👍", "👍"])).toBe(true);
    expect(isRepeating(["Ｈｅｌｌｏ", "hello"])).toBe(true);
  });

  it("normalises case, width, punctuation and whitespace", () => {
    expect(normaliseMessage("  Hello,\n WORLD!! ")).toBe("hello world");
  });
});

describe("transcript helpers", () => {
  const t = [
    { role: "user" as const, content: "first" },
    { role: "assistant" as const, content: "", tool_calls: [{ id: "c1", name: "lookup", arguments: "" }] },
    { role: "tool" as const, tool_call_id: "c1", content: "found" },
    { role: "user" as const, content: "second" },
  ];

  it("finds the last user message and tool results", () => {
    expect(lastUserMessage(t)).toBe("second");
    expect(toolResultsText(t)).toBe("lookup: found");
    expect(toolResultsText([])).toBeNull();
  });

  it("truncates very long messages and marks empty ones", () => {
    const text = renderTranscript(
      [
        { role: "assistant", content: "x".repeat(50) },
        { role: "user", content: "" },
      ],
      10,
    );
    expect(text).toContain("[40 more characters truncated]");
    expect(text).toContain("Turn 1 — user:\n(empty)");
    expect(renderTranscript(t)).toContain("→ TOOL CALL lookup({}) [call c1]");
  });
});

/** A two-turn conversation: tool calls and their results belong to the agent's reply in turn 1. */
const conversation = orderConversation("Thanks, can I return it?", "Yes, within 30 days.");

describe("turns", () => {
  it("makes each user message and the agent's reply one turn; the system prompt is not a turn", () => {
    const { system, turns } = splitTurns(conversation);
    expect(system.map((m) => m.index)).toEqual([0]);
    expect(turns.map((t) => [t.number, t.messages.map((m) => m.index)])).toEqual([
      [1, [1, 2, 3, 4]],
      [2, [5, 6]],
    ]);
    expect(countTurns(conversation)).toBe(2);
    expect(countTurns([{ role: "system", content: "s" }])).toBe(0);
  });

  it("keeps an agent that speaks first, and a user message without a reply, in turns of their own count", () => {
    const greeting: TranscriptMessage[] = [
      { role: "assistant", content: "Hello! How can I help?" },
      { role: "user", content: "Hi" },
      { role: "assistant", content: "Sure." },
      { role: "user", content: "And then?" },
    ];
    expect(splitTurns(greeting).turns.map((t) => t.messages.map((m) => m.index))).toEqual([[0, 1, 2], [3]]);
  });

  it("numbers the judge's transcript by turn and speaker, with the system prompt apart", () => {
    const text = renderTranscript(conversation);
    expectRenderedOrderConversation(text, "Thanks, can I return it?");
    expect(text).toContain("Turn 2 — agent:\nYes, within 30 days.");
    expect(text).not.toMatch(/Turn 3|\[\d+\]/);
  });

  it("maps cited turns: today's as they are, older results' message positions to the turn holding the message", () => {
    expect(citedTurns({ evidence_turns: [2, 1, 9], turn_numbering: TURN_NUMBERING }, conversation)).toEqual({
      turns: [1, 2],
      systemPrompt: false,
    });
    // Before turns counted exchanges, "turn 1" was the system prompt and "turn 4" the tool result.
    expect(citedTurns({ evidence_turns: [1, 4, 5, 7, 99] }, conversation)).toEqual({ turns: [1, 2], systemPrompt: true });
  });
});

describe("parseJsonObject", () => {
  it("accepts objects (optionally fenced) and nothing else", () => {
    expect(parseJsonObject(' {"a":1} ')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJsonObject('```json\n{"a":1}\n```')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJsonObject("[1]").ok).toBe(false);
    expect(parseJsonObject("null").ok).toBe(false);
    expect(parseJsonObject('prefix {"a":1}').ok).toBe(false);
  });
});

describe("createEvalCache", () => {
  const req = (content: string, schemaName = "s"): EvalJsonRequest => ({
    purpose: "judge",
    schemaName,
    schema: { type: "object" },
    messages: [{ role: "user", content }],
  });

  it("serves identical calls once per (model, schema name, messages), including in flight", async () => {
    const hits: string[] = [];
    const cache = createEvalCache({ onHit: (h) => hits.push(h.raw) });
    const llm = fakeLlm(async (r) => `reply to ${r.messages[0]?.content}`);
    const [a, b] = await Promise.all([cache.json(llm, req("x")), cache.json(llm, req("x"))]);
    expect(a).toEqual(b);
    await cache.json(llm, req("y"));
    await cache.json(llm, req("x", "other"));
    const other = fakeLlm(async () => "other model", undefined, "other-model");
    expect((await cache.json(other, req("x"))).raw).toBe("other model");
    expect(llm.calls).toHaveLength(3);
    expect(hits).toEqual(["reply to x"]);
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 4 });
  });

  it("does not keep failures, can forget, and stays bounded", async () => {
    const cache = createEvalCache({ maxEntries: 2 });
    let fail = true;
    const llm = fakeLlm(async () => {
      if (fail) throw new Error("boom");
      return "ok";
    });
    await expect(cache.json(llm, req("x"))).rejects.toThrow("boom");
    fail = false;
    expect((await cache.json(llm, req("x"))).raw).toBe("ok");
    cache.forget(llm, req("x"));
    await cache.json(llm, req("x"));
    expect(llm.calls).toHaveLength(3);
    await cache.json(llm, req("y"));
    await cache.json(llm, req("z"));
    expect(cache.stats().size).toBe(2);
  });

  it("caches embeddings by model and texts", async () => {
    const cache = createEvalCache();
    const llm = fakeLlm(
      () => "{}",
      (texts) => texts.map(() => [1, 2]),
    );
    await cache.embed(llm, ["a", "b"]);
    await cache.embed(llm, ["a", "b"]);
    await cache.embed(llm, ["a", "c"]);
    expect(llm.embedCalls).toEqual([
      ["a", "b"],
      ["a", "c"],
    ]);
  });
});
