import { describe, expect, it } from "vitest";
import { ValidationError } from "@/lib/errors";
import { importOpenAiJsonl } from "@/lib/test-cases/formats/openai-jsonl";
import { expectValidCases } from "./fixtures";

/**
 * OpenAI chat JSONL (the fine-tuning and Evals format) → Assay cases: one user message becomes a
 * single question with its expected answer and tool calls, several become a scripted simulated
 * user; each line that cannot become a case is an error naming its line, and the rest convert.
 */

const SINGLE = {
  messages: [
    { role: "system", content: "You are a helpful shop assistant for Acme." },
    { role: "user", content: "Where is my order 7781?" },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_1", type: "function", function: { name: "get_order_status", arguments: '{"order_id": "7781"}' } }],
    },
    { role: "tool", tool_call_id: "call_1", content: '{"status": "shipped", "eta": "Friday"}' },
    { role: "assistant", content: "Your order has shipped and should arrive on Friday." },
  ],
  tools: [
    {
      type: "function",
      function: {
        name: "get_order_status",
        description: "Looks up an order",
        parameters: { type: "object", properties: { order_id: { type: "string" } } },
      },
    },
  ],
  parallel_tool_calls: false,
};

const MULTI = {
  messages: [
    { role: "developer", content: "Answer briefly." },
    { role: "user", content: "I want to return a jacket." },
    { role: "assistant", content: "Sure, which order is it from?" },
    {
      role: "user",
      content: [
        { type: "text", text: "Order 5521, here is a photo." },
        { type: "image_url", image_url: { url: "https://example.com/jacket.jpg" } },
      ],
    },
    {
      role: "assistant",
      content: "Thanks, I am starting the return.",
      tool_calls: [
        { id: "c1", type: "function", function: { name: "start_return", arguments: '{"order_id":"5521"}' } },
        { id: "c2", type: "function", function: { name: "notify_warehouse", arguments: "{order: 5521" } },
      ],
    },
    { role: "tool", tool_call_id: "c1", content: "ok" },
    { role: "tool", tool_call_id: "c2", content: "ok" },
    { role: "user", content: "Thanks! Will I get a label?" },
    {
      role: "assistant",
      content: "Yes, the label is in your email.",
      tool_calls: [{ id: "c3", type: "function", function: { name: "start_return", arguments: '{"order_id": "5521"}' } }],
    },
  ],
  metadata: { name: "Return a jacket", tags: ["returns"], split: "train" },
};

const LINES = [
  JSON.stringify(SINGLE),
  "",
  JSON.stringify(MULTI),
  '{"messages": [{"role": "user", "content": "unterminated"}',
  "[1, 2]",
  JSON.stringify({ messages: [{ role: "system", content: "Only a system prompt" }] }),
  "   ",
  JSON.stringify({
    messages: [
      { role: "user", content: "Hello" },
      { role: "critic", content: "meh" },
    ],
    weight: 1,
  }),
].join("\n");

describe("importOpenAiJsonl", () => {
  const { items, notes } = importOpenAiJsonl({ text: LINES });

  it("numbers items among the non-blank lines and labels them by their line in the file", () => {
    expect(notes).toEqual([]);
    expect(items.map((i) => [i.report.index, i.report.label])).toEqual([
      [0, "line 1: Where is my order 7781?"],
      [1, "line 3: I want to return a jacket."],
      [2, "line 4"],
      [3, "line 5"],
      [4, "line 6"],
      [5, "line 8: Hello"],
    ]);
    for (const item of items) expect(item.source).toEqual({ type: "import", format: "openai-jsonl", item_id: null, trace_id: null });
    expectValidCases(items);
  });

  it("makes one user message a single question with its answer, tool calls and system prompt", () => {
    expect(items[0]!.case).toEqual({
      name: "Line 1: Where is my order 7781?",
      initial_message: "Where is my order 7781?",
      user_context: { system_prompt: "You are a helpful shop assistant for Acme." },
      ground_truth: "Your order has shipped and should arrive on Friday.",
      checks: [{ type: "llm_judge", expected_answer: "Your order has shipped and should arrive on Friday.", criteria: null }],
      expected_tool_calls: [{ tool: "get_order_status", expected_params: { order_id: "7781" } }],
    });
    expect(items[0]!.report.mapped).toEqual([
      "messages (first user message) → initial_message",
      "system message → user_context.system_prompt (for reference: the suite's agent has its own system prompt)",
      "the final assistant message → ground_truth and an llm_judge check against it",
      "assistant tool_calls → expected_tool_calls",
    ]);
    expect(items[0]!.report.dropped).toEqual([
      { field: "messages (tool)", reason: "1 tool result(s): the agent's mocked tools answer on every run" },
      { field: "tools", reason: "the suite's agent defines its own tools" },
      { field: "parallel_tool_calls", reason: "a setting of the model call, not of the case" },
    ]);
  });

  it("makes several user messages a scripted simulated user, with deduplicated tool calls", () => {
    expect(items[1]!.case).toEqual({
      name: "Return a jacket",
      tags: ["returns"],
      initial_message: "I want to return a jacket.",
      persona: {
        type: "Scripted user",
        description: "Replays a recorded conversation",
        instructions:
          "Send the messages in user_context.script in order, one per turn, and nothing else; end the conversation after the last one.",
      },
      max_turns: 5,
      user_context: {
        metadata: { split: "train" },
        script: ["Order 5521, here is a photo.", "Thanks! Will I get a label?"],
        system_prompt: "Answer briefly.",
      },
      ground_truth: "Yes, the label is in your email.",
      checks: [{ type: "llm_judge", expected_answer: "Yes, the label is in your email.", criteria: null }],
      expected_tool_calls: [
        { tool: "start_return", expected_params: { order_id: "5521" } },
        { tool: "notify_warehouse", expected_params: null },
      ],
    });
    expect(items[1]!.report.mapped).toEqual([
      "metadata.tags → tags",
      "metadata (split) → user_context.metadata",
      "metadata.name → name",
      "messages (first user message) → initial_message",
      "messages (2 later user messages) → user_context.script, played by a scripted persona; max_turns 5",
      "system message → user_context.system_prompt (for reference: the suite's agent has its own system prompt)",
      "the final assistant message → ground_truth and an llm_judge check against it",
      "assistant tool_calls → expected_tool_calls",
    ]);
    expect(items[1]!.report.dropped).toEqual([
      {
        field: "messages[3].content[1]",
        reason: "image_url parts are not text; Assay cases carry files as files, not as message parts",
      },
      {
        field: "messages[4].tool_calls[1].function.arguments",
        reason: "not a JSON object; the call is expected without parameters",
      },
      { field: "messages (tool)", reason: "2 tool result(s): the agent's mocked tools answer on every run" },
    ]);
  });

  it("makes each unusable line an error that names the line, and converts the others", () => {
    expect(items.map((i) => i.error)).toEqual([
      null,
      null,
      expect.stringMatching(/^Line 4 is not valid JSON: /),
      "Line 5 has no messages list",
      "Line 6 has no user message",
      null,
    ]);
    expect(items.filter((i) => i.error).every((i) => i.case === null)).toBe(true);
  });

  it("reports roles and fields a chat line does not have", () => {
    expect(items[5]!.case).toEqual({ name: "Line 8: Hello", initial_message: "Hello" });
    expect(items[5]!.report.dropped).toEqual([
      { field: "messages[1]", reason: 'role "critic" is not one of system, developer, user, assistant, tool' },
      { field: "weight", reason: "not a field of a chat JSONL line" },
    ]);
  });

  it("cuts a long opening to 60 characters in the name, and caps a long script at Assay's turn limit", () => {
    const opening = "Hello, I bought a washing machine last month and it has started leaking water from the bottom.";
    const messages = [{ role: "user", content: opening }];
    for (let k = 0; k < 249; k++) messages.push({ role: "user", content: `Message ${k + 2}` });
    const [item] = importOpenAiJsonl({ text: JSON.stringify({ messages }) }).items;
    expect(item!.case!.name).toBe("Line 1: Hello, I bought a washing machine last month and it has sta…");
    expect(item!.case!.max_turns).toBe(200);
    expect((item!.case!.user_context as { script: string[] }).script).toHaveLength(249);
    expect(item!.report.dropped).toEqual([
      { field: "messages", reason: "250 user messages exceed Assay's cap of 200 turns; the conversation stops there" },
    ]);
    expectValidCases([item!]);
  });

  it("reads a JSON array of the same objects, numbering its items as lines", () => {
    const { items: fromArray } = importOpenAiJsonl({ text: JSON.stringify([SINGLE, { messages: "none" }]) });
    expect(fromArray[0]!.case!.initial_message).toBe("Where is my order 7781?");
    expect(fromArray[1]!.error).toBe("Line 2 has no messages list");
  });

  it("refuses an empty document", () => {
    expect(() => importOpenAiJsonl({ text: "\n\n" })).toThrow(ValidationError);
    expect(() => importOpenAiJsonl({ text: "\n\n" })).toThrow("The document is empty");
  });
});
