/**
 * Inspect AI samples (`format=inspect`): a JSON array (or `{samples: [...]}`) or JSON Lines of
 * `{input, target, id, metadata, choices, files, setup, sandbox}`.
 * - `input`: a string → `initial_message`; chat messages → the last user message, with earlier
 *   turns in `user_context.conversation_history` and a system message in `user_context.system_prompt`.
 * - `target`: a string → `ground_truth` and an `llm_judge` check; a list → the first is the
 *   ground truth and the judge accepts any of them.
 * - `id` → the case's `source.item_id` (and its name when the sample has none); `metadata.tags`
 *   → tags, the rest of `metadata` → `user_context.metadata`.
 * - `choices` (rendered by Inspect's multiple-choice solver), `files`, `setup` and `sandbox` (Inspect's
 *   sandbox set-up) are not carried over, each with its reason.
 */
import type { Conversion, ConvertedItem, ImportInput } from "./types";
import {
  answerText,
  asRecord,
  caseName,
  chatMessages,
  failedItem,
  idOf,
  lastUserQuestion,
  LineError,
  messagesPath,
  readItems,
  splitMetadata,
  startItem,
  type Json,
} from "./shared";

const DROPPED: Record<string, string> = {
  choices: "multiple-choice options are rendered into the prompt by Inspect's solver; add them to the question to keep them",
  files: "files copied into Inspect's sandbox; attach them to the case as files instead",
  setup: "a sandbox set-up script; Assay runs no sandbox",
  sandbox: "Inspect's sandbox environment; Assay runs no sandbox",
};

export function importInspect(input: ImportInput): Conversion {
  const { items } = readItems(input.text, ["samples"], "Inspect samples");
  return { items: items.map((raw, index) => inspectSample(raw, index)), notes: [] };
}

function inspectSample(raw: unknown, index: number): ConvertedItem {
  if (raw instanceof LineError) return failedItem(startItem(index, `line ${raw.line}`), raw.message, "inspect");
  const sample = asRecord(raw);
  if (!sample) return failedItem(startItem(index, `sample ${index + 1}`), `Sample ${index + 1} is not an object`, "inspect");
  const id = idOf(sample.id);
  const report = startItem(index, id ? `sample ${id}` : `sample ${index + 1}`);
  const { mapped, dropped } = report;
  const source = { type: "import" as const, format: "inspect" as const, item_id: id, trace_id: null };
  if (id) mapped.push("id → source.item_id");
  const userContext: Json = {};
  let question: string | null = null;
  if (typeof sample.input === "string" && sample.input.trim() !== "") {
    question = sample.input;
    mapped.push("input → initial_message");
  } else {
    const chat = chatMessages(sample.input, "input", (d) => dropped.push(d));
    const asked = chat ? lastUserQuestion(chat, messagesPath(sample.input, "input"), mapped, dropped) : null;
    if (asked) {
      question = asked.question;
      Object.assign(userContext, asked.context);
    }
  }
  if (!question) return { report, case: null, error: "The sample has no input (a string or chat messages with a user message)", source };
  const metadata = splitMetadata(sample.metadata, "metadata", mapped, dropped);
  if (metadata.name) report.label = metadata.name;
  const testCase: Json = {
    name: caseName([metadata.name], id ? `Sample ${id}` : question, dropped, "metadata.name"),
    initial_message: question,
    tags: metadata.tags,
  };
  if (metadata.name) mapped.push("metadata.name → name");
  else if (id) mapped.push("id → name (Sample <id>)");
  const targets = (Array.isArray(sample.target) ? sample.target : [sample.target]).map(answerText).filter((t): t is string => t !== null);
  if (targets.length === 1) {
    testCase.ground_truth = targets[0];
    testCase.checks = [{ type: "llm_judge", expected_answer: targets[0], criteria: null }];
    mapped.push("target → ground_truth and an llm_judge check against it");
  } else if (targets.length > 1) {
    testCase.ground_truth = targets[0];
    testCase.checks = [
      {
        type: "llm_judge",
        expected_answer: `Any of: ${targets.join(" | ")}`,
        criteria: "The answer matches any one of the expected answers.",
      },
    ];
    mapped.push(`target (${targets.length} answers) → ground_truth (the first) and an llm_judge check that accepts any of them`);
  }
  if (metadata.rest) userContext.metadata = metadata.rest;
  if (Object.keys(userContext).length > 0) testCase.user_context = userContext;
  for (const [key, reason] of Object.entries(DROPPED)) if (sample[key] != null) dropped.push({ field: key, reason });
  for (const key of Object.keys(sample)) {
    if (!["input", "target", "id", "metadata", ...Object.keys(DROPPED)].includes(key))
      dropped.push({ field: key, reason: "not a field of an Inspect sample" });
  }
  return { report, case: testCase, error: null, source };
}
