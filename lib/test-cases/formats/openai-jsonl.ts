/**
 * OpenAI chat JSONL (`format=openai-jsonl`): one `{"messages": [...], "tools": [...]}` per line,
 * the fine-tuning and Evals format (what GET /api/v1/runs/{id}/export?format=openai-jsonl writes).
 * - One user message → a single-question case: the user message opens, the final assistant text
 *   becomes `ground_truth` and an `llm_judge` check, assistant `tool_calls` the expected tool
 *   calls (name and parsed arguments).
 * - Several user messages → a simulated-user case that replays them: the first opens, the later
 *   ones are its script (`user_context.script`), `max_turns` = user turns + 2.
 * - A system or developer message → `user_context.system_prompt` (for reference: the suite's
 *   agent has its own). Tool results and `tools` definitions belong to the agent: not carried over.
 * - `metadata.name` → name (else "Line N: " and the start of the first user message),
 *   `metadata.tags` → tags, the rest of `metadata` → `user_context.metadata`.
 * A line that is not JSON, not an object, or has no user message is that line's error. A JSON
 * array of the same objects (or one object on its own) is read as well.
 */
import type { ExpectedToolCall } from "@/lib/test-cases/schemas";
import type { Conversion, ConvertedItem, ImportInput } from "./types";
import { checkDocumentText } from "@/lib/test-cases/document";
import {
  asRecord,
  caseName,
  failedItem,
  isNonEmptyString,
  LineError,
  messageText,
  numberedJsonLines,
  scriptedMaxTurns,
  snippet,
  splitMetadata,
  startItem,
  type Json,
} from "./shared";

export function importOpenAiJsonl(input: ImportInput): Conversion {
  checkDocumentText(input.text, "Expected JSON Lines: one {messages} object per line");
  // A JSON array of the same objects is read too (its items numbered as lines 1, 2, …).
  const whole = wholeDocument(input.text);
  if (whole) return { items: whole.map((raw, index) => chatLine(raw, index, index + 1)), notes: [] };
  return { items: numberedJsonLines(input.text).map(({ line, value }, index) => chatLine(value, index, line)), notes: [] };
}

function chatLine(raw: unknown, index: number, line: number): ConvertedItem {
  const report = startItem(index, `line ${line}`);
  const { mapped, dropped } = report;
  const source = { type: "import" as const, format: "openai-jsonl" as const, item_id: null, trace_id: null };
  if (raw instanceof LineError) return failedItem(report, raw.message, "openai-jsonl");
  const record = asRecord(raw);
  if (!record || !Array.isArray(record.messages)) return failedItem(report, `Line ${line} has no messages list`, "openai-jsonl");
  const drop = (d: { field: string; reason: string }) => dropped.push(d);
  const messages = (record.messages as unknown[]).map(asRecord);
  const users: string[] = [];
  const system: string[] = [];
  const calls: ExpectedToolCall[] = [];
  let lastAnswer: string | null = null;
  let toolResults = 0;
  messages.forEach((m, k) => {
    if (!m) return drop({ field: `messages[${k}]`, reason: "not a message object" });
    const text = messageText(m.content, `messages[${k}].content`, drop);
    if (m.role === "user") users.push(text);
    else if (m.role === "system" || m.role === "developer") system.push(text);
    else if (m.role === "tool" || m.role === "function") toolResults++;
    else if (m.role === "assistant") {
      if (text.trim() !== "") lastAnswer = text;
      for (const [j, c] of (Array.isArray(m.tool_calls) ? m.tool_calls : []).entries()) {
        const fn = asRecord(asRecord(c)?.function);
        if (!isNonEmptyString(fn?.name)) {
          drop({ field: `messages[${k}].tool_calls[${j}]`, reason: "a tool call without a function name" });
          continue;
        }
        const params = parseArguments(fn.arguments);
        if (params === undefined)
          drop({
            field: `messages[${k}].tool_calls[${j}].function.arguments`,
            reason: "not a JSON object; the call is expected without parameters",
          });
        const call = { tool: fn.name, expected_params: params ?? null };
        if (!calls.some((x) => x.tool === call.tool && JSON.stringify(x.expected_params) === JSON.stringify(call.expected_params)))
          calls.push(call);
      }
    } else drop({ field: `messages[${k}]`, reason: `role "${String(m.role)}" is not one of system, developer, user, assistant, tool` });
  });
  if (users.length === 0) return failedItem(report, `Line ${line} has no user message`, "openai-jsonl");

  const opening = snippet(users[0]!, 60);
  report.label = `line ${line}: ${opening}`;
  const metadata = splitMetadata(record.metadata, "metadata", mapped, dropped);
  const testCase: Json = {
    name: caseName([metadata.name], `Line ${line}: ${opening}`, dropped, "metadata.name"),
    initial_message: users[0],
  };
  if (metadata.name) mapped.push("metadata.name → name");
  if (metadata.tags.length > 0) testCase.tags = metadata.tags;
  const userContext: Json = metadata.rest ? { metadata: metadata.rest } : {};
  mapped.push("messages (first user message) → initial_message");
  if (users.length > 1) {
    testCase.persona = {
      type: "Scripted user",
      description: "Replays a recorded conversation",
      instructions:
        "Send the messages in user_context.script in order, one per turn, and nothing else; end the conversation after the last one.",
    };
    testCase.max_turns = scriptedMaxTurns(users.length, dropped, "messages");
    userContext.script = users.slice(1);
    mapped.push(
      `messages (${users.length - 1} later user messages) → user_context.script, played by a scripted persona; max_turns ${testCase.max_turns as number}`,
    );
  }
  if (system.length > 0) {
    userContext.system_prompt = system.join("\n\n");
    mapped.push("system message → user_context.system_prompt (for reference: the suite's agent has its own system prompt)");
  }
  if (Object.keys(userContext).length > 0) testCase.user_context = userContext;
  if (lastAnswer) {
    testCase.ground_truth = lastAnswer;
    testCase.checks = [{ type: "llm_judge", expected_answer: lastAnswer, criteria: null }];
    mapped.push("the final assistant message → ground_truth and an llm_judge check against it");
  }
  if (calls.length > 0) {
    testCase.expected_tool_calls = calls;
    mapped.push("assistant tool_calls → expected_tool_calls");
  }
  if (toolResults > 0)
    drop({ field: "messages (tool)", reason: `${toolResults} tool result(s): the agent's mocked tools answer on every run` });
  if (record.tools !== undefined) drop({ field: "tools", reason: "the suite's agent defines its own tools" });
  for (const key of Object.keys(record)) {
    if (!["messages", "tools", "metadata", "parallel_tool_calls"].includes(key))
      drop({ field: key, reason: "not a field of a chat JSONL line" });
  }
  if (record.parallel_tool_calls !== undefined)
    drop({ field: "parallel_tool_calls", reason: "a setting of the model call, not of the case" });
  return { report, case: testCase, error: null, source };
}

/** The items of a document that is one JSON value (an array, or a single object); null for JSON Lines. */
function wholeDocument(text: string): unknown[] | null {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : [value];
  } catch {
    return null;
  }
}

/** A call's `arguments` (a JSON string, or already an object) → an object; undefined when it is not one. */
function parseArguments(v: unknown): Json | null | undefined {
  if (v == null || v === "") return null;
  if (asRecord(v)) return Object.keys(v as Json).length > 0 ? (v as Json) : null;
  if (typeof v !== "string") return undefined;
  try {
    const parsed = asRecord(JSON.parse(v));
    if (!parsed) return undefined;
    return Object.keys(parsed).length > 0 ? parsed : null;
  } catch {
    return undefined;
  }
}
