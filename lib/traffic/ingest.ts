/**
 * Storing received spans and keeping each conversation assembled from them. One OTLP request is
 * one transaction of a fixed number of statements whatever its size (never a round trip per
 * span): the spans go in as one INSERT … SELECT from a JSON array (a retried export's spans are
 * no-ops), and every conversation they touch is rebuilt from all of its stored spans and written
 * back in one upsert. Rebuilding from storage is what makes late and out-of-order spans merge:
 * the result never depends on the order spans arrived in.
 *
 * Which conversation a span belongs to: its trace's `gen_ai.conversation.id` (or OpenInference's
 * `session.id`) — on any span of the trace, in this request or stored before — else the trace
 * alone ("t:<traceId>"). When a trace first stored without an id later sends a span that has
 * one, its spans move to that conversation and the trace-only one is removed.
 *
 * A workspace's exports are serialised by a transaction-level advisory lock: which conversation
 * a trace belongs to is read and then written, and the rebuild must see every committed span, so
 * two exports touching one trace must not interleave. One export of 512 spans holds it for tens of
 * milliseconds (npm run bench -- --otlp); other workspaces and every read go on meanwhile.
 */
import "server-only";
import { scopedPoolTransaction } from "@/lib/db";
import { assembleConversation } from "./assemble";
import { conversationIdOf } from "./otlp/semconv";
import type { ReceivedSpan } from "./types";

const conversationKey = (id: string) => `c:${id}`;
const traceKey = (traceId: string) => `t:${traceId}`;

/** Nanoseconds since the epoch (decimal string) → a Date, millisecond precision. */
export function nanosToDate(nanos: string): Date {
  const ms = Number(BigInt(nanos || "0") / 1_000_000n);
  return new Date(Number.isFinite(ms) ? ms : 0);
}

/** The conversation id each trace of the batch names on any of its spans. */
function idsByTrace(spans: ReceivedSpan[]): Map<string, string> {
  const ids = new Map<string, string>();
  for (const span of spans) {
    const id = conversationIdOf(span);
    if (id && !ids.has(span.traceId)) ids.set(span.traceId, id);
  }
  return ids;
}

/**
 * Text PostgreSQL can store: NUL characters dropped and lone surrogates replaced, in keys and
 * values alike. A span is an agent's own account of what happened, so it is kept rather than
 * refused for a stray byte.
 */
function storable<T>(value: T): T {
  if (typeof value === "string") return value.replaceAll("\u0000", "").toWellFormed() as T;
  if (Array.isArray(value)) return value.map(storable) as T;
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [storable(k), storable(v)])) as T;
  }
  return value;
}

export type IngestResult = { accepted: number; conversations: number };

/**
 * Stores the spans of one export request in the workspace and rebuilds every conversation they
 * belong to. Returns how many spans were accepted (duplicates of stored spans included: a retry
 * is not an error) and how many conversations were written.
 */
export async function ingestSpans(workspaceId: string, received: ReceivedSpan[]): Promise<IngestResult> {
  if (received.length === 0) return { accepted: 0, conversations: 0 };
  const spans = received.map(storable);
  const named = idsByTrace(spans);
  const traceIds = [...new Set(spans.map((s) => s.traceId))];
  return scopedPoolTransaction(workspaceId, async (client) => {
    // One export of a workspace at a time: which conversation a trace belongs to is read, then
    // written, so two exports of one trace must not interleave (see the module comment).
    await client.query(`SELECT pg_advisory_xact_lock(hashtextextended('traffic:' || $1, 0))`, [workspaceId]);
    // Traces this batch does not name: a span stored earlier may have.
    const unnamed = traceIds.filter((t) => !named.has(t));
    const stored = new Map<string, string>();
    if (unnamed.length > 0) {
      const { rows } = await client.query<{ traceId: string; key: string }>(
        `SELECT DISTINCT ON ("traceId") "traceId", "conversationKey" AS key FROM "TrafficSpan"
         WHERE "workspaceId" = $1 AND "traceId" = ANY($2::text[]) AND "conversationKey" LIKE 'c:%'
         ORDER BY "traceId", "receivedAt"`,
        [workspaceId, unnamed],
      );
      for (const r of rows) stored.set(r.traceId, r.key);
    }
    const keyOfTrace = (traceId: string) => {
      const id = named.get(traceId);
      return id !== undefined ? conversationKey(id) : (stored.get(traceId) ?? traceKey(traceId));
    };
    const keyOfSpan = (span: ReceivedSpan) => {
      const own = conversationIdOf(span);
      return own !== null ? conversationKey(own) : keyOfTrace(span.traceId);
    };

    // Named traces may have been stored unnamed before: their trace-only conversations merge in.
    const renamed = [...named.keys()];
    const keys = new Set(spans.map(keyOfSpan));
    if (renamed.length > 0) {
      const moved = await client.query<{ key: string }>(
        `UPDATE "TrafficSpan" s SET "conversationKey" = m.key
         FROM unnest($2::text[], $3::text[]) AS m("traceId", key)
         WHERE s."workspaceId" = $1 AND s."traceId" = m."traceId" AND s."conversationKey" = 't:' || m."traceId"
         RETURNING 't:' || s."traceId" AS key`,
        [workspaceId, renamed, renamed.map(keyOfTrace)],
      );
      const gone = [...new Set(moved.rows.map((r) => r.key))];
      if (gone.length > 0) {
        await client.query(`DELETE FROM "TrafficConversation" WHERE "workspaceId" = $1 AND key = ANY($2::text[])`, [workspaceId, gone]);
      }
    }

    const rows = spans.map((span) => ({
      traceId: span.traceId,
      spanId: span.spanId,
      key: keyOfSpan(span),
      startTime: nanosToDate(span.startTimeUnixNano).toISOString(),
      data: span,
    }));
    await client.query(
      `INSERT INTO "TrafficSpan" ("workspaceId", "traceId", "spanId", "conversationKey", "startTime", data)
       SELECT $1, r."traceId", r."spanId", r.key, r."startTime", r.data
       FROM jsonb_to_recordset($2::jsonb) AS r("traceId" text, "spanId" text, key text, "startTime" timestamptz, data jsonb)
       ON CONFLICT DO NOTHING`,
      [workspaceId, JSON.stringify(rows)],
    );

    const all = await client.query<{ key: string; data: ReceivedSpan }>(
      `SELECT "conversationKey" AS key, data FROM "TrafficSpan" WHERE "workspaceId" = $1 AND "conversationKey" = ANY($2::text[])`,
      [workspaceId, [...keys]],
    );
    const byKey = new Map<string, ReceivedSpan[]>();
    for (const r of all.rows) {
      const list = byKey.get(r.key) ?? [];
      list.push(r.data);
      byKey.set(r.key, list);
    }
    const conversations = [...byKey].map(([key, list]) => {
      const c = assembleConversation(list);
      return {
        key,
        externalId: key.startsWith("c:") ? key.slice(2) : null,
        serviceName: c.serviceName,
        messages: c.messages,
        toolCalls: c.toolCalls,
        toolNames: c.toolNames,
        userTurns: c.userTurns,
        userText: c.userText,
        model: c.model,
        inputTokens: c.inputTokens,
        outputTokens: c.outputTokens,
        latencyMs: Math.round(c.latencyMs),
        llmCalls: c.llmCalls,
        spanCount: list.length,
        hasError: c.hasError,
        errors: c.errors,
        traceIds: [...new Set(list.map((s) => s.traceId))],
        startedAt: c.startedAt.toISOString(),
        endedAt: c.endedAt.toISOString(),
      };
    });
    await client.query(
      `INSERT INTO "TrafficConversation" (id, "workspaceId", key, "externalId", "serviceName", messages, "toolCalls", "toolNames",
         "userTurns", "userText", model, "inputTokens", "outputTokens", "latencyMs", "llmCalls", "spanCount", "hasError", errors,
         "traceIds", "startedAt", "endedAt", "updatedAt")
       SELECT gen_random_uuid(), $1, c.key, c."externalId", c."serviceName", c.messages, c."toolCalls",
         ARRAY(SELECT jsonb_array_elements_text(c."toolNames")), c."userTurns", c."userText", c.model, c."inputTokens",
         c."outputTokens", c."latencyMs", c."llmCalls", c."spanCount", c."hasError", ARRAY(SELECT jsonb_array_elements_text(c.errors)),
         ARRAY(SELECT jsonb_array_elements_text(c."traceIds")), c."startedAt", c."endedAt", now()
       FROM jsonb_to_recordset($2::jsonb) AS c(key text, "externalId" text, "serviceName" text, messages jsonb, "toolCalls" jsonb,
         "toolNames" jsonb, "userTurns" int, "userText" text, model text, "inputTokens" int, "outputTokens" int, "latencyMs" int,
         "llmCalls" int, "spanCount" int, "hasError" boolean, errors jsonb, "traceIds" jsonb, "startedAt" timestamptz, "endedAt" timestamptz)
       ON CONFLICT ("workspaceId", key) DO UPDATE SET
         "serviceName" = EXCLUDED."serviceName", messages = EXCLUDED.messages, "toolCalls" = EXCLUDED."toolCalls",
         "toolNames" = EXCLUDED."toolNames", "userTurns" = EXCLUDED."userTurns", "userText" = EXCLUDED."userText",
         model = EXCLUDED.model, "inputTokens" = EXCLUDED."inputTokens", "outputTokens" = EXCLUDED."outputTokens",
         "latencyMs" = EXCLUDED."latencyMs", "llmCalls" = EXCLUDED."llmCalls", "spanCount" = EXCLUDED."spanCount",
         "hasError" = EXCLUDED."hasError", errors = EXCLUDED.errors, "traceIds" = EXCLUDED."traceIds",
         "startedAt" = EXCLUDED."startedAt", "endedAt" = EXCLUDED."endedAt", "updatedAt" = now()`,
      [workspaceId, JSON.stringify(conversations)],
    );
    return { accepted: spans.length, conversations: conversations.length };
  });
}
