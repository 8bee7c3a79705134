import { z } from "zod";
import { booleanQuery, paginationQuery } from "@/lib/api/query";
import { TEXT_LIMITS } from "@/lib/validation/limits";

/**
 * Traffic (conversations received over OTLP): the list query, the drafting inputs and the
 * resources the API answers with. The zod resource schemas are the one definition: the DTO types
 * are their outputs, and lib/traffic/openapi.ts publishes them. No `server-only`: the Traffic
 * page's filter form and the OpenAPI builder import these.
 */

const isoInstant = (name: string) =>
  z.iso
    .datetime({ offset: true, error: `${name} must be an ISO 8601 date-time (e.g. 2026-11-28T09:00:00Z)` })
    .transform((v) => new Date(v))
    .optional();

/** GET /api/v1/conversations and the Traffic page's filters. */
export const conversationListQuery = paginationQuery.extend({
  agent_id: z.uuid("agent_id must be an agent's id").optional().describe("Only the service mapped to this agent"),
  service: z.string().trim().min(1).max(TEXT_LIMITS.shortName).optional().describe("Only this service.name"),
  from: isoInstant("from").describe("Started at or after this time"),
  to: isoInstant("to").describe("Started before this time"),
  has_error: booleanQuery("has_error").describe("true: only conversations with a span that ended in error"),
  tool: z.string().trim().min(1).max(TEXT_LIMITS.identifier).optional().describe("Only conversations in which the agent called this tool"),
  min_turns: z.coerce
    .number({ error: "min_turns must be a whole number" })
    .int("min_turns must be a whole number")
    .min(0, "min_turns must be at least 0")
    .max(1000, "min_turns must be at most 1000")
    .optional()
    .describe("Only conversations with at least this many user turns"),
  q: z.string().trim().min(1).max(200).optional().describe("Text the user's messages contain (case-insensitive)"),
});
export type ConversationListQuery = z.output<typeof conversationListQuery>;

export const DRAFT_KINDS = ["single", "persona"] as const;
export type DraftKind = (typeof DRAFT_KINDS)[number];

/** POST /api/v1/conversations/{id}/draft-case */
export const draftCaseInput = z.strictObject({
  suite_id: z.uuid("suite_id must be a suite's id").describe("The suite the case is for (its judge model drafts the persona)"),
  kind: z
    .enum(DRAFT_KINDS, { error: "kind must be single or persona" })
    .optional()
    .describe("single: one question; persona: a simulated-user case. Default: single for one user turn, persona for several"),
  draft_outcomes: z
    .boolean()
    .default(false)
    .describe("Also draft expected outcomes of a single-turn case from the agent's answer (persona cases always get them)"),
  tool_params: z
    .boolean()
    .default(false)
    .describe("Keep the arguments the agent called each tool with as the expected parameters (default: tool names only)"),
});
export type DraftCaseInput = z.input<typeof draftCaseInput>;

/** POST /api/v1/suites/{id}/test-cases/from-conversations */
export const fromConversationsInput = z.strictObject({
  conversation_ids: z
    .array(z.uuid("Each conversation id must be a UUID"), { error: "conversation_ids must be a list of conversation ids" })
    .min(1, "Choose at least one conversation")
    .max(100, "At most 100 conversations at a time")
    .transform((ids) => [...new Set(ids)]),
  draft: z.literal(true, { error: "draft must be true: cases made from traffic are saved as drafts for review" }).default(true),
});

const iso = z.iso.datetime();

export const transcriptMessageResource = z.object({
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: z.string().nullable(),
  tool_calls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.string() })).optional(),
  tool_call_id: z.string().optional(),
  name: z.string().optional(),
});

export const observedToolCallResource = z.object({
  id: z.string(),
  name: z.string(),
  arguments: z.union([z.record(z.string(), z.unknown()), z.string()]).describe("Parsed JSON when the agent sent valid JSON, else the text"),
  result: z.string().nullable(),
  error: z.string().nullable(),
  duration_ms: z.number().nullable(),
});

export const conversationSummaryResource = z
  .object({
    id: z.uuid(),
    conversation_id: z.string().nullable().describe("gen_ai.conversation.id (or session.id); null when the spans gave none (one trace)"),
    service_name: z.string().nullable(),
    agent: z.object({ id: z.uuid(), name: z.string() }).nullable().describe("The agent whose OpenTelemetry service name is service_name"),
    first_user_message: z.string().nullable(),
    user_turns: z.number().int(),
    tool_names: z.array(z.string()),
    model: z.string().nullable(),
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    latency_ms: z.number().int().describe("Time the agent spent answering (agent spans, else model calls)"),
    has_error: z.boolean(),
    span_count: z.number().int(),
    started_at: iso,
    ended_at: iso,
  })
  .describe("A conversation of real traffic, assembled from the agent's OpenTelemetry spans");

export const conversationResource = conversationSummaryResource
  .extend({
    messages: z.array(transcriptMessageResource).describe("The transcript, in the shape of a case result's transcript"),
    tool_calls: z.array(observedToolCallResource),
    errors: z.array(z.string()),
    trace_ids: z.array(z.string()),
    llm_calls: z.number().int(),
  })
  .describe("A conversation with its transcript, tool calls and errors");

export type ConversationSummaryDto = z.output<typeof conversationSummaryResource>;
export type ConversationDto = z.output<typeof conversationResource>;

export const caseDraftResource = z
  .object({
    kind: z.enum(DRAFT_KINDS),
    test_case: z
      .record(z.string(), z.unknown())
      .describe("The case's fields in the test case format: POST them (with `source`) to /api/v1/suites/{id}/test-cases after review"),
    source: z
      .object({ type: z.enum(["conversation", "case_result"]), conversation_id: z.uuid().optional(), case_result_id: z.uuid().optional() })
      .describe("Send it beside the fields when saving: the case then records where it came from"),
    drafted: z.array(z.string()).describe("The fields the suite's judge model wrote: review them first"),
    notes: z.array(z.string()).describe("What was not drafted and why (no judge model, a judge answer that could not be used)"),
  })
  .describe("A test case drafted from a conversation, not saved");

export const fromConversationsReport = z
  .object({
    created: z.array(
      z.object({
        conversation_id: z.uuid(),
        test_case_id: z.uuid(),
        name: z.string(),
        kind: z.enum(DRAFT_KINDS),
        drafted: z.array(z.string()),
        notes: z.array(z.string()),
      }),
    ),
    failed: z.array(z.object({ conversation_id: z.uuid(), message: z.string() })),
  })
  .describe("The draft cases made (status draft), and the conversations that could not be drafted, with why");
