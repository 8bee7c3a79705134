/**
 * DeepEval goldens (`format=deepeval`, JSON): a list of goldens (what `EvaluationDataset.save_as
 * ("json")` writes and `add_goldens_from_json_file` reads), or `{goldens, conversational_goldens}`.
 * A golden with `scenario` or `turns` (or listed under `conversational_goldens`) is a
 * ConversationalGolden.
 * - Golden: `input` → `initial_message`; `expected_output` → `ground_truth` and an `llm_judge`
 *   check; `context` / `retrieval_context` → `user_context`; `expected_tools` (else `tools_called`)
 *   → expected tool calls (`name`, `input_parameters`); `name` → name; `comments` → description;
 *   `additional_metadata` → `user_context.metadata` (its `assay` key: the Assay fields an export
 *   kept); `custom_column_key_values` → `user_context.custom_columns`. `actual_output`,
 *   `tools_called` next to `expected_tools`, and a tool's `output` are recorded answers: not carried over.
 * - ConversationalGolden: a simulated-user case. Persona from `persona.characteristics` (or the
 *   older `user_description`) as its description, `persona.name` as its type, and `scenario` as
 *   its instructions; `expected_outcome` → the expected outcome; `turns`: the first user turn
 *   opens, the later user turns are the simulated user's script (`user_context.script`),
 *   `max_turns` = user turns + 2; assistant turns are recorded answers (not carried over).
 * Export writes one JSON list of goldens, the shape `add_goldens_from_json_file` loads (each item
 * with a `scenario` becomes a ConversationalGolden): persona cases as conversational goldens
 * after the single-question ones. A DeepEval dataset holds one kind, so a suite that has both
 * loads in two datasets (split the list on `scenario`).
 */
import type { Check, ExpectedToolCall } from "@/lib/test-cases/schemas";
import { TEXT_LIMITS } from "@/lib/validation/limits";
import type { Conversion, ConvertedItem, DroppedField, ExportOutput, ImportInput, TestCaseDocument } from "./types";
import {
  answerText,
  applyAssayBlock,
  asRecord,
  assayBlock,
  asText,
  caseName,
  failedItem,
  filesNote,
  isNonEmptyString,
  missingInput,
  readItems,
  scriptedMaxTurns,
  startItem,
  type Json,
} from "./shared";

const GOLDEN_FIELDS = [
  "input",
  "expected_output",
  "actual_output",
  "context",
  "retrieval_context",
  "tools_called",
  "expected_tools",
  "additional_metadata",
  "comments",
  "name",
  "source_file",
  "custom_column_key_values",
];
const CONVERSATIONAL_FIELDS = [
  "scenario",
  "expected_outcome",
  "user_description",
  "persona",
  "turns",
  "context",
  "additional_metadata",
  "custom_column_key_values",
  "comments",
  "name",
];

export function importDeepEval(input: ImportInput): Conversion {
  // readItems lists `goldens` first, then `conversational_goldens`: the last ones are conversational.
  const { items } = readItems(input.text, ["goldens", "conversational_goldens"], "DeepEval goldens");
  const doc = safeRecord(input.text);
  const conversational = Array.isArray(doc?.conversational_goldens) ? doc.conversational_goldens.length : 0;
  const firstConversational = items.length - conversational;
  return { items: items.map((raw, index) => deepEvalItem(raw, index, index >= firstConversational)), notes: [] };
}

function safeRecord(text: string): Json | null {
  try {
    return asRecord(JSON.parse(text));
  } catch {
    return null;
  }
}

/** `listedAsConversational`: the item came from `conversational_goldens` (else it is one when it has a scenario or turns). */
function deepEvalItem(raw: unknown, index: number, listedAsConversational: boolean): ConvertedItem {
  const item = asRecord(raw);
  if (!item) return failedItem(startItem(index, `golden ${index + 1}`), `Golden ${index + 1} is not an object`, "deepeval");
  const report = startItem(index, isNonEmptyString(item.name) ? item.name : `golden ${index + 1}`);
  const source = { type: "import" as const, format: "deepeval" as const, item_id: null, trace_id: null };
  const conversational = listedAsConversational || "scenario" in item || "turns" in item;
  const testCase = conversational
    ? conversationalCase(item, report.mapped, report.dropped)
    : goldenCase(item, report.mapped, report.dropped);
  if (typeof testCase === "string") return { report, case: null, error: testCase, source };
  const known = conversational ? CONVERSATIONAL_FIELDS : GOLDEN_FIELDS;
  for (const key of Object.keys(item))
    if (!known.includes(key)) report.dropped.push({ field: key, reason: "not a field of a DeepEval golden" });
  return { report, case: testCase, error: null, source };
}

function commonFields(item: Json, testCase: Json, userContext: Json, mapped: string[]) {
  if (isNonEmptyString(item.comments)) {
    testCase.description = item.comments;
    mapped.push("comments → description");
  }
  const context = stringList(item.context);
  if (context.length > 0) {
    userContext.context = context;
    mapped.push("context → user_context.context");
  }
  const meta = asRecord(item.additional_metadata);
  const rest = meta ? Object.fromEntries(Object.entries(meta).filter(([k]) => k !== "assay")) : {};
  if (Object.keys(rest).length > 0) {
    userContext.metadata = rest;
    mapped.push("additional_metadata → user_context.metadata");
  }
  const columns = asRecord(item.custom_column_key_values);
  if (columns && Object.keys(columns).length > 0) {
    userContext.custom_columns = columns;
    mapped.push("custom_column_key_values → user_context.custom_columns");
  }
}

function goldenCase(item: Json, mapped: string[], dropped: DroppedField[]): Json | string {
  const question = typeof item.input === "string" ? item.input : item.input == null ? null : asText(item.input);
  const testCase: Json = { name: caseName([item.name], question ?? "DeepEval golden", dropped), initial_message: question };
  if (isNonEmptyString(item.name)) mapped.push("name → name");
  if (question) mapped.push("input → initial_message");
  const userContext: Json = {};
  commonFields(item, testCase, userContext, mapped);
  const retrieval = stringList(item.retrieval_context);
  if (retrieval.length > 0) {
    userContext.retrieval_context = retrieval;
    mapped.push("retrieval_context → user_context.retrieval_context");
  }
  if (Object.keys(userContext).length > 0) testCase.user_context = userContext;
  const expected = answerText(item.expected_output);
  if (expected) {
    testCase.ground_truth = expected;
    testCase.checks = [{ type: "llm_judge", expected_answer: expected, criteria: null } satisfies Check];
    mapped.push("expected_output → ground_truth and an llm_judge check against it");
  }
  const toolsField = Array.isArray(item.expected_tools) ? "expected_tools" : Array.isArray(item.tools_called) ? "tools_called" : null;
  if (toolsField) {
    const calls = toolCalls(item[toolsField] as unknown[], toolsField, dropped);
    if (calls.length > 0) {
      testCase.expected_tool_calls = calls;
      mapped.push(`${toolsField} → expected_tool_calls (name, input_parameters)`);
    }
    if (toolsField === "expected_tools" && Array.isArray(item.tools_called)) {
      dropped.push({ field: "tools_called", reason: "the tools a recorded answer called; expected_tools says what to expect" });
    }
  }
  if (item.actual_output != null) dropped.push({ field: "actual_output", reason: "a recorded answer; Assay asks the agent on every run" });
  if (isNonEmptyString(item.source_file)) {
    dropped.push({
      field: "source_file",
      reason: "the document DeepEval generated the golden from; attach it to the case as a file to keep it",
    });
  }
  const block = asRecord(asRecord(item.additional_metadata)?.assay);
  applyAssayBlock(testCase, block, "additional_metadata.assay", mapped);
  return missingInput(testCase, block, "The golden has no input to ask the agent") ?? testCase;
}

function conversationalCase(item: Json, mapped: string[], dropped: DroppedField[]): Json | string {
  const turns = Array.isArray(item.turns) ? item.turns.map(asRecord).filter((t): t is Json => t !== null) : [];
  const userTurns = turns.filter((t) => t.role === "user").map((t) => asText(t.content ?? ""));
  const scenario = isNonEmptyString(item.scenario) ? item.scenario : null;
  if (!scenario && userTurns.length === 0) return "The conversational golden has neither a scenario nor a user turn";
  const testCase: Json = {
    name: caseName([item.name], scenario ?? userTurns[0] ?? "DeepEval conversation", dropped),
    persona: {
      ...simulatedUser(item, mapped, dropped),
      instructions: scenario ? `Play out this scenario: ${scenario}` : "Send the scripted messages in user_context.script, one per turn.",
    },
    initial_message: userTurns[0] ?? null,
    max_turns: scriptedMaxTurns(userTurns.length, dropped, "turns"),
  };
  if (scenario) mapped.push("scenario → persona.instructions");
  if (isNonEmptyString(item.name)) mapped.push("name → name");
  const userContext: Json = {};
  if (userTurns.length > 0) mapped.push("turns (first user turn) → initial_message");
  if (userTurns.length > 1) {
    userContext.script = userTurns.slice(1);
    mapped.push(`turns (${userTurns.length - 1} later user turns) → user_context.script`);
  }
  mapped.push(`max_turns = user turns + 2 (${testCase.max_turns as number})`);
  const answers = turns.filter((t) => t.role === "assistant").length;
  if (answers > 0)
    dropped.push({ field: "turns", reason: `${answers} assistant turn(s): recorded answers; Assay asks the agent on every run` });
  commonFields(item, testCase, userContext, mapped);
  if (Object.keys(userContext).length > 0) testCase.user_context = userContext;
  const outcome = answerText(item.expected_outcome);
  if (outcome) {
    testCase.expected_outcomes = { "Expected outcome": outcome };
    mapped.push('expected_outcome → expected_outcomes["Expected outcome"]');
  }
  applyAssayBlock(testCase, asRecord(asRecord(item.additional_metadata)?.assay), "additional_metadata.assay", mapped);
  return testCase;
}

/**
 * The persona's type and description: DeepEval's `persona` ({name, characteristics, …voice
 * settings}) or, in files written before it, `user_description`; "A user" when neither says.
 */
function simulatedUser(item: Json, mapped: string[], dropped: DroppedField[]): { type: string; description: string } {
  const persona = asRecord(item.persona);
  const type = isNonEmptyString(persona?.name) ? persona.name.trim().slice(0, TEXT_LIMITS.shortName) : "DeepEval user";
  if (persona && isNonEmptyString(persona.name)) mapped.push("persona.name → persona.type");
  const voice = Object.keys(persona ?? {}).filter((k) => k !== "name" && k !== "characteristics");
  if (voice.length > 0)
    dropped.push({ field: `persona (${voice.join(", ")})`, reason: "voice-simulation settings; Assay simulates users in text" });
  if (isNonEmptyString(persona?.characteristics)) {
    mapped.push("persona.characteristics → persona.description");
    return { type, description: persona.characteristics };
  }
  if (isNonEmptyString(item.user_description)) {
    mapped.push("user_description → persona.description");
    return { type, description: item.user_description };
  }
  dropped.push({ field: "user_description", reason: 'missing: the persona is described as "A user"' });
  return { type, description: "A user" };
}

function stringList(v: unknown): string[] {
  if (typeof v === "string" && v.trim() !== "") return [v];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string" && x.trim() !== "") : [];
}

/** DeepEval ToolCall objects → expected tool calls; a call's output and reasoning are recorded, not expected. */
function toolCalls(list: unknown[], field: string, dropped: DroppedField[]): ExpectedToolCall[] {
  const calls: ExpectedToolCall[] = [];
  list.forEach((raw, k) => {
    const t = asRecord(raw);
    const name = typeof raw === "string" ? raw : isNonEmptyString(t?.name) ? t.name : null;
    if (!name) {
      dropped.push({ field: `${field}[${k}]`, reason: "a tool call without a name" });
      return;
    }
    const params = asRecord(t?.input_parameters);
    calls.push({ tool: name, expected_params: params && Object.keys(params).length > 0 ? params : null });
    for (const extra of ["output", "reasoning"]) {
      if (t?.[extra] != null)
        dropped.push({
          field: `${field}[${k}].${extra}`,
          reason: "what a recorded call returned or why; Assay checks which tools are called and with what",
        });
    }
    if (isNonEmptyString(t?.description)) {
      dropped.push({ field: `${field}[${k}].description`, reason: "the tool's description; the suite's agent defines its own tools" });
    }
  });
  return calls;
}

export function exportDeepEval(cases: TestCaseDocument[]): ExportOutput {
  const not_exported: ExportOutput["not_exported"] = [];
  const goldens: Json[] = [];
  const conversational: Json[] = [];
  cases.forEach((c, index) => {
    const note = filesNote(c);
    if (note) not_exported.push({ index, name: c.name, reason: note });
    // ground_truth and checks always travel in the block: the import would otherwise read
    // expected_output as a ground truth and a judge check the case may not have.
    const assay = { ...assayBlock(c as unknown as Json), ground_truth: c.ground_truth, checks: c.checks };
    const shared = { name: c.name, context: contextList(c.user_context?.context), comments: c.description, additional_metadata: { assay } };
    if (c.persona) conversational.push(conversationalGolden(c, shared));
    else goldens.push(golden(c, shared));
  });
  return { text: `${JSON.stringify([...goldens, ...conversational], null, 2)}\n`, not_exported };
}

const SCENARIO_PREFIX = "Play out this scenario: ";

/** A persona case as DeepEval's ConversationalGolden: the simulated user's scenario, description and turns. */
function conversationalGolden(c: TestCaseDocument, shared: Json): Json {
  const script = Array.isArray(c.user_context?.script) ? (c.user_context.script as unknown[]).map(asText) : [];
  const instructions = c.persona!.instructions;
  return {
    scenario: instructions.startsWith(SCENARIO_PREFIX) ? instructions.slice(SCENARIO_PREFIX.length) : instructions,
    turns: [...(c.initial_message ? [c.initial_message] : []), ...script].map((content) => ({ role: "user", content })),
    expected_outcome: c.expected_outcomes ? outcomeText(c.expected_outcomes) : null,
    user_description: c.persona!.description,
    ...shared,
  };
}

/** A single-question case as DeepEval's Golden (its `input` is required: empty when the case has none). */
function golden(c: TestCaseDocument, shared: Json): Json {
  const judge = c.checks.find((k) => k.type === "llm_judge");
  const expected = (c.expected_tool_calls ?? []).filter((t) => !t.forbidden);
  return {
    input: c.initial_message ?? "",
    expected_output: c.ground_truth ?? judge?.expected_answer ?? null,
    retrieval_context: contextList(c.user_context?.retrieval_context),
    expected_tools: expected.length > 0 ? expected.map((t) => ({ name: t.tool, input_parameters: t.expected_params })) : null,
    ...shared,
  };
}

/** Expected outcomes as one sentence per line: the label when it must happen, with its value otherwise. */
function outcomeText(outcomes: Record<string, unknown>): string {
  return Object.entries(outcomes)
    .map(([label, value]) => {
      if (value === true) return label;
      if (value === false) return `Not: ${label}`;
      return label === "Expected outcome" ? asText(value) : `${label}: ${asText(value)}`;
    })
    .join("\n");
}

function contextList(v: unknown): string[] | null {
  const list = stringList(v);
  return list.length > 0 ? list : null;
}
