/**
 * Langfuse dataset items (`format=langfuse`): the JSON of its dataset-items API (`{data: [...],
 * meta}`), a plain array of items, or JSON Lines. Per item:
 * - `input`: a string → `initial_message`; chat messages (an array of `{role, content}` or
 *   `{messages}`) → the last user message, with earlier turns in `user_context.conversation_history`
 *   and a system message in `user_context.system_prompt`; an object with one string field → that
 *   string; any other object → its JSON text.
 * - `expectedOutput` → `ground_truth` and one `llm_judge` check against it.
 * - `metadata.name` → name (else the question's first line, else "Langfuse item <id>"),
 *   `metadata.tags` → tags, the rest of `metadata` → `user_context.metadata`; `metadata.assay`
 *   (written by Assay's export) → the Assay fields it holds.
 * - `status: ARCHIVED` → archived; `id` and `sourceTraceId` → the case's `source`; Langfuse's own
 *   bookkeeping (dataset, observation, timestamps) is reported as not carried over.
 * Export writes the mirror, without ids (Langfuse assigns them): `{input, expectedOutput,
 * metadata: {name, tags, assay}, status}`, where `expectedOutput` is the ground truth (else the
 * first judge's expected answer) and `assay` holds every other field; files cannot travel.
 */
import type { Conversion, ConvertedItem, DroppedField, ExportOutput, ImportInput, TestCaseDocument } from "./types";
import {
  answerText,
  applyAssayBlock,
  asRecord,
  assayBlock,
  caseName,
  chatMessages,
  failedItem,
  filesNote,
  idOf,
  lastUserQuestion,
  LineError,
  messagesPath,
  missingInput,
  readItems,
  splitMetadata,
  startItem,
  type Json,
} from "./shared";

const BOOKKEEPING = ["datasetId", "datasetName", "sourceObservationId", "createdAt", "updatedAt", "projectId"];
const KNOWN = ["id", "input", "expectedOutput", "metadata", "sourceTraceId", "status", ...BOOKKEEPING];

export function importLangfuse(input: ImportInput): Conversion {
  const { items } = readItems(input.text, ["data", "items"], "Langfuse dataset items");
  return { items: items.map((raw, index) => langfuseItem(raw, index)), notes: [] };
}

function langfuseItem(raw: unknown, index: number): ConvertedItem {
  if (raw instanceof LineError) return failedItem(startItem(index, `line ${raw.line}`), raw.message, "langfuse");
  const item = asRecord(raw);
  if (!item) return failedItem(startItem(index, `item ${index + 1}`), `Item ${index + 1} is not an object`, "langfuse");
  const id = idOf(item.id);
  const report = startItem(index, id ? `item ${id}` : `item ${index + 1}`);
  const { mapped, dropped } = report;
  const source = { type: "import" as const, format: "langfuse" as const, item_id: id, trace_id: idOf(item.sourceTraceId) };
  if (id) mapped.push("id → source.item_id");
  if (source.trace_id) mapped.push("sourceTraceId → source.trace_id");

  const userContext: Json = {};
  const question = inputQuestion(item.input, userContext, mapped, dropped);
  const metadata = splitMetadata(item.metadata, "metadata", mapped, dropped, true);
  if (metadata.name) report.label = metadata.name;
  const testCase: Json = {
    name: caseName([metadata.name], question ?? `Langfuse item ${id ?? index + 1}`, dropped, "metadata.name"),
    tags: metadata.tags,
    initial_message: question,
  };
  if (metadata.name) mapped.push("metadata.name → name");
  const expected = answerText(item.expectedOutput);
  if (expected) {
    testCase.ground_truth = expected;
    testCase.checks = [{ type: "llm_judge", expected_answer: expected, criteria: null }];
    mapped.push(
      `expectedOutput${typeof item.expectedOutput === "string" ? "" : " (as JSON text)"} → ground_truth and an llm_judge check against it`,
    );
  }
  if (metadata.rest) userContext.metadata = metadata.rest;
  if (Object.keys(userContext).length > 0) testCase.user_context = userContext;
  if (item.status === "ARCHIVED") {
    testCase.status = "archived";
    mapped.push("status ARCHIVED → status archived");
  }
  applyAssayBlock(testCase, metadata.assay, "metadata.assay", mapped);
  const missing = missingInput(testCase, metadata.assay, "The item has no input to ask the agent: input is empty or has no user message");
  if (missing) return { report, case: null, error: missing, source };
  const bookkeeping = BOOKKEEPING.filter((k) => k in item);
  if (bookkeeping.length > 0) dropped.push({ field: bookkeeping.join(", "), reason: "Langfuse's bookkeeping; Assay keeps its own" });
  for (const key of Object.keys(item))
    if (!KNOWN.includes(key)) dropped.push({ field: key, reason: "not a field of a Langfuse dataset item" });
  return { report, case: testCase, error: null, source };
}

/**
 * The question an item's `input` asks: a string as it is; chat messages by their last user
 * message (the turns before it and a system message go to `userContext`); an object with one
 * string field by that string; any other object or value by its JSON text. Null when empty.
 */
function inputQuestion(input: unknown, userContext: Json, mapped: string[], dropped: DroppedField[]): string | null {
  if (typeof input === "string") {
    if (input.trim() === "") return null;
    mapped.push("input → initial_message");
    return input;
  }
  const chat = chatMessages(input, "input", (d) => dropped.push(d));
  if (chat) {
    const asked = lastUserQuestion(chat, messagesPath(input, "input"), mapped, dropped);
    if (!asked) return null;
    Object.assign(userContext, asked.context);
    return asked.question;
  }
  const record = asRecord(input);
  if (record && Object.keys(record).length === 0) return null;
  const fields = record ? Object.entries(record) : [];
  if (fields.length === 1 && typeof fields[0]![1] === "string" && fields[0]![1].trim() !== "") {
    mapped.push(`input.${fields[0]![0]} → initial_message`);
    return fields[0]![1];
  }
  if (input == null) return null;
  mapped.push(`input (${record ? `an object of ${fields.length} fields` : "not text"}) → initial_message, as its JSON text`);
  return JSON.stringify(input, null, 2);
}

export function exportLangfuse(cases: TestCaseDocument[]): ExportOutput {
  const not_exported: ExportOutput["not_exported"] = [];
  const items = cases.map((c, index) => {
    const note = filesNote(c);
    if (note) not_exported.push({ index, name: c.name, reason: note });
    const judge = c.checks.find((k) => k.type === "llm_judge");
    // input, name and tags travel in Langfuse's own fields; ground_truth and checks always go in the
    // block, since the import would otherwise read expectedOutput as a ground truth and a judge check.
    const { tags: _tags, initial_message: _message, ...block } = assayBlock(c as unknown as Json);
    return {
      input: c.initial_message,
      expectedOutput: c.ground_truth ?? judge?.expected_answer ?? null,
      metadata: {
        name: c.name,
        ...(c.tags.length > 0 ? { tags: c.tags } : {}),
        assay: { ...block, ground_truth: c.ground_truth, checks: c.checks },
      },
      status: c.status === "archived" ? "ARCHIVED" : "ACTIVE",
    };
  });
  return { text: `${JSON.stringify(items, null, 2)}\n`, not_exported };
}
