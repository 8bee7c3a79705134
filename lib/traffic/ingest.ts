/**
 * Storing received spans: the OTLP export's path, kept short. One request is one transaction of a
 * fixed number of statements whatever its size (never a round trip per span): the spans go in as
 * one INSERT … SELECT from a JSON array (a retried export's spans are no-ops), and every
 * conversation they belong to is marked pending (`TrafficPending`, revision + 1). Assembling the
 * conversations from their spans is ./assembler.ts's work, off this path: started right after the
 * export is answered, and finished by any read before it answers.
 *
 * Which conversation a span belongs to: its trace's `gen_ai.conversation.id` (or OpenInference's
 * `session.id`) — on any span of the trace, in this request or stored before — else the trace
 * alone ("t:<traceId>"). When a trace first stored without an id later sends a span that has
 * one, its spans move to that conversation and the trace-only one is removed.
 *
 * A workspace's exports are serialised by a transaction-level advisory lock: which conversation a
 * trace belongs to is read and then written, so two exports touching one trace must not
 * interleave. It is held only for the statements above (a few tens of milliseconds for 512 spans:
 * npm run bench -- --otlp); other workspaces and every read go on meanwhile.
 */
import "server-only";
import { scopedPoolTransaction } from "@/lib/db";
import { conversationIdOf } from "./otlp/semconv";
import type { ReceivedSpan } from "./types";
import { storable } from "./storable";

/** A conversation id becomes a key column: text PostgreSQL can store (the spans themselves are json, which keeps any text). */
const conversationKey = (id: string) => `c:${storable(id)}`;
const traceKey = (traceId: string) => `t:${traceId}`;

/** Nanoseconds since the epoch (decimal string) → a Date, millisecond precision. */
function nanosToDate(nanos: string): Date {
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

export type IngestResult = { accepted: number; conversations: number };

/**
 * Stores the spans of one export request in the workspace and rebuilds every conversation they
 * belong to. Returns how many spans were accepted (duplicates of stored spans included: a retry
 * is not an error) and how many conversations were written.
 */
export async function ingestSpans(workspaceId: string, spans: ReceivedSpan[]): Promise<IngestResult> {
  if (spans.length === 0) return { accepted: 0, conversations: 0 };
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
    if (renamed.length > 0) {
      // By the stored key (the index on workspace + conversation key), not by joining on trace ids.
      const from = renamed.map(traceKey);
      const moved = await client.query<{ key: string }>(
        `UPDATE "TrafficSpan" s SET "conversationKey" = m.key
         FROM unnest($2::text[], $3::text[]) AS m(old, key)
         WHERE s."workspaceId" = $1 AND s."conversationKey" = ANY($2::text[]) AND s."conversationKey" = m.old
         RETURNING m.old AS key`,
        [workspaceId, from, renamed.map(keyOfTrace)],
      );
      const gone = [...new Set(moved.rows.map((r) => r.key))];
      if (gone.length > 0) {
        // The pending row first: an assembler pass that claimed it is waited for, so the trace-only
        // conversation it may have just written is seen, and removed, by the next statement.
        await client.query(`DELETE FROM "TrafficPending" WHERE "workspaceId" = $1 AND key = ANY($2::text[])`, [workspaceId, gone]);
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
       FROM json_to_recordset($2::json) AS r("traceId" text, "spanId" text, key text, "startTime" timestamptz, data json)
       ON CONFLICT DO NOTHING`,
      [workspaceId, JSON.stringify(rows)],
    );

    // Each touched conversation waits for the assembler (a small row of its own: the conversation's
    // row, with its text indexes, is written only by the assembler). In key order, as the assembler claims them.
    const touched = [...new Set(rows.map((r) => r.key))].sort();
    await client.query(
      `INSERT INTO "TrafficPending" ("workspaceId", key) SELECT $1, k FROM unnest($2::text[]) AS k ORDER BY k
       ON CONFLICT ("workspaceId", key) DO UPDATE SET revision = "TrafficPending".revision + 1, "updatedAt" = now()`,
      [workspaceId, touched],
    );
    return { accepted: spans.length, conversations: touched.length };
  });
}
