/**
 * Assembling conversations from their stored spans, off the export's path. A conversation whose
 * spans changed has a `TrafficPending` row (bumped by each export); a pass rebuilds it from
 * **all** its spans — so late and out-of-order spans always give the same conversation — upserts
 * the conversation, and deletes the pending row only if its revision is still the one it read,
 * in the same transaction: an export that landed meanwhile leaves it pending for the next pass,
 * and a reader either finds it pending (and assembles it) or finds it assembled. The pending row
 * is locked only from that delete to the commit.
 *
 * Who runs it: `assembleSoon` right after an export is answered (in the web process that received
 * it, one pass at a time per workspace), and `assemblePending` before every read of conversations
 * (list, one, drafting), so a reader always sees every span stored before it asked.
 */
import "server-only";
import { scopedPoolTransaction } from "@/lib/db";
import { logger } from "@/lib/logger";
import { assembleConversation } from "./assemble";
import type { ReceivedSpan } from "./types";
import { storable } from "./storable";

/** Conversations rebuilt per transaction. */
const BATCH = 200;

type Pending = { key: string; revision: number };

/** One pass over up to BATCH pending conversations of the workspace: how many it saw, and claimed (rebuilt or dropped). */
async function assembleBatch(workspaceId: string): Promise<{ seen: number; claimed: number }> {
  return scopedPoolTransaction(workspaceId, async (client) => {
    // Oldest first; written in key order, so concurrent passes (other processes) lock rows in one order.
    const pending = await client.query<Pending>(
      `SELECT key, revision FROM (SELECT key, revision FROM "TrafficPending" WHERE "workspaceId" = $1 ORDER BY "updatedAt" LIMIT ${BATCH}) p
       ORDER BY key`,
      [workspaceId],
    );
    if (pending.rows.length === 0) return { seen: 0, claimed: 0 };
    const spans = await client.query<{ key: string; data: ReceivedSpan }>(
      `SELECT "conversationKey" AS key, data FROM "TrafficSpan" WHERE "workspaceId" = $1 AND "conversationKey" = ANY($2::text[])`,
      [workspaceId, pending.rows.map((p) => p.key)],
    );
    const byKey = new Map<string, ReceivedSpan[]>();
    for (const r of spans.rows) {
      const list = byKey.get(r.key) ?? [];
      list.push(r.data);
      byKey.set(r.key, list);
    }
    // A key without spans stands for nothing any more (its spans moved to a conversation named later,
    // or retention took them): only its pending row goes.
    const rows = pending.rows.flatMap((p) => {
      const list = byKey.get(p.key);
      if (!list) return [];
      let c: ReturnType<typeof assembleConversation>;
      try {
        c = assembleConversation(list);
      } catch (err) {
        // One conversation that cannot be assembled must not stop every read of the workspace: it is
        // claimed below (not retried forever) and keeps its last assembly.
        logger.warn({ err, workspaceId, key: p.key }, "a traffic conversation could not be assembled");
        return [];
      }
      return [
        storable({
          key: p.key,
          externalId: p.key.startsWith("c:") ? p.key.slice(2) : null,
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
        }),
      ];
    });
    // Claim the pending rows still at the revision read (in key order: exports mark in key order too),
    // and write only their conversations: one an export marked again meanwhile is left for the next
    // pass, and one whose spans moved away (a trace named later) is not brought back.
    const claimed = await client.query<{ key: string }>(
      `DELETE FROM "TrafficPending" p USING (
         SELECT q.key FROM "TrafficPending" q JOIN unnest($2::text[], $3::int[]) AS d(key, revision) ON q.key = d.key AND q.revision = d.revision
         WHERE q."workspaceId" = $1 ORDER BY q.key FOR UPDATE OF q
       ) c
       WHERE p."workspaceId" = $1 AND p.key = c.key
       RETURNING p.key`,
      [workspaceId, pending.rows.map((p) => p.key), pending.rows.map((p) => p.revision)],
    );
    const written = claimed.rows.map((r) => r.key);
    if (rows.length > 0 && written.length > 0) {
      await client.query(
        `INSERT INTO "TrafficConversation" (id, "workspaceId", key, "externalId", "serviceName", messages, "toolCalls", "toolNames",
           "userTurns", "userText", model, "inputTokens", "outputTokens", "latencyMs", "llmCalls", "spanCount", "hasError", errors,
           "traceIds", "startedAt", "endedAt", "updatedAt")
         SELECT gen_random_uuid(), $1, c.key, c."externalId", c."serviceName", c.messages, c."toolCalls",
           ARRAY(SELECT json_array_elements_text(c."toolNames")), c."userTurns", c."userText", c.model, c."inputTokens",
           c."outputTokens", c."latencyMs", c."llmCalls", c."spanCount", c."hasError", ARRAY(SELECT json_array_elements_text(c.errors)),
           ARRAY(SELECT json_array_elements_text(c."traceIds")), c."startedAt", c."endedAt", now()
         FROM json_to_recordset($2::json) AS c(key text, "externalId" text, "serviceName" text, messages json, "toolCalls" json,
           "toolNames" json, "userTurns" int, "userText" text, model text, "inputTokens" int, "outputTokens" int, "latencyMs" int,
           "llmCalls" int, "spanCount" int, "hasError" boolean, errors json, "traceIds" json, "startedAt" timestamptz, "endedAt" timestamptz)
         WHERE c.key = ANY($3::text[])
         ON CONFLICT ("workspaceId", key) DO UPDATE SET
           "serviceName" = EXCLUDED."serviceName", messages = EXCLUDED.messages, "toolCalls" = EXCLUDED."toolCalls",
           "toolNames" = EXCLUDED."toolNames", "userTurns" = EXCLUDED."userTurns", "userText" = EXCLUDED."userText",
           model = EXCLUDED.model, "inputTokens" = EXCLUDED."inputTokens", "outputTokens" = EXCLUDED."outputTokens",
           "latencyMs" = EXCLUDED."latencyMs", "llmCalls" = EXCLUDED."llmCalls", "spanCount" = EXCLUDED."spanCount",
           "hasError" = EXCLUDED."hasError", errors = EXCLUDED.errors, "traceIds" = EXCLUDED."traceIds",
           "startedAt" = EXCLUDED."startedAt", "endedAt" = EXCLUDED."endedAt", "updatedAt" = now()`,
        [workspaceId, JSON.stringify(rows), written],
      );
    }
    return { seen: pending.rows.length, claimed: written.length };
  });
}

/** Passes one reader runs at most: a steady stream of exports must not keep a reader waiting. */
const MAX_PASSES = 20;

async function drain(workspaceId: string): Promise<number> {
  let total = 0;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const { seen, claimed } = await assembleBatch(workspaceId);
    total += claimed;
    // Done when the queue was short and nothing was marked again while this pass worked.
    if (seen < BATCH && claimed === seen) break;
  }
  return total;
}

/**
 * One pass at a time per workspace in this process: two passes over the same conversations would
 * only repeat each other's work (and could lock the same rows in turn).
 */
const chains = new Map<string, Promise<unknown>>();
function serialized<T>(workspaceId: string, fn: () => Promise<T>): Promise<T> {
  const next = (chains.get(workspaceId) ?? Promise.resolve()).catch(() => undefined).then(fn);
  chains.set(workspaceId, next);
  void next
    .finally(() => {
      if (chains.get(workspaceId) === next) chains.delete(workspaceId);
    })
    .catch(() => undefined);
  return next;
}

/** Rebuilds the workspace's pending conversations (a reader's guarantee: nothing stored before it asked is left out). */
export function assemblePending(workspaceId: string): Promise<number> {
  return serialized(workspaceId, () => drain(workspaceId));
}

const queued = new Set<string>();

/**
 * Assembles the workspace's pending conversations in the background (after an export): exports
 * that land before the pass starts share it. Failures are logged; the next read or export
 * assembles what was left.
 */
export function assembleSoon(workspaceId: string): void {
  if (queued.has(workspaceId)) return;
  queued.add(workspaceId);
  serialized(workspaceId, () => {
    queued.delete(workspaceId);
    return drain(workspaceId);
  }).catch((err: unknown) => logger.warn({ err, workspaceId }, "assembling traffic conversations failed; the next read retries"));
}
