import { describe, expect, it } from "vitest";
import { ValidationError } from "@/lib/errors";
import { exportDeepEval, importDeepEval } from "@/lib/test-cases/formats/deepeval";
import type { TestCaseDocument } from "@/lib/test-cases/formats/types";
import { caseDocument, expectSameFields, expectValidCases } from "./fixtures";

/**
 * DeepEval goldens → Assay cases, field by field with the per-item report, and Assay → DeepEval →
 * Assay keeping every field. Documents are written the way `EvaluationDataset.save_as("json")`
 * writes them (every key present, null when unset) and as people write them by hand.
 */

const SINGLE_TURN_SAVE = [
  {
    input: "What is the warranty on the X200 vacuum?",
    actual_output: "Two years, I think.",
    expected_output: "The X200 has a two-year warranty.",
    retrieval_context: ["X200 manual, page 4: the warranty lasts two years."],
    context: ["All vacuums carry a two-year warranty."],
    name: "Warranty X200",
    comments: "From the March ticket review",
    source_file: "docs/warranty.pdf",
    tools_called: [{ name: "search_docs", input_parameters: { query: "warranty" }, output: ["manual.pdf"] }],
    expected_tools: [
      {
        name: "search_docs",
        input_parameters: { query: "X200 warranty" },
        description: "Searches the product manuals",
        reasoning: "The answer is in the manual",
      },
    ],
    additional_metadata: { product: "X200" },
    custom_column_key_values: { owner: "qa-team" },
  },
  {
    input: "Reset my password please",
    actual_output: null,
    expected_output: null,
    retrieval_context: null,
    context: null,
    name: null,
    comments: null,
    source_file: null,
    tools_called: [{ name: "send_reset_email", input_parameters: {} }],
    expected_tools: null,
    additional_metadata: null,
    custom_column_key_values: null,
  },
];

describe("importDeepEval: goldens", () => {
  const { items, notes } = importDeepEval({ text: JSON.stringify(SINGLE_TURN_SAVE, null, 4) });

  it("maps every field of a golden and reports the recorded answers", () => {
    expect(notes).toEqual([]);
    const [item] = items;
    expect(item!.source).toEqual({ type: "import", format: "deepeval", item_id: null, trace_id: null });
    expect(item!.case).toEqual({
      name: "Warranty X200",
      initial_message: "What is the warranty on the X200 vacuum?",
      description: "From the March ticket review",
      user_context: {
        context: ["All vacuums carry a two-year warranty."],
        metadata: { product: "X200" },
        custom_columns: { owner: "qa-team" },
        retrieval_context: ["X200 manual, page 4: the warranty lasts two years."],
      },
      ground_truth: "The X200 has a two-year warranty.",
      checks: [{ type: "llm_judge", expected_answer: "The X200 has a two-year warranty.", criteria: null }],
      expected_tool_calls: [{ tool: "search_docs", expected_params: { query: "X200 warranty" } }],
    });
    expect(item!.report.label).toBe("Warranty X200");
    expect(item!.report.mapped).toEqual([
      "name → name",
      "input → initial_message",
      "comments → description",
      "context → user_context.context",
      "additional_metadata → user_context.metadata",
      "custom_column_key_values → user_context.custom_columns",
      "retrieval_context → user_context.retrieval_context",
      "expected_output → ground_truth and an llm_judge check against it",
      "expected_tools → expected_tool_calls (name, input_parameters)",
    ]);
    expect(item!.report.dropped).toEqual([
      {
        field: "expected_tools[0].reasoning",
        reason: "what a recorded call returned or why; Assay checks which tools are called and with what",
      },
      { field: "expected_tools[0].description", reason: "the tool's description; the suite's agent defines its own tools" },
      { field: "tools_called", reason: "the tools a recorded answer called; expected_tools says what to expect" },
      { field: "actual_output", reason: "a recorded answer; Assay asks the agent on every run" },
      {
        field: "source_file",
        reason: "the document DeepEval generated the golden from; attach it to the case as a file to keep it",
      },
    ]);
  });

  it("falls back to tools_called when a golden has no expected_tools, and names it from its input", () => {
    expect(items[1]!.case).toEqual({
      name: "Reset my password please",
      initial_message: "Reset my password please",
      expected_tool_calls: [{ tool: "send_reset_email", expected_params: null }],
    });
    expect(items[1]!.report.mapped).toEqual(["input → initial_message", "tools_called → expected_tool_calls (name, input_parameters)"]);
    expect(items[1]!.report.dropped).toEqual([]);
    expectValidCases(items);
  });
});

const MULTI_TURN_SAVE = [
  {
    scenario: "A customer's parcel is lost and they want a replacement sent by express delivery",
    turns: [
      { role: "user", content: "My parcel never arrived.", user_id: null, retrieval_context: null, tools_called: null },
      { role: "assistant", content: "Sorry to hear that! Let me check.", user_id: null, retrieval_context: null, tools_called: null },
      { role: "user", content: "It was order 7781." },
      { role: "assistant", content: "I can send a replacement." },
      { role: "user", content: "Please use express delivery." },
    ],
    expected_outcome: "A replacement is sent by express delivery",
    user_description: "A frustrated customer who has already waited two weeks",
    persona: null,
    context: ["Lost parcels are replaced free of charge"],
    name: "Lost parcel",
    comments: null,
    additional_metadata: null,
    custom_column_key_values: null,
  },
  {
    scenario: "A caller wants to move their appointment to next week",
    turns: null,
    expected_outcome: null,
    persona: { name: "Maria", characteristics: "Speaks quickly and is in a hurry", voice: "alloy", speaks_first: true },
    name: null,
  },
];

describe("importDeepEval: conversational goldens", () => {
  const { items } = importDeepEval({ text: JSON.stringify(MULTI_TURN_SAVE) });

  it("makes a simulated user from the scenario, description and the user turns", () => {
    expect(items[0]!.case).toEqual({
      name: "Lost parcel",
      persona: {
        type: "DeepEval user",
        description: "A frustrated customer who has already waited two weeks",
        instructions: "Play out this scenario: A customer's parcel is lost and they want a replacement sent by express delivery",
      },
      initial_message: "My parcel never arrived.",
      max_turns: 5,
      user_context: {
        script: ["It was order 7781.", "Please use express delivery."],
        context: ["Lost parcels are replaced free of charge"],
      },
      expected_outcomes: { "Expected outcome": "A replacement is sent by express delivery" },
    });
    expect(items[0]!.report.mapped).toEqual([
      "user_description → persona.description",
      "scenario → persona.instructions",
      "name → name",
      "turns (first user turn) → initial_message",
      "turns (2 later user turns) → user_context.script",
      "max_turns = user turns + 2 (5)",
      "context → user_context.context",
      'expected_outcome → expected_outcomes["Expected outcome"]',
    ]);
    expect(items[0]!.report.dropped).toEqual([
      { field: "turns", reason: "2 assistant turn(s): recorded answers; Assay asks the agent on every run" },
    ]);
  });

  it("reads DeepEval's newer persona object, reporting its voice settings, and opens with the scenario alone", () => {
    expect(items[1]!.case).toEqual({
      name: "A caller wants to move their appointment to next week",
      persona: {
        type: "Maria",
        description: "Speaks quickly and is in a hurry",
        instructions: "Play out this scenario: A caller wants to move their appointment to next week",
      },
      initial_message: null,
      max_turns: 3,
    });
    expect(items[1]!.report.mapped).toContain("persona.characteristics → persona.description");
    expect(items[1]!.report.dropped).toEqual([
      { field: "persona (voice, speaks_first)", reason: "voice-simulation settings; Assay simulates users in text" },
    ]);
    expectValidCases(items);
  });
});

describe("importDeepEval: `{goldens, conversational_goldens}` and errors", () => {
  const doc = {
    goldens: [{ input: "Do you ship to Norway?", expected_output: "Yes, in 5 to 7 days" }, { name: "Nothing to ask" }, "oops"],
    conversational_goldens: [
      { turns: [{ role: "user", content: "Cancel my order" }] },
      { name: "Empty conversation", expected_outcome: "Order cancelled" },
    ],
  };
  const { items } = importDeepEval({ text: JSON.stringify(doc) });

  it("reads both lists, goldens first, and numbers the items in that order", () => {
    expect(items.map((i) => i.report.index)).toEqual([0, 1, 2, 3, 4]);
    expect(items[0]!.case).toMatchObject({ initial_message: "Do you ship to Norway?", ground_truth: "Yes, in 5 to 7 days" });
    expect(items.map((i) => i.error)).toEqual([
      null,
      "The golden has no input to ask the agent",
      "Golden 3 is not an object",
      null,
      "The conversational golden has neither a scenario nor a user turn",
    ]);
  });

  it('describes a persona without user_description as "A user" and says so; replays turns without a scenario', () => {
    expect(items[3]!.case).toEqual({
      name: "Cancel my order",
      persona: {
        type: "DeepEval user",
        description: "A user",
        instructions: "Send the scripted messages in user_context.script, one per turn.",
      },
      initial_message: "Cancel my order",
      max_turns: 3,
    });
    expect(items[3]!.report.dropped).toEqual([{ field: "user_description", reason: 'missing: the persona is described as "A user"' }]);
    expectValidCases(items);
  });

  it("refuses a document that holds no goldens, naming the problem", () => {
    expect(() => importDeepEval({ text: '"goldens"' })).toThrow(ValidationError);
    expect(() => importDeepEval({ text: '"goldens"' })).toThrow(
      "Expected DeepEval goldens: a JSON array, an object with `goldens` or `conversational_goldens`, or JSON Lines",
    );
    expect(() => importDeepEval({ text: '[{"input": "a"}' })).toThrow(/^The JSON document is invalid: /);
  });
});

/** Cases that between them use every field an export must carry back. */
const CASES: TestCaseDocument[] = [
  {
    name: "Warranty question",
    description: "Asks about the vacuum warranty",
    difficulty: "hard",
    tags: ["warranty", "docs"],
    status: "active",
    persona: null,
    initial_message: "How long is the X200 warranty?",
    user_context: { context: ["All vacuums carry a two-year warranty."], retrieval_context: ["Manual p.4"], account: { tier: "gold" } },
    max_turns: 2,
    expected_outcomes: { "The agent cites the manual": true },
    expected_tool_calls: [
      { tool: "search_docs", expected_params: { query: "X200 warranty" } },
      { tool: "escalate", expected_params: null, forbidden: true },
    ],
    evaluation_criteria_override: "Cite the page number.",
    checks: [
      { type: "contains_phrases", phrases: ["two years"], case_sensitive: false },
      { type: "semantic_similarity", expected_answer: "The warranty lasts two years", threshold: 0.8 },
      { type: "llm_judge", expected_answer: "Two years", criteria: "States the duration" },
    ],
    mode: "all",
    ground_truth: "The X200 warranty lasts two years.",
    evaluations: ["faithfulness"],
    variables: { locale: { exposed: false, default_value: "en-GB", locked: false, restricted_values: null } },
    files: [{ url: "https://example.com/manual.pdf", type: "pdf" }],
  },
  {
    name: "Lost parcel",
    description: "Replacement by express delivery",
    difficulty: "normal",
    tags: ["shipping"],
    status: "draft",
    persona: {
      type: "Frustrated customer",
      description: "Has waited two weeks",
      instructions: "Play out this scenario: the parcel is lost and you want a replacement",
    },
    initial_message: "My parcel never arrived.",
    user_context: { script: ["It was order 7781.", "Please use express delivery."] },
    max_turns: 6,
    expected_outcomes: { "A replacement is sent": true, "delivery speed": "express", "The agent blames the courier": false },
    expected_tool_calls: [{ tool: "create_replacement", expected_params: { order_id: "7781", speed: "express" } }],
    evaluation_criteria_override: "Be strict about the delivery speed.",
    checks: [{ type: "llm_judge", expected_answer: "A replacement is on its way", criteria: null }],
    mode: "any",
    ground_truth: null,
    evaluations: [],
    variables: null,
    files: null,
  },
  caseDocument("Archived greeting", { status: "archived" }),
];

describe("exportDeepEval", () => {
  const draftOnly = CASES.slice(0, 2);
  const out = exportDeepEval(draftOnly);
  const list = JSON.parse(out.text) as Record<string, unknown>[];

  it("writes one list, as add_goldens_from_json_file loads it: goldens, then conversational goldens", () => {
    expect(Array.isArray(list)).toBe(true);
    const { additional_metadata: _g, ...golden } = list[0]!;
    expect(golden).toEqual({
      input: "How long is the X200 warranty?",
      expected_output: "The X200 warranty lasts two years.",
      retrieval_context: ["Manual p.4"],
      expected_tools: [{ name: "search_docs", input_parameters: { query: "X200 warranty" } }],
      name: "Warranty question",
      context: ["All vacuums carry a two-year warranty."],
      comments: "Asks about the vacuum warranty",
    });
    const { additional_metadata: _c, ...conversational } = list[1]!;
    expect(conversational).toEqual({
      scenario: "the parcel is lost and you want a replacement",
      turns: [
        { role: "user", content: "My parcel never arrived." },
        { role: "user", content: "It was order 7781." },
        { role: "user", content: "Please use express delivery." },
      ],
      expected_outcome: "A replacement is sent\ndelivery speed: express\nNot: The agent blames the courier",
      user_description: "Has waited two weeks",
      name: "Lost parcel",
      context: null,
      comments: "Replacement by express delivery",
    });
  });

  it("keeps what DeepEval has no field for in additional_metadata.assay", () => {
    expect(list[1]!.additional_metadata).toEqual({
      assay: {
        description: "Replacement by express delivery",
        tags: ["shipping"],
        status: "draft",
        persona: CASES[1]!.persona,
        initial_message: "My parcel never arrived.",
        user_context: { script: ["It was order 7781.", "Please use express delivery."] },
        max_turns: 6,
        expected_outcomes: CASES[1]!.expected_outcomes,
        expected_tool_calls: CASES[1]!.expected_tool_calls,
        evaluation_criteria_override: "Be strict about the delivery speed.",
        checks: CASES[1]!.checks,
        mode: "any",
        evaluations: [],
        ground_truth: null,
      },
    });
  });

  it("names each case whose files cannot travel, and still exports the rest of it", () => {
    expect(out.not_exported).toEqual([
      { index: 0, name: "Warranty question", reason: "its 1 file cannot travel in this format; attach it again after importing" },
    ]);
  });

  it("imports back to the same cases, field by field (files aside)", () => {
    const back = importDeepEval({ text: exportDeepEval(CASES).text }).items;
    expect(back.map((i) => i.error)).toEqual([null, null, null]);
    expectValidCases(back);
    // The list holds goldens first: the persona case (CASES[1]) comes back last.
    const order = [CASES[0]!, CASES[2]!, CASES[1]!];
    back.forEach((item, k) => {
      expectSameFields(item, order[k]!);
      expect(item.report.mapped).toContainEqual(expect.stringMatching(/^additional_metadata\.assay → .*\(written by an Assay export\)$/));
    });
  });
});
