/**
 * Assembling conversations from their stored spans, off the export's path. A conversation whose
 * spans changed (`revision` > `assembledRevision`, an index of its own) is rebuilt from **all**
 * its spans — so late and out-of-order spans always give the same conversation — and written with
 * the revision it was read at. No lock is taken: an export that lands meanwhile bumps the revision
 * again and the conversation stays pending for the next pass; two passes racing on one
 * conversation both write, and the older one leaves it pending.
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

/** Conversations rebuilt per transaction. */
const BATCH = 200;

type Pending = { id: string; key: string; revision: number };

/** One pass over up to BATCH pending conversations of the workspace; how many it rebuilt. */
async function assembleBatch(workspaceId: string): Promise<number> {
  return scopedPoolTransaction(workspaceId, async (client) => {
    const pending = await client.query<Pending>(
      `SELECT id, key, revision FROM "TrafficConversation"
       WHERE "workspaceId" = $1 AND revision > "assembledRevision"
       ORDER BY "updatedAt" LIMIT ${BATCH}`,
      [workspaceId],
    );
    if (pending.rows.length === 0) return 0;
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
    // A row without spans stands for nothing (its spans moved to a conversation named later): it goes.
    const empty = pending.rows.filter((p) => !byKey.has(p.key)).map((p) => p.id);
    if (empty.length > 0)
      await client.query(`DELETE FROM "TrafficConversation" WHERE "workspaceId" = $1 AND id = ANY($2::uuid[])`, [workspaceId, empty]);
    const rows = pending.rows.flatMap((p) => {
      const list = byKey.get(p.key);
      if (!list) return [];
      const c = assembleConversation(list);
      return [
        {
          id: p.id,
          revision: p.revision,
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
        },
      ];
    });
    await client.query(
      `UPDATE "TrafficConversation" t SET
         "serviceName" = c."serviceName", messages = c.messages, "toolCalls" = c."toolCalls",
         "toolNames" = ARRAY(SELECT json_array_elements_text(c."toolNames")), "userTurns" = c."userTurns", "userText" = c."userText",
         model = c.model, "inputTokens" = c."inputTokens", "outputTokens" = c."outputTokens", "latencyMs" = c."latencyMs",
         "llmCalls" = c."llmCalls", "spanCount" = c."spanCount", "hasError" = c."hasError",
         errors = ARRAY(SELECT json_array_elements_text(c.errors)), "traceIds" = ARRAY(SELECT json_array_elements_text(c."traceIds")),
         "startedAt" = c."startedAt", "endedAt" = c."endedAt", "assembledRevision" = c.revision
       FROM json_to_recordset($2::json) AS c(id uuid, revision int, "serviceName" text, messages json, "toolCalls" json,
         "toolNames" json, "userTurns" int, "userText" text, model text, "inputTokens" int, "outputTokens" int, "latencyMs" int,
         "llmCalls" int, "spanCount" int, "hasError" boolean, errors json, "traceIds" json, "startedAt" timestamptz, "endedAt" timestamptz)
       WHERE t.id = c.id AND t."workspaceId" = $1`,
      [workspaceId, JSON.stringify(rows)],
    );
    return pending.rows.length;
  });
}

/** Rebuilds every pending conversation of the workspace (a reader's guarantee: nothing stored before it asked is left out). */
export async function assemblePending(workspaceId: string): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await assembleBatch(workspaceId);
    total += n;
    if (n < BATCH) return total;
  }
}

const running = new Map<string, { again: boolean }>();

/**
 * Starts assembling the workspace's pending conversations in the background (after an export):
 * one pass at a time per workspace in this process; an export that lands during a pass asks for
 * one more. Failures are logged; the next read or export assembles what was left.
 */
export function assembleSoon(workspaceId: string): void {
  const current = running.get(workspaceId);
  if (current) {
    current.again = true;
    return;
  }
  const state = { again: false };
  running.set(workspaceId, state);
  void (async () => {
    try {
      do {
        state.again = false;
        await assemblePending(workspaceId);
      } while (state.again);
    } catch (err) {
      logger.warn({ err, workspaceId }, "assembling traffic conversations failed; the next read retries");
    } finally {
      running.delete(workspaceId);
    }
  })();
}
