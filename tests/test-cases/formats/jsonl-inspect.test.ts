import { describe, expect, it } from "vitest";
import { importOpenAiJsonl } from "@/lib/test-cases/formats/openai-jsonl";
import { importInspect } from "@/lib/test-cases/formats/inspect";
import { openAiChatLine } from "@/lib/runs/export-openai";
import { testCaseInput } from "@/lib/test-cases/schemas";
import { expectValidCases } from "./fixtures";

/** OpenAI chat JSONL (fine-tuning / evals lines) and Inspect AI samples, field by field. */

const line = (v: unknown) => JSON.stringify(v);

describe("importOpenAiJsonl", () => {
  const text = [
    line({
      messages: [
        { role: "system", content: "You are a shop assistant." },
        { role: "user", content: "Where is order 7?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c1", type: "function", function: { name: "lookup_order", arguments: '{"order_id":"7"}' } }],
        },
        { role: "tool", tool_call_id: "c1", content: '{"status":"shipped"}' },
        { role: "assistant", content: "It has shipped." },
      ],
      tools: [{ type: "function", function: { name: "lookup_order", parameters: {} } }],
    }),
    "",
    line({
      messages: [
        { role: "user", content: "I want a refund" },
        { role: "assistant", content: "Which order?" },
        { role: "user", content: [{ type: "text", text: "Order 9" }] },
        {
          role: "assistant",
          content: "Done.",
          tool_calls: [{ id: "c2", type: "function", function: { name: "refund", arguments: "not json" } }],
        },
        { role: "user", content: "Thanks" },
      ],
      metadata: { name: "Refund flow" },
    }),
    "{ broken",
    line({ messages: [{ role: "assistant", content: "hi" }] }),
  ].join("\n");
  const { items } = importOpenAiJsonl({ text });

  it("makes one user turn a single question with its answer, tool calls and system prompt", () => {
    expect(items[0]!.report.label).toBe("line 1: Where is order 7?");
    expect(items[0]!.case).toEqual({
      name: "Line 1: Where is order 7?",
      initial_message: "Where is order 7?",
      user_context: { system_prompt: "You are a shop assistant." },
      ground_truth: "It has shipped.",
      checks: [{ type: "llm_judge", expected_answer: "It has shipped.", criteria: null }],
      expected_tool_calls: [{ tool: "lookup_order", expected_params: { order_id: "7" } }],
    });
    expect(items[0]!.report.dropped.map((d) => d.field)).toEqual(["messages (tool)", "tools"]);
  });

  it("makes several user turns a scripted simulated user, and reports unreadable arguments", () => {
    expect(items[1]!.case).toMatchObject({
      name: "Refund flow",
      initial_message: "I want a refund",
      max_turns: 5,
      user_context: { script: ["Order 9", "Thanks"] },
      persona: { type: "Scripted user" },
      expected_tool_calls: [{ tool: "refund", expected_params: null }],
      ground_truth: "Done.",
    });
    expect(items[1]!.report.dropped).toContainEqual({
      field: "messages[3].tool_calls[0].function.arguments",
      reason: expect.stringMatching(/not a JSON object/),
    });
  });

  it("names the line of each error and converts the rest", () => {
    expect(items.map((i) => i.report.index)).toEqual([0, 1, 2, 3]);
    expect(items[2]!.error).toMatch(/^Line 4 is not valid JSON/);
    expect(items[3]!.error).toBe("Line 5 has no user message");
    expectValidCases(items);
    // A JSON array of lines reads the same; items that are not conversations are errors of their own.
    const array = importOpenAiJsonl({ text: JSON.stringify([1, { messages: [{ role: "user", content: "hi" }] }]) }).items;
    expect(array.map((i) => i.case?.initial_message ?? i.error)).toEqual(["Line 1 has no messages list", "hi"]);
  });

  it("reads back what a run's export writes", () => {
    const exported = openAiChatLine(
      [
        { role: "system", content: "Sys" },
        { role: "user", content: "Q" },
        { role: "assistant", content: null, tool_calls: [{ id: "t", name: "find", arguments: '{"q":1}' }] },
        { role: "tool", tool_call_id: "t", content: "r" },
        { role: "assistant", content: "A" },
      ],
      [{ name: "find", description: "d", parameters: {}, mock_response: null }],
    );
    const back = importOpenAiJsonl({ text: JSON.stringify(exported) }).items[0]!;
    expect(testCaseInput.parse(back.case)).toMatchObject({
      initial_message: "Q",
      ground_truth: "A",
      expected_tool_calls: [{ tool: "find", expected_params: { q: 1 } }],
      user_context: { system_prompt: "Sys" },
    });
  });
});

describe("importInspect", () => {
  it("maps string and chat inputs, single and multiple targets, ids and metadata; reports sandbox fields", () => {
    const samples = [
      { id: 1, input: "What is 2+2?", target: "4", metadata: { tags: ["math"], level: "easy" }, choices: ["3", "4"], sandbox: "docker" },
      {
        id: "geo-1",
        input: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "Capital of France?" },
        ],
        target: ["Paris", "paris, France"],
        setup: "echo hi",
      },
      { id: 3, target: "x" },
    ];
    const { items } = importInspect({ text: samples.map(line).join("\n") });
    expect(items[0]!.source).toEqual({ type: "import", format: "inspect", item_id: "1", trace_id: null });
    expect(items[0]!.case).toEqual({
      name: "Sample 1",
      initial_message: "What is 2+2?",
      tags: ["math"],
      ground_truth: "4",
      checks: [{ type: "llm_judge", expected_answer: "4", criteria: null }],
      user_context: { metadata: { level: "easy" } },
    });
    expect(items[0]!.report.dropped.map((d) => d.field)).toEqual(["choices", "sandbox"]);
    expect(items[1]!.case).toMatchObject({
      name: "Sample geo-1",
      initial_message: "Capital of France?",
      ground_truth: "Paris",
      checks: [
        {
          type: "llm_judge",
          expected_answer: "Any of: Paris | paris, France",
          criteria: "The answer matches any one of the expected answers.",
        },
      ],
      user_context: { system_prompt: "Be brief." },
    });
    expect(items[1]!.report.dropped.map((d) => d.field)).toEqual(["setup"]);
    expect(items[2]!.error).toMatch(/no input/);
    expectValidCases(items);
    // A JSON array reads the same.
    expect(importInspect({ text: JSON.stringify(samples) }).items.map((i) => i.case?.name ?? null)).toEqual([
      "Sample 1",
      "Sample geo-1",
      null,
    ]);
  });
});
