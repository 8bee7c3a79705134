import { describe, expect, it } from "vitest";
import { ValidationError } from "@/lib/errors";
import { exportLangfuse, importLangfuse } from "@/lib/test-cases/formats/langfuse";
import { exportDeepEval, importDeepEval } from "@/lib/test-cases/formats/deepeval";
import { testCaseInput } from "@/lib/test-cases/schemas";
import { expectValidCases, roundTripCase } from "./fixtures";

/** Langfuse dataset items and DeepEval goldens: each mapping field by field, the report, and Assay → format → Assay. */

describe("importLangfuse", () => {
  it("reads the dataset-items API page: string and chat inputs, expected output, metadata, status, id and trace", () => {
    const page = {
      data: [
        {
          id: "item-1",
          datasetId: "ds",
          input: "What are your opening hours?",
          expectedOutput: "9 to 5",
          metadata: { tags: ["hours", "a,b"], channel: "web" },
          sourceTraceId: "trace-1",
          sourceObservationId: "obs-1",
          status: "ACTIVE",
          createdAt: "2026-01-01T00:00:00Z",
        },
        {
          id: "item-2",
          input: [
            { role: "system", content: "You are support." },
            { role: "user", content: "Hi" },
            { role: "assistant", content: "Hello!" },
            {
              role: "user",
              content: [
                { type: "text", text: "Cancel my plan" },
                { type: "image_url", image_url: { url: "x" } },
              ],
            },
          ],
          expectedOutput: { action: "cancel" },
          metadata: { name: "Cancel plan" },
          status: "ARCHIVED",
        },
        { id: "item-3", input: { question: "Refund?" } },
        { id: "item-4", input: { question: "a", user: "b" } },
        { id: "item-5", input: null },
      ],
      meta: { page: 1 },
    };
    const { items } = importLangfuse({ text: JSON.stringify(page) });
    expect(items.map((i) => i.source)).toEqual(
      ["item-1", "item-2", "item-3", "item-4", "item-5"].map((id, k) => ({
        type: "import",
        format: "langfuse",
        item_id: id,
        trace_id: k === 0 ? "trace-1" : null,
      })),
    );
    expect(items[0]!.case).toEqual({
      name: "What are your opening hours?",
      tags: ["hours", "a b"],
      initial_message: "What are your opening hours?",
      ground_truth: "9 to 5",
      checks: [{ type: "llm_judge", expected_answer: "9 to 5", criteria: null }],
      user_context: { metadata: { channel: "web" } },
    });
    expect(items[0]!.report.dropped).toEqual([
      { field: "datasetId, sourceObservationId, createdAt", reason: "Langfuse's bookkeeping; Assay keeps its own" },
    ]);
    expect(items[1]!.case).toMatchObject({
      name: "Cancel plan",
      status: "archived",
      initial_message: "Cancel my plan",
      ground_truth: '{"action":"cancel"}',
      user_context: {
        system_prompt: "You are support.",
        conversation_history: [
          { role: "user", content: "Hi" },
          { role: "assistant", content: "Hello!" },
        ],
      },
    });
    expect(items[1]!.report.dropped).toContainEqual({
      field: "input[3].content[1]",
      reason: expect.stringMatching(/^image_url parts are not text/),
    });
    expect(items[2]!.case!.initial_message).toBe("Refund?");
    expect(items[2]!.report.mapped).toContain("input.question → initial_message");
    expect(items[3]!.case!.initial_message).toBe('{\n  "question": "a",\n  "user": "b"\n}');
    expect(items[4]!.error).toMatch(/no input/);
    expectValidCases(items);
  });

  it("reads JSON Lines (a bad line is that item's error) and refuses what is not items", () => {
    const { items } = importLangfuse({ text: '{"id":"a","input":"one"}\nnot json\n{"id":"b","input":"two"}\n' });
    expect(items.map((i) => i.case?.initial_message ?? i.error)).toEqual([
      "one",
      expect.stringMatching(/^Line 2 is not valid JSON/),
      "two",
    ]);
    expect(() => importLangfuse({ text: "42" })).toThrow(ValidationError);
    expect(() => importLangfuse({ text: "[{" })).toThrow(/JSON document is invalid/);
  });
});

describe("importDeepEval", () => {
  it("maps goldens and conversational goldens, reporting recorded answers", () => {
    const doc = {
      goldens: [
        {
          name: "Refund tool",
          input: "Refund order 42",
          expected_output: "Refund issued",
          actual_output: "Done",
          context: ["Refunds within 30 days"],
          retrieval_context: ["policy.md"],
          expected_tools: [{ name: "issue_refund", input_parameters: { order_id: "42" }, output: "ok" }],
          tools_called: [{ name: "lookup" }],
          comments: "from support",
          additional_metadata: { source: "tickets" },
        },
      ],
      conversational_goldens: [
        {
          scenario: "A customer whose parcel is lost wants a replacement",
          expected_outcome: "A replacement is sent",
          user_description: "Impatient customer",
          turns: [
            { role: "user", content: "My parcel is lost" },
            { role: "assistant", content: "Sorry!" },
            { role: "user", content: "Send another" },
          ],
        },
        { name: "Empty" },
      ],
    };
    const { items } = importDeepEval({ text: JSON.stringify(doc) });
    expect(items[0]!.case).toEqual({
      name: "Refund tool",
      initial_message: "Refund order 42",
      description: "from support",
      user_context: { context: ["Refunds within 30 days"], metadata: { source: "tickets" }, retrieval_context: ["policy.md"] },
      ground_truth: "Refund issued",
      checks: [{ type: "llm_judge", expected_answer: "Refund issued", criteria: null }],
      expected_tool_calls: [{ tool: "issue_refund", expected_params: { order_id: "42" } }],
    });
    expect(items[0]!.report.dropped.map((d) => d.field)).toEqual(["expected_tools[0].output", "tools_called", "actual_output"]);
    expect(items[1]!.case).toEqual({
      name: "A customer whose parcel is lost wants a replacement",
      persona: {
        type: "DeepEval user",
        description: "Impatient customer",
        instructions: "Play out this scenario: A customer whose parcel is lost wants a replacement",
      },
      initial_message: "My parcel is lost",
      max_turns: 4,
      user_context: { script: ["Send another"] },
      expected_outcomes: { "Expected outcome": "A replacement is sent" },
    });
    expect(items[2]!.error).toMatch(/neither a scenario nor a user turn/);
    expectValidCases(items);
  });
});

describe("Assay → Langfuse / DeepEval → Assay", () => {
  const cases = [
    roundTripCase(),
    roundTripCase({
      name: "Persona",
      status: "active",
      persona: { type: "Angry customer", description: "Waited two weeks", instructions: "Demand a refund" },
      initial_message: "Where is my money?",
      user_context: { script: ["Still nothing?"] },
      max_turns: 6,
      mode: "any",
      variables: { Temperature: { exposed: false, default_value: null, locked: false, restricted_values: null } },
      files: null,
    }),
  ];
  for (const [name, exporter, importer] of [
    ["langfuse", exportLangfuse, importLangfuse],
    ["deepeval", exportDeepEval, importDeepEval],
  ] as const) {
    it(`${name}: every field comes back, and the files that cannot travel are named`, () => {
      const out = exporter(cases);
      expect(out.not_exported).toEqual([{ index: 0, name: "Full case", reason: expect.stringMatching(/its 1 file cannot travel/) }]);
      const back = importer({ text: out.text });
      expect(back.items).toHaveLength(2);
      back.items.forEach((item, k) => {
        expect(testCaseInput.parse(item.case)).toEqual(testCaseInput.parse({ ...cases[k], files: null }));
      });
    });
  }
});
