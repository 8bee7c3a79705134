/**
 * Webhook events: what happened, queued as one WebhookDelivery row per enabled webhook of the
 * workspace subscribed to it (one INSERT … SELECT), each sent by a job (./worker.ts, lib/jobs). Emitting never blocks or fails the caller: errors are logged and swallowed, and the
 * HTTP calls happen later, elsewhere.
 *
 * Every delivery body is `{event, created_at, text, <object>}`: `text` is a Slack-compatible
 * one-line summary (a Slack incoming webhook shows it as the message), `<object>` is `run`,
 * `alert` or `comparison`, or `webhook` for a test event.
 */
import "server-only";
import { db } from "@/lib/db";
import { logger } from "@/lib/logger";
import { passRate } from "@/lib/runs/dto";
import type { AlertDto } from "@/lib/alerts/dto";
import { notifyDeliveryQueued } from "./wakeup";
import type { WebhookEvent } from "./schemas";

/** Slack's three control characters in message text. */
export function slackEscape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

const pct = (n: number) => `${n.toFixed(1)}%`;

export function deliveryBody(event: string, text: string, object: Record<string, unknown>, now = new Date()) {
  return { event, created_at: now.toISOString(), text, ...object };
}

/** Queues `body` for every enabled webhook of the workspace subscribed to `event`; returns how many deliveries were queued. */
export async function enqueueEvent(workspaceId: string, event: WebhookEvent, body: Record<string, unknown>): Promise<number> {
  const queued = await db.$queryRaw<{ id: string }[]>`
    INSERT INTO "WebhookDelivery" ("id", "workspaceId", "webhookId", "event", "payload")
    SELECT gen_random_uuid(), w."workspaceId", w."id", ${event}, ${JSON.stringify(body)}::jsonb
    FROM "Webhook" w
    WHERE w."workspaceId" = ${workspaceId}::uuid AND w."enabled" AND ${event} = ANY (w."events")
    RETURNING "id"::text AS id`;
  if (queued.length > 0) await notifyDeliveryQueued(queued.map((r) => r.id));
  return queued.length;
}

/** Whether `event` was already queued for the run (its deliveries carry the run's id). */
async function runEventQueued(workspaceId: string, event: WebhookEvent, runId: string): Promise<boolean> {
  const [row] = await db.$queryRaw<{ queued: boolean }[]>`
    SELECT EXISTS (
      SELECT 1 FROM "WebhookDelivery"
      WHERE "workspaceId" = ${workspaceId}::uuid AND "event" = ${event} AND "payload" -> 'run' ->> 'id' = ${runId}
    ) AS queued`;
  return row?.queued ?? false;
}

/** Runs `fn`; an error is logged, never thrown (an event must not fail a run or a comparison). */
async function safely(what: Record<string, unknown>, fn: () => Promise<unknown>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    logger.error({ err, ...what }, "could not queue a webhook event");
  }
}

/**
 * run.completed / run.failed for a finished plain run (not a comparison's arm run, not a
 * cancelled run). `onlyOnce` (a replayed "run finished"): nothing when the run's event was queued.
 */
export async function emitRunFinished(runId: string, { onlyOnce = false }: { onlyOnce?: boolean } = {}): Promise<void> {
  await safely({ runId }, async () => {
    const run = await db.run.findFirst({
      where: { id: runId },
      select: {
        id: true,
        number: true,
        metadata: true,
        workspaceId: true,
        suiteId: true,
        status: true,
        comparisonId: true,
        triggeredBy: true,
        totalCases: true,
        passedCases: true,
        failedCases: true,
        errorCases: true,
        skippedCases: true,
        errorMessage: true,
        startedAt: true,
        completedAt: true,
        suite: { select: { name: true } },
      },
    });
    if (!run || run.comparisonId || (run.status !== "completed" && run.status !== "failed")) return;
    const event: WebhookEvent = run.status === "completed" ? "run.completed" : "run.failed";
    if (onlyOnce && (await runEventQueued(run.workspaceId, event, run.id))) return;
    const rate = passRate(run.passedCases, run.totalCases, run.skippedCases);
    const suite = slackEscape(run.suite.name);
    const text =
      run.status === "completed"
        ? `Assay: run #${run.number} of suite “${suite}” completed: ${run.passedCases} of ${run.totalCases - run.skippedCases} cases passed (${pct(rate)}).`
        : `Assay: run #${run.number} of suite “${suite}” failed: ${slackEscape(run.errorMessage ?? "see the run for details")}.`;
    await enqueueEvent(
      run.workspaceId,
      event,
      deliveryBody(event, text, {
        run: {
          id: run.id,
          number: run.number,
          metadata: run.metadata,
          suite_id: run.suiteId,
          suite_name: run.suite.name,
          status: run.status,
          triggered_by: run.triggeredBy,
          total_cases: run.totalCases,
          passed: run.passedCases,
          failed: run.failedCases,
          errors: run.errorCases,
          skipped: run.skippedCases,
          pass_rate: rate,
          error_message: run.errorMessage,
          started_at: run.startedAt?.toISOString() ?? null,
          completed_at: run.completedAt?.toISOString() ?? null,
        },
      }),
    );
  });
}

/** alert.raised, with the alert as the API returns it. */
export async function emitAlertRaised(workspaceId: string, alert: AlertDto): Promise<void> {
  await safely({ alertId: alert.id }, async () => {
    const flipped = alert.flipped_cases.length;
    // The explanation says whether the drop follows case edits rather than the agent.
    const text =
      `Assay: regression in suite “${slackEscape(alert.suite_name)}”, run #${alert.run_number}: pass rate ${pct(alert.previous_pass_rate)} → ${pct(alert.pass_rate)} ` +
      `(−${alert.drop_points.toFixed(1)} points)` +
      (flipped ? `, ${flipped} ${flipped === 1 ? "case" : "cases"} went from passed to failed or error.` : ".") +
      (alert.explanation ? ` ${slackEscape(alert.explanation)}` : "");
    await enqueueEvent(workspaceId, "alert.raised", deliveryBody("alert.raised", text, { alert }));
  });
}

/** comparison.completed when a comparison ends `completed` (not cancelled or failed). */
export async function emitComparisonFinished(comparisonId: string, status: string): Promise<void> {
  if (status !== "completed") return;
  await safely({ comparisonId }, async () => {
    const c = await db.comparison.findFirst({
      where: { id: comparisonId },
      select: {
        id: true,
        workspaceId: true,
        suiteId: true,
        name: true,
        status: true,
        completedAt: true,
        suite: { select: { name: true } },
      },
    });
    if (!c) return;
    const text = `Assay: comparison “${slackEscape(c.name)}” of suite “${slackEscape(c.suite.name)}” completed.`;
    await enqueueEvent(
      c.workspaceId,
      "comparison.completed",
      deliveryBody("comparison.completed", text, {
        comparison: {
          id: c.id,
          suite_id: c.suiteId,
          suite_name: c.suite.name,
          name: c.name,
          status: c.status,
          completed_at: c.completedAt?.toISOString() ?? null,
        },
      }),
    );
  });
}
