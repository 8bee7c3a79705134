import { describe, expect, it } from "vitest";
import { ValidationError } from "@/lib/errors";
import { importInspect } from "@/lib/test-cases/formats/inspect";
import { expectValidCases } from "./fixtures";

/**
 * Inspect AI samples (`json_dataset` files: a JSON array or JSON Lines) → Assay cases, field by
 * field with the per-item report: inputs, targets, ids, metadata, and the multiple-choice and
 * sandbox fields Assay has no place for.
 */

const SAMPLES = [
  { id: "arith-1", input: "What is 17 + 25?", target: "42", metadata: { category: "arithmetic", tags: ["math", "easy"] } },
  {
    id: 7,
    input: "Which planet is the largest in the solar system?",
    choices: ["Mars", "Jupiter", "Venus", "Earth"],
    target: "B",
  },
  {
    id: "geo-2",
    input: [
      { role: "system", content: "Answer with the city only." },
      { role: "user", content: "What is the capital of Australia?" },
      { role: "assistant", content: "Sydney?" },
      { role: "user", content: "Are you sure? Try again." },
    ],
    target: ["Canberra", "canberra, ACT"],
    metadata: { name: "Capital of Australia", source: "geo-set" },
  },
  {
    input: "Load data.csv and report the mean of the price column.",
    target: "12.5",
    files: { "data.csv": "data/data.csv" },
    setup: "pip install pandas",
    sandbox: ["docker", "compose.yaml"],
  },
];

describe("importInspect", () => {
  const { items, notes } = importInspect({ text: SAMPLES.map((s) => JSON.stringify(s)).join("\n") });

  it("maps a string input, a string target, the id and the metadata", () => {
    expect(notes).toEqual([]);
    expect(items[0]!.source).toEqual({ type: "import", format: "inspect", item_id: "arith-1", trace_id: null });
    expect(items[0]!.case).toEqual({
      name: "Sample arith-1",
      initial_message: "What is 17 + 25?",
      tags: ["math", "easy"],
      ground_truth: "42",
      checks: [{ type: "llm_judge", expected_answer: "42", criteria: null }],
      user_context: { metadata: { category: "arithmetic" } },
    });
    expect(items[0]!.report).toEqual({
      index: 0,
      label: "sample arith-1",
      mapped: [
        "id → source.item_id",
        "input → initial_message",
        "metadata.tags → tags",
        "metadata (category) → user_context.metadata",
        "id → name (Sample <id>)",
        "target → ground_truth and an llm_judge check against it",
      ],
      dropped: [],
    });
  });

  it("reads a numeric id, and reports multiple-choice options it cannot render", () => {
    expect(items[1]!.source.item_id).toBe("7");
    expect(items[1]!.case).toMatchObject({ name: "Sample 7", ground_truth: "B" });
    expect(items[1]!.report.dropped).toEqual([
      {
        field: "choices",
        reason: "multiple-choice options are rendered into the prompt by Inspect's solver; add them to the question to keep them",
      },
    ]);
  });

  it("asks a chat input's last user message and lets the judge accept any of several targets", () => {
    expect(items[2]!.case).toEqual({
      name: "Capital of Australia",
      initial_message: "Are you sure? Try again.",
      tags: [],
      ground_truth: "Canberra",
      checks: [
        {
          type: "llm_judge",
          expected_answer: "Any of: Canberra | canberra, ACT",
          criteria: "The answer matches any one of the expected answers.",
        },
      ],
      user_context: {
        conversation_history: [
          { role: "user", content: "What is the capital of Australia?" },
          { role: "assistant", content: "Sydney?" },
        ],
        system_prompt: "Answer with the city only.",
        metadata: { source: "geo-set" },
      },
    });
    expect(items[2]!.report.label).toBe("Capital of Australia");
    expect(items[2]!.report.mapped).toEqual([
      "id → source.item_id",
      "input[3] (the last user message) → initial_message",
      "input (the 2 earlier turns) → user_context.conversation_history",
      "input (system message) → user_context.system_prompt (for reference: the suite's agent has its own system prompt)",
      "metadata (source) → user_context.metadata",
      "metadata.name → name",
      "target (2 answers) → ground_truth (the first) and an llm_judge check that accepts any of them",
    ]);
  });

  it("names a sample without an id from its question, and reports files, setup and sandbox", () => {
    expect(items[3]!.source.item_id).toBeNull();
    expect(items[3]!.case).toMatchObject({ name: "Load data.csv and report the mean of the price column.", ground_truth: "12.5" });
    expect(items[3]!.report.dropped).toEqual([
      { field: "files", reason: "files copied into Inspect's sandbox; attach them to the case as files instead" },
      { field: "setup", reason: "a sandbox set-up script; Assay runs no sandbox" },
      { field: "sandbox", reason: "Inspect's sandbox environment; Assay runs no sandbox" },
    ]);
    expectValidCases(items);
  });

  it("reads a JSON array the same way as JSON Lines", () => {
    const fromArray = importInspect({ text: JSON.stringify(SAMPLES, null, 2) }).items;
    expect(fromArray.map((i) => i.case)).toEqual(items.map((i) => i.case));
  });

  it("makes a sample without a usable input an error, names bad lines, and converts the rest", () => {
    const text = [
      JSON.stringify({ id: "no-input", target: "x" }),
      JSON.stringify({ id: "no-user", input: [{ role: "system", content: "Be brief." }], target: "x" }),
      '{"id": "broken", "input": ',
      '"just a string"',
      JSON.stringify({ id: 5, input: "Fine", target: "", extra: true }),
    ].join("\n");
    const result = importInspect({ text }).items;
    const noInput = "The sample has no input (a string or chat messages with a user message)";
    expect(result.map((i) => i.error)).toEqual([
      noInput,
      noInput,
      expect.stringMatching(/^Line 3 is not valid JSON: /),
      "Sample 4 is not an object",
      null,
    ]);
    expect(result.map((i) => i.source.item_id)).toEqual(["no-input", "no-user", null, null, "5"]);
    expect(result[4]!.case).toEqual({ name: "Sample 5", initial_message: "Fine", tags: [] });
    expect(result[4]!.report.dropped).toEqual([{ field: "extra", reason: "not a field of an Inspect sample" }]);
  });

  it("refuses a document that holds no samples, naming the problem", () => {
    expect(() => importInspect({ text: "true" })).toThrow(ValidationError);
    expect(() => importInspect({ text: "true" })).toThrow(
      "Expected Inspect samples: a JSON array, an object with `samples`, or JSON Lines",
    );
    expect(() => importInspect({ text: '[\n  {"input": 1,\n' })).toThrow(/^The JSON document is invalid: /);
  });
});
