/**
 * Reading traffic: the conversation list (newest first, keyset pages, the Traffic page's filters,
 * each filter served by an index of migration `traffic`) and one conversation with its
 * transcript. A conversation links to the agent whose OpenTelemetry service name is its
 * `service.name`, looked up when read, so mapping a service to an agent links its past traffic
 * too. Every query is scoped by the caller's workspace; viewers may read.
 */
import "server-only";
import { z } from "zod";
import { db } from "@/lib/db";
import { DomainError, NotFoundError, ValidationError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import { cursorFields, decodeCursor, encodeCursor } from "@/lib/serialize";
import type { TranscriptMessage } from "@/lib/conversation/types";
import type { ObservedToolCall } from "./types";
import { LlmClient } from "@/lib/llm/client";
import { resolveModelEndpoint } from "@/lib/model-configs/service";
import { createTestCase } from "@/lib/test-cases/service";
import type { CaseSource } from "@/lib/test-cases/schemas";
import { draftCase, type CaseDraft } from "./draft";
import { assemblePending } from "./assembler";
import type { ConversationDto, ConversationListQuery, ConversationSummaryDto, DraftKind, draftCaseInput } from "./schemas";

const summarySelect = {
  id: true,
  externalId: true,
  serviceName: true,
  userText: true,
  userTurns: true,
  toolNames: true,
  model: true,
  inputTokens: true,
  outputTokens: true,
  latencyMs: true,
  hasError: true,
  spanCount: true,
  startedAt: true,
  endedAt: true,
} as const satisfies Prisma.TrafficConversationSelect;

type SummaryRow = Prisma.TrafficConversationGetPayload<{ select: typeof summarySelect }>;
type AgentLink = { id: string; name: string };

/** The agents the rows' services are mapped to, by service name. */
async function agentsByService(workspaceId: string, services: (string | null)[]): Promise<Map<string, AgentLink>> {
  const names = [...new Set(services.filter((s): s is string => s !== null))];
  if (names.length === 0) return new Map();
  const agents = await db.agent.findMany({
    where: { workspaceId, otelServiceName: { in: names } },
    select: { id: true, name: true, otelServiceName: true },
  });
  return new Map(agents.map((a) => [a.otelServiceName!, { id: a.id, name: a.name }]));
}

function toSummary(row: SummaryRow, agents: Map<string, AgentLink>): ConversationSummaryDto {
  const first = row.userText.split("\n", 1)[0] ?? "";
  return {
    id: row.id,
    conversation_id: row.externalId,
    service_name: row.serviceName,
    agent: row.serviceName ? (agents.get(row.serviceName) ?? null) : null,
    first_user_message: row.userTurns > 0 ? first : null,
    user_turns: row.userTurns,
    tool_names: row.toolNames,
    model: row.model,
    input_tokens: row.inputTokens,
    output_tokens: row.outputTokens,
    latency_ms: row.latencyMs,
    has_error: row.hasError,
    span_count: row.spanCount,
    started_at: row.startedAt.toISOString(),
    ended_at: row.endedAt.toISOString(),
  };
}

const listCursor = z.object({ c: cursorFields.timestamp, id: cursorFields.id });

/** The list's filter; an agent without a mapped service matches nothing. */
async function listWhere(ctx: WorkspaceContext, q: ConversationListQuery): Promise<Prisma.TrafficConversationWhereInput> {
  const and: Prisma.TrafficConversationWhereInput[] = [{ workspaceId: ctx.workspaceId }];
  if (q.agent_id) {
    const agent = await db.agent.findFirst({ where: { id: q.agent_id, workspaceId: ctx.workspaceId }, select: { otelServiceName: true } });
    if (!agent) throw new NotFoundError("Agent");
    and.push(agent.otelServiceName ? { serviceName: agent.otelServiceName } : { id: { in: [] } });
  }
  if (q.service) and.push({ serviceName: q.service });
  if (q.from) and.push({ startedAt: { gte: q.from } });
  if (q.to) and.push({ startedAt: { lt: q.to } });
  if (q.has_error) and.push({ hasError: true });
  if (q.tool) and.push({ toolNames: { has: q.tool } });
  if (q.min_turns !== undefined) and.push({ userTurns: { gte: q.min_turns } });
  if (q.q) and.push({ userText: { contains: q.q, mode: "insensitive" } });
  return { AND: and };
}

/** GET /api/v1/conversations and the Traffic page: newest first (by start), keyset pages. */
export async function listConversations(
  ctx: WorkspaceContext,
  q: ConversationListQuery,
): Promise<{ data: ConversationSummaryDto[]; next_cursor: string | null }> {
  requireRole(ctx, "viewer");
  const cursor = decodeCursor(q.cursor, listCursor);
  const where = await listWhere(ctx, q);
  await assemblePending(ctx.workspaceId);
  const rows = await db.trafficConversation.findMany({
    where: cursor
      ? { AND: [where, { OR: [{ startedAt: { lt: new Date(cursor.c) } }, { startedAt: new Date(cursor.c), id: { lt: cursor.id } }] }] }
      : where,
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: q.limit + 1,
    select: summarySelect,
  });
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  const next = rows.length > q.limit && last ? encodeCursor({ c: last.startedAt.toISOString(), id: last.id }) : null;
  const agents = await agentsByService(
    ctx.workspaceId,
    page.map((r) => r.serviceName),
  );
  return { data: page.map((r) => toSummary(r, agents)), next_cursor: next };
}

const toolCallDto = (t: ObservedToolCall) => ({
  id: t.id,
  name: t.name,
  arguments: t.arguments,
  result: t.result,
  error: t.error,
  duration_ms: t.durationMs,
});

/** GET /api/v1/conversations/{id}: the conversation with its transcript (404 outside the workspace). */
export async function getConversation(ctx: WorkspaceContext, id: string): Promise<ConversationDto> {
  requireRole(ctx, "viewer");
  await assemblePending(ctx.workspaceId);
  const row = await db.trafficConversation.findFirst({
    where: { id, workspaceId: ctx.workspaceId },
    select: { ...summarySelect, messages: true, toolCalls: true, errors: true, traceIds: true, llmCalls: true },
  });
  if (!row) throw new NotFoundError("Conversation");
  const agents = await agentsByService(ctx.workspaceId, [row.serviceName]);
  return {
    ...toSummary(row, agents),
    messages: row.messages as TranscriptMessage[],
    tool_calls: (row.toolCalls as ObservedToolCall[]).map(toolCallDto),
    errors: row.errors,
    trace_ids: row.traceIds,
    llm_calls: row.llmCalls,
  };
}

/** The services that sent traffic (the filter's choices), most recent first, at most 100. */
export async function listTrafficServices(ctx: WorkspaceContext): Promise<string[]> {
  requireRole(ctx, "viewer");
  const rows = await db.trafficConversation.groupBy({
    by: ["serviceName"],
    where: { workspaceId: ctx.workspaceId, serviceName: { not: null } },
    _max: { startedAt: true },
    orderBy: { _max: { startedAt: "desc" } },
    take: 100,
  });
  return rows.map((r) => r.serviceName!);
}

/** The suite's judge model as a client, or why there is none. */
async function suiteJudge(ctx: WorkspaceContext, suiteId: string): Promise<{ judge: LlmClient | null; reason: string }> {
  const suite = await db.suite.findFirst({
    where: { id: suiteId, workspaceId: ctx.workspaceId, deletedAt: null },
    select: { name: true, llmJudgeModelConfigId: true },
  });
  if (!suite) throw new ValidationError("Unknown suite", [{ path: "suite_id", message: "No such suite in this workspace" }]);
  if (!suite.llmJudgeModelConfigId) return { judge: null, reason: `the suite “${suite.name}” has no judge model` };
  const endpoint = await resolveModelEndpoint(ctx.workspaceId, suite.llmJudgeModelConfigId);
  return { judge: new LlmClient({ id: suite.llmJudgeModelConfigId, ...endpoint }), reason: "" };
}

const originOf = (service: string | null, startedAt: Date) =>
  `a conversation${service ? ` of ${service}` : ""} on ${startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** POST /api/v1/conversations/{id}/draft-case: the draft for review, not saved. */
export async function draftCaseFromConversation(
  ctx: WorkspaceContext,
  id: string,
  input: z.output<typeof draftCaseInput>,
): Promise<CaseDraft> {
  requireRole(ctx, "editor");
  await assemblePending(ctx.workspaceId);
  const row = await db.trafficConversation.findFirst({
    where: { id, workspaceId: ctx.workspaceId },
    select: { messages: true, serviceName: true, startedAt: true },
  });
  if (!row) throw new NotFoundError("Conversation");
  const { judge, reason } = await suiteJudge(ctx, input.suite_id);
  return draftCase(
    {
      messages: row.messages as TranscriptMessage[],
      source: { type: "conversation", conversation_id: id },
      origin: originOf(row.serviceName, row.startedAt),
      judge,
      noJudgeReason: reason,
    },
    { kind: input.kind, draftOutcomes: input.draft_outcomes, keepToolParams: input.tool_params },
  );
}

/** The same from a case result's transcript ("Make a test case" on a run's case view). */
export async function draftCaseFromCaseResult(
  ctx: WorkspaceContext,
  caseResultId: string,
  input: z.output<typeof draftCaseInput>,
): Promise<CaseDraft> {
  requireRole(ctx, "editor");
  const row = await db.caseResult.findFirst({
    where: { id: caseResultId, workspaceId: ctx.workspaceId },
    select: { transcript: true, name: true, createdAt: true, run: { select: { number: true } } },
  });
  if (!row) throw new NotFoundError("Case result");
  const { judge, reason } = await suiteJudge(ctx, input.suite_id);
  return draftCase(
    {
      messages: row.transcript as TranscriptMessage[],
      source: { type: "case_result", case_result_id: caseResultId },
      origin: `the transcript of “${row.name}” in run #${row.run.number}`,
      judge,
      noJudgeReason: reason,
    },
    { kind: input.kind, draftOutcomes: input.draft_outcomes, keepToolParams: input.tool_params },
  );
}

export type FromConversationsReport = {
  created: { conversation_id: string; test_case_id: string; name: string; kind: DraftKind; drafted: string[]; notes: string[] }[];
  failed: { conversation_id: string; message: string }[];
};

/**
 * POST /api/v1/suites/{id}/test-cases/from-conversations: one draft case (status `draft`) per
 * conversation, drafted a few at a time; a conversation that cannot be drafted or saved is
 * reported and the others are kept (each case is its own write).
 */
export async function createCasesFromConversations(
  ctx: WorkspaceContext,
  suiteId: string,
  conversationIds: string[],
): Promise<FromConversationsReport> {
  requireRole(ctx, "editor");
  const suite = await db.suite.findFirst({ where: { id: suiteId, workspaceId: ctx.workspaceId, deletedAt: null }, select: { id: true } });
  if (!suite) throw new NotFoundError("Suite");
  const report: FromConversationsReport = { created: [], failed: [] };
  const outcomes = await mapBounded(conversationIds, 4, async (conversationId) => {
    try {
      const draft = await draftCaseFromConversation(ctx, conversationId, { suite_id: suiteId, draft_outcomes: false, tool_params: false });
      const saved = await createTestCase(ctx, suiteId, { ...draft.test_case, status: "draft", source: draft.source });
      return { ok: true as const, conversationId, draft, saved };
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      const detail = err.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
      return { ok: false as const, conversationId, message: detail ? `${err.message} (${detail})` : err.message };
    }
  });
  for (const o of outcomes) {
    if (o.ok) {
      report.created.push({
        conversation_id: o.conversationId,
        test_case_id: o.saved.id,
        name: o.saved.name,
        kind: o.draft.kind,
        drafted: o.draft.drafted,
        notes: o.draft.notes,
      });
    } else report.failed.push({ conversation_id: o.conversationId, message: o.message });
  }
  return report;
}

/** `fn` over `items`, at most `limit` at a time, results in input order. */
async function mapBounded<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

export type DraftSuiteOption = { id: string; name: string; agent_name: string; has_judge: boolean };

/** The suites a case can be drafted into (the dialogs' choices): live suites by name, with whether a judge model drafts. */
export async function listDraftSuites(ctx: WorkspaceContext): Promise<DraftSuiteOption[]> {
  requireRole(ctx, "editor");
  const suites = await db.suite.findMany({
    where: { workspaceId: ctx.workspaceId, deletedAt: null },
    select: { id: true, name: true, llmJudgeModelConfigId: true, agent: { select: { name: true } } },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    take: 500,
  });
  return suites.map((s) => ({ id: s.id, name: s.name, agent_name: s.agent.name, has_judge: s.llmJudgeModelConfigId !== null }));
}

/** The agents with a service name (the Traffic page's agent filter). */
export async function listMappedAgents(ctx: WorkspaceContext): Promise<{ id: string; name: string; service: string }[]> {
  requireRole(ctx, "viewer");
  const agents = await db.agent.findMany({
    where: { workspaceId: ctx.workspaceId, otelServiceName: { not: null } },
    select: { id: true, name: true, otelServiceName: true },
    orderBy: [{ name: "asc" }, { id: "asc" }],
  });
  return agents.map((a) => ({ id: a.id, name: a.name, service: a.otelServiceName! }));
}

/** Whether a drafted case's origin is still retained: its conversation, or its case result (retention deletes both). */
export async function caseSourceRetained(ctx: WorkspaceContext, source: CaseSource): Promise<boolean> {
  requireRole(ctx, "viewer");
  if (source.type === "import") return false; // the other tool's item is not in Assay to link to
  const row =
    source.type === "conversation"
      ? await db.trafficConversation.findFirst({
          where: { id: source.conversation_id, workspaceId: ctx.workspaceId },
          select: { id: true },
        })
      : await db.caseResult.findFirst({ where: { id: source.case_result_id, workspaceId: ctx.workspaceId }, select: { id: true } });
  return row !== null;
}
