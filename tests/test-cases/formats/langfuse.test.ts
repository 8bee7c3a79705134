import { describe, expect, it } from "vitest";
import { ValidationError } from "@/lib/errors";
import { exportLangfuse, importLangfuse } from "@/lib/test-cases/formats/langfuse";
import type { TestCaseDocument } from "@/lib/test-cases/formats/types";
import { caseDocument, expectSameFields, expectValidCases } from "./fixtures";

/**
 * Langfuse dataset items → Assay cases, field by field with the per-item report, and Assay →
 * Langfuse → Assay keeping every field. Documents are written as Langfuse's public API returns
 * them (GET /api/public/dataset-items) and as its dataset export writes them.
 */

const LONG_QUESTION = "I ordered a blue jacket three weeks ago (order 5521) and the tracking page still says label created. Can you check?";

const API_PAGE = {
  data: [
    {
      id: "cm3a1b2c3",
      status: "ACTIVE",
      input: "What is your returns window for sale items?",
      expectedOutput: "Sale items can be returned within 14 days.",
      metadata: { tags: ["returns", "sale, clearance"], channel: "web", priority: 2 },
      sourceTraceId: "trace-8f2e",
      sourceObservationId: "obs-11",
      datasetId: "ds-42",
      datasetName: "support-regressions",
      createdAt: "2026-03-01T10:00:00.000Z",
      updatedAt: "2026-03-02T10:00:00.000Z",
    },
    {
      id: "cm3a1b2c4",
      status: "ARCHIVED",
      input: [
        { role: "system", content: "You are Acme's support assistant." },
        { role: "user", content: "Hi, I need help with my subscription." },
        { role: "assistant", content: "Sure, what would you like to change?" },
        {
          role: "user",
          content: [
            { type: "text", text: "Please cancel it." },
            { type: "image_url", image_url: { url: "https://example.com/screenshot.png" } },
          ],
        },
        { role: "assistant", content: "Your subscription is cancelled." },
      ],
      expectedOutput: { action: "cancel_subscription", confirmed: true },
      metadata: { name: "Cancel subscription" },
      sourceTraceId: null,
      datasetId: "ds-42",
    },
    { id: "cm3a1b2c5", status: "ACTIVE", input: { question: LONG_QUESTION }, expectedOutput: null, metadata: null },
    { id: "cm3a1b2c6", status: "ACTIVE", input: { question: "Is it in stock?", sku: "JKT-9" }, expectedOutput: "Yes", metadata: {} },
  ],
  meta: { page: 1, limit: 50, totalItems: 4, totalPages: 1 },
};

describe("importLangfuse: the dataset-items API page", () => {
  const { items, notes } = importLangfuse({ text: JSON.stringify(API_PAGE) });

  it("records each item's id and trace as the case's source", () => {
    expect(notes).toEqual([]);
    expect(items.map((i) => i.source)).toEqual([
      { type: "import", format: "langfuse", item_id: "cm3a1b2c3", trace_id: "trace-8f2e" },
      { type: "import", format: "langfuse", item_id: "cm3a1b2c4", trace_id: null },
      { type: "import", format: "langfuse", item_id: "cm3a1b2c5", trace_id: null },
      { type: "import", format: "langfuse", item_id: "cm3a1b2c6", trace_id: null },
    ]);
    expectValidCases(items);
  });

  it("maps a string input, the expected output, tags and the rest of the metadata", () => {
    const [item] = items;
    expect(item!.error).toBeNull();
    expect(item!.case).toEqual({
      name: "What is your returns window for sale items?",
      tags: ["returns", "sale  clearance"],
      initial_message: "What is your returns window for sale items?",
      ground_truth: "Sale items can be returned within 14 days.",
      checks: [{ type: "llm_judge", expected_answer: "Sale items can be returned within 14 days.", criteria: null }],
      user_context: { metadata: { channel: "web", priority: 2 } },
    });
    expect(item!.report).toEqual({
      index: 0,
      label: "item cm3a1b2c3",
      mapped: [
        "id → source.item_id",
        "sourceTraceId → source.trace_id",
        "input → initial_message",
        "metadata.tags → tags",
        "metadata (channel, priority) → user_context.metadata",
        "expectedOutput → ground_truth and an llm_judge check against it",
      ],
      dropped: [
        {
          field: "datasetId, datasetName, sourceObservationId, createdAt, updatedAt",
          reason: "Langfuse's bookkeeping; Assay keeps its own",
        },
      ],
    });
  });

  it("asks a chat input's last user message, keeps the turns before it and the system prompt, and archives", () => {
    const item = items[1]!;
    expect(item.case).toEqual({
      name: "Cancel subscription",
      tags: [],
      initial_message: "Please cancel it.",
      ground_truth: '{"action":"cancel_subscription","confirmed":true}',
      checks: [{ type: "llm_judge", expected_answer: '{"action":"cancel_subscription","confirmed":true}', criteria: null }],
      user_context: {
        conversation_history: [
          { role: "user", content: "Hi, I need help with my subscription." },
          { role: "assistant", content: "Sure, what would you like to change?" },
        ],
        system_prompt: "You are Acme's support assistant.",
      },
      status: "archived",
    });
    expect(item.report.label).toBe("Cancel subscription");
    expect(item.report.mapped).toEqual([
      "id → source.item_id",
      "input[3] (the last user message) → initial_message",
      "input (the 2 earlier turns) → user_context.conversation_history",
      "input (system message) → user_context.system_prompt (for reference: the suite's agent has its own system prompt)",
      "metadata.name → name",
      "expectedOutput (as JSON text) → ground_truth and an llm_judge check against it",
      "status ARCHIVED → status archived",
    ]);
    expect(item.report.dropped).toEqual([
      {
        field: "input[3].content[1]",
        reason: "image_url parts are not text; Assay cases carry files as files, not as message parts",
      },
      {
        field: "input[4…]",
        reason: "1 message(s) after the last user message are recorded answers; Assay asks the agent on every run",
      },
      { field: "datasetId", reason: "Langfuse's bookkeeping; Assay keeps its own" },
    ]);
  });

  it("takes the one string of an object input, names the case from its first 80 characters", () => {
    const item = items[2]!;
    expect(item.case).toEqual({
      name: "I ordered a blue jacket three weeks ago (order 5521) and the tracking page stil…",
      tags: [],
      initial_message: LONG_QUESTION,
    });
    expect(item.report.mapped).toEqual(["id → source.item_id", "input.question → initial_message"]);
  });

  it("sends an object input of several fields as its JSON text, and says so", () => {
    const item = items[3]!;
    expect(item.case!.initial_message).toBe('{\n  "question": "Is it in stock?",\n  "sku": "JKT-9"\n}');
    expect(item.report.mapped).toContain("input (an object of 2 fields) → initial_message, as its JSON text");
  });
});

describe("importLangfuse: other shapes and errors", () => {
  it("reads a plain array and `{messages}` chat inputs", () => {
    const items = [
      {
        id: "a1",
        input: { messages: [{ role: "user", content: "Where is my parcel?" }] },
        expectedOutput: "In transit",
        metadata: { tags: "shipping,tracking" },
      },
    ];
    const [item] = importLangfuse({ text: JSON.stringify(items) }).items;
    expect(item!.case).toEqual({
      name: "Where is my parcel?",
      tags: ["shipping", "tracking"],
      initial_message: "Where is my parcel?",
      ground_truth: "In transit",
      checks: [{ type: "llm_judge", expected_answer: "In transit", criteria: null }],
    });
    expect(item!.report.mapped).toContain("input.messages[0] (the last user message) → initial_message");
  });

  it("reads JSON Lines: blank lines are skipped, a broken line is that item's error and the others convert", () => {
    const text = ['{"id":"l1","input":"First question"}', "", "{not json", '{"id":"l3","input":"Third question","status":"ARCHIVED"}'].join(
      "\n",
    );
    const { items } = importLangfuse({ text });
    expect(items).toHaveLength(3);
    expect(items[0]!.case!.initial_message).toBe("First question");
    expect(items[1]!.case).toBeNull();
    expect(items[1]!.report.label).toBe("line 3");
    expect(items[1]!.error).toMatch(/^Line 3 is not valid JSON: /);
    expect(items[2]!.case).toMatchObject({ initial_message: "Third question", status: "archived" });
    expect(items.map((i) => i.report.index)).toEqual([0, 1, 2]);
  });

  it("makes an item without a usable input an error, and keeps converting the rest", () => {
    const items = [
      { id: "e1", input: null, expectedOutput: "x" },
      { id: "e2", input: "   " },
      { id: "e3", input: [{ role: "assistant", content: "Hello!" }] },
      42,
      { id: "ok", input: "Fine" },
    ];
    const result = importLangfuse({ text: JSON.stringify(items) }).items;
    const noInput = "The item has no input to ask the agent: input is empty or has no user message";
    expect(result.map((i) => i.error)).toEqual([noInput, noInput, noInput, "Item 4 is not an object", null]);
    expect(result.map((i) => i.source.item_id)).toEqual(["e1", "e2", "e3", null, "ok"]);
    expect(result[4]!.case!.initial_message).toBe("Fine");
  });

  it("cuts a long name to Assay's limit and reports it; reports fields Langfuse items do not have", () => {
    const [item] = importLangfuse({
      text: JSON.stringify([{ id: "n1", input: "Hi", metadata: { name: "N".repeat(300) }, traceNotes: "x" }]),
    }).items;
    expect(item!.case!.name).toBe(`${"N".repeat(254)}…`);
    expect(item!.report.dropped).toEqual([
      { field: "metadata.name", reason: "cut to 255 characters (Assay's limit for names)" },
      { field: "traceNotes", reason: "not a field of a Langfuse dataset item" },
    ]);
    expectValidCases([item!]);
  });

  it("refuses a document that holds no items, naming the problem", () => {
    expect(() => importLangfuse({ text: "42" })).toThrow(ValidationError);
    expect(() => importLangfuse({ text: "42" })).toThrow(
      "Expected Langfuse dataset items: a JSON array, an object with `data` or `items`, or JSON Lines",
    );
    expect(() => importLangfuse({ text: "{}" })).toThrow(/Expected Langfuse dataset items/);
    expect(() => importLangfuse({ text: '[{"id": 1,' })).toThrow(/^The JSON document is invalid: Line 1, column \d+/);
    expect(() => importLangfuse({ text: "  \n" })).toThrow("The document is empty");
  });
});

/** Cases that between them use every field an export must carry back. */
const CASES: TestCaseDocument[] = [
  {
    name: "Refund for a late parcel",
    description: "A customer whose parcel is two weeks late asks for a refund",
    difficulty: "hard",
    tags: ["refunds", "edge-case"],
    status: "active",
    persona: { type: "Impatient customer", description: "Has waited two weeks", instructions: "Demand a refund, then accept store credit" },
    initial_message: "My parcel is two weeks late. I want my money back.",
    user_context: { order_id: "5521", plan: "pro", script: ["Store credit is fine"] },
    max_turns: 8,
    expected_outcomes: { "The agent offers a refund or store credit": true, "refund amount": 25 },
    expected_tool_calls: [
      { tool: "lookup_order", expected_params: { order_id: "5521" } },
      { tool: "issue_refund", expected_params: null },
      { tool: "delete_account", expected_params: null, forbidden: true },
    ],
    evaluation_criteria_override: "Refunds over 20 need a manager's approval; fail an outcome the agent promises without it.",
    checks: [
      { type: "contains_phrases", phrases: ["refund", "store credit"], case_sensitive: true },
      { type: "semantic_similarity", expected_answer: "We will refund your order", threshold: 0.75 },
      { type: "llm_judge", expected_answer: "Offers a refund of 25", criteria: "Mentions the amount" },
    ],
    mode: "any",
    ground_truth: "A refund of 25 is issued",
    evaluations: ["coherence", "helpfulness"],
    variables: { customer_tier: { exposed: true, default_value: "gold", locked: true, restricted_values: ["gold", "silver"] } },
    files: [{ path: "file:f_123", type: "pdf" }],
  },
  caseDocument("Opening hours", {
    status: "archived",
    initial_message: "When do you open on Sundays?",
    checks: [{ type: "llm_judge", expected_answer: "We open at 10 on Sundays", criteria: null }],
    evaluations: [],
  }),
  caseDocument("Unfinished idea", { tags: ["todo"], status: "draft" }),
];

describe("exportLangfuse", () => {
  const out = exportLangfuse(CASES);
  const items = JSON.parse(out.text) as Record<string, unknown>[];

  it("writes dataset items with Langfuse's own fields where it has them, and no ids", () => {
    expect(items).toHaveLength(3);
    for (const item of items) expect(Object.keys(item)).toEqual(["input", "expectedOutput", "metadata", "status"]);
    expect(items.map((i) => [i.input, i.expectedOutput, i.status])).toEqual([
      ["My parcel is two weeks late. I want my money back.", "A refund of 25 is issued", "ACTIVE"],
      ["When do you open on Sundays?", "We open at 10 on Sundays", "ARCHIVED"],
      [null, null, "ACTIVE"],
    ]);
    expect(items[1]!.metadata).toEqual({
      name: "Opening hours",
      assay: {
        status: "archived",
        evaluations: [],
        checks: [{ type: "llm_judge", expected_answer: "We open at 10 on Sundays", criteria: null }],
        ground_truth: null,
      },
    });
    expect((items[0]!.metadata as Record<string, unknown>).tags).toEqual(["refunds", "edge-case"]);
  });

  it("names each case whose files cannot travel, and still exports the rest of it", () => {
    expect(out.not_exported).toEqual([
      {
        index: 0,
        name: "Refund for a late parcel",
        reason: "its 1 file cannot travel in this format; attach it again after importing",
      },
    ]);
    expect(items[0]!.metadata).toMatchObject({ name: "Refund for a late parcel" });
  });

  it("imports back to the same cases, field by field (files aside)", () => {
    const back = importLangfuse({ text: out.text }).items;
    expect(back.map((i) => i.error)).toEqual([null, null, null]);
    expectValidCases(back);
    back.forEach((item, k) => {
      expectSameFields(item, CASES[k]!);
      expect(item.report.mapped).toContainEqual(expect.stringMatching(/^metadata\.assay → .*\(written by an Assay export\)$/));
      expect(item.source).toEqual({ type: "import", format: "langfuse", item_id: null, trace_id: null });
    });
  });
});
