import "server-only";
import { db, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { DomainError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { startRun } from "@/lib/runs/service";

/**
 * Starts the runs of scheduled suites.
 *
 * Schedules are in UTC:
 * - hourly: every hour at minute MM of `schedule_time` ("HH:MM", the hour part is ignored);
 *   on the hour (minute 0) when `schedule_time` is null;
 * - daily: every day at `schedule_time`;
 * - weekly: every `schedule_day_of_week` (0 = Sunday … 6 = Saturday) at `schedule_time`.
 *
 * Due times are plain UTC date arithmetic (no dependency): UTC has no DST and the four
 * schedule kinds are "the latest HH:MM on a matching hour/day/weekday", which is shorter and
 * easier to test than translating them to cron expressions for a parser.
 *
 * A suite is due when its most recent due time (≤ now) is later than its last
 * schedule-triggered run's `createdAt` (or the suite's `createdAt` when it has none). Only the
 * most recent due time counts, so due times missed while the app was down give at most one
 * catch-up run. `now` defaults to the database clock, the same clock that stamps
 * `Run.createdAt`, so app/database clock skew cannot start a due time twice.
 */

export type ScheduleType = "manual" | "hourly" | "daily" | "weekly";
export type Schedule = { type: ScheduleType; time: string | null; dayOfWeek: number | null };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** First key of the two-key advisory lock (its own key space, apart from single-key locks). */
const LOCK_CLASS = 0x5c4ed;

function parseTime(time: string | null): { h: number; m: number } | null {
  const match = time ? /^(\d{2}):(\d{2})$/.exec(time) : null;
  if (!match) return null;
  const h = Number(match[1]);
  const m = Number(match[2]);
  return h < 24 && m < 60 ? { h, m } : null;
}

/** The latest due time at or before `now` (UTC), or null for manual/incomplete schedules. */
export function mostRecentDueTime(schedule: Schedule, now: Date): Date | null {
  const t = now.getTime();
  switch (schedule.type) {
    case "manual":
      return null;
    case "hourly": {
      const minute = parseTime(schedule.time)?.m ?? 0;
      const due = Math.floor(t / HOUR) * HOUR + minute * MINUTE;
      return new Date(due <= t ? due : due - HOUR);
    }
    case "daily": {
      const time = parseTime(schedule.time);
      if (!time) return null;
      const due = Math.floor(t / DAY) * DAY + time.h * HOUR + time.m * MINUTE;
      return new Date(due <= t ? due : due - DAY);
    }
    case "weekly": {
      const time = parseTime(schedule.time);
      const dow = schedule.dayOfWeek;
      if (!time || dow === null || !Number.isInteger(dow) || dow < 0 || dow > 6) return null;
      const back = (now.getUTCDay() - dow + 7) % 7;
      const due = Math.floor(t / DAY) * DAY - back * DAY + time.h * HOUR + time.m * MINUTE;
      return new Date(due <= t ? due : due - 7 * DAY);
    }
  }
}

type SuiteRow = {
  id: string;
  workspaceId: string;
  scheduleType: ScheduleType;
  scheduleTime: string | null;
  scheduleDayOfWeek: number | null;
  createdAt: Date;
  lastScheduledAt: Date | null;
  lastScheduledStatus: string | null;
};

/** Enabled, live, scheduled suites with their latest schedule-triggered run (one query). */
function scheduledSuites(client: Pick<Tx, "$queryRaw"> = db, suiteId?: string): Promise<SuiteRow[]> {
  return client.$queryRaw<SuiteRow[]>`
    SELECT s."id", s."workspaceId", s."scheduleType"::text AS "scheduleType", s."scheduleTime", s."scheduleDayOfWeek", s."createdAt",
           r."createdAt" AS "lastScheduledAt", r."status"::text AS "lastScheduledStatus"
    FROM "Suite" s
    LEFT JOIN LATERAL (
      SELECT "createdAt", "status" FROM "Run"
      WHERE "suiteId" = s."id" AND "triggeredBy" = 'schedule'
      ORDER BY "createdAt" DESC, "id" DESC LIMIT 1
    ) r ON true
    WHERE s."isEnabled" AND s."deletedAt" IS NULL AND s."scheduleType" <> 'manual'
      ${suiteId ? Prisma.sql`AND s."id" = ${suiteId}::uuid` : Prisma.empty}
    ORDER BY s."id"`;
}

async function dbNow(): Promise<Date> {
  const [row] = await db.$queryRaw<{ now: Date }[]>`SELECT now() AS now`;
  return row!.now;
}

function dueFor(row: SuiteRow, now: Date): Date | null {
  const due = mostRecentDueTime({ type: row.scheduleType, time: row.scheduleTime, dayOfWeek: row.scheduleDayOfWeek }, now);
  if (!due) return null;
  return due.getTime() > (row.lastScheduledAt ?? row.createdAt).getTime() ? due : null;
}

/**
 * Per-process memory of due times whose start failed for a reason that will not go away by
 * retrying every tick (e.g. no active cases): logged once, retried at the next due time.
 */
const state = globalThis as unknown as {
  assaySchedulerFailed?: Map<string, number>;
  assayScheduler?: { timer: NodeJS.Timeout; busy: boolean };
};
const failedDue = (state.assaySchedulerFailed ??= new Map<string, number>());

/**
 * Starts one run for every suite whose schedule is due. Safe with several processes: the
 * check and the start happen under a transaction-scoped advisory lock per suite, and the check
 * is repeated under the lock. A failing suite is logged and skipped; it never blocks others.
 */
export async function startDueScheduledRuns(now?: Date): Promise<{ started: string[] }> {
  const at = now ?? (await dbNow());
  const started: string[] = [];
  for (const row of await scheduledSuites()) {
    const due = dueFor(row, at);
    if (!due) continue;
    if (failedDue.get(row.id) === due.getTime()) continue;
    try {
      const runId = await startIfStillDue(row.id, at);
      if (runId) started.push(runId);
      failedDue.delete(row.id);
    } catch (err) {
      const permanent = err instanceof DomainError && err.status < 500;
      if (permanent) failedDue.set(row.id, due.getTime());
      logger.warn(
        { err, suiteId: row.id, workspaceId: row.workspaceId, due: due.toISOString(), retry: permanent ? "next due time" : "next tick" },
        "scheduled run could not start",
      );
    }
  }
  return { started };
}

/** Under the suite's advisory lock: re-read, re-check, start. Returns the run id or null (skipped). */
async function startIfStillDue(suiteId: string, now: Date): Promise<string | null> {
  return db.$transaction(
    async (tx) => {
      // Blocks while another process handles this suite; its run is committed before the lock is released.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_CLASS}::int, hashtext(${suiteId}::text))`;
      const [row] = await scheduledSuites(tx, suiteId);
      const due = row ? dueFor(row, now) : null;
      if (!row || !due) return null;
      if (row.lastScheduledStatus === "pending" || row.lastScheduledStatus === "running") {
        logger.info({ suiteId, due: due.toISOString() }, "scheduled run skipped: the previous scheduled run is still active");
        return null;
      }
      const ctx: WorkspaceContext = { workspaceId: row.workspaceId, role: "editor", userId: null, apiKeyId: null };
      // startRun commits on its own connection while this transaction still holds the lock.
      const run = await startRun(ctx, suiteId, {}, "schedule");
      logger.info({ suiteId, runId: run.id, due: due.toISOString() }, "scheduled run started");
      return run.id;
    },
    { maxWait: 10_000, timeout: 120_000 },
  );
}

/**
 * Checks schedules every `intervalMs` in this process (idempotent: one timer per process, kept
 * on globalThis so hot reload never adds a second). Several processes may each run it.
 */
export function startScheduler(intervalMs = 30_000): void {
  if (state.assayScheduler) return;
  const scheduler = { timer: undefined as unknown as NodeJS.Timeout, busy: false };
  const tick = async () => {
    if (scheduler.busy) return; // a slow tick never overlaps the next one
    scheduler.busy = true;
    try {
      const { started } = await startDueScheduledRuns();
      if (started.length) logger.info({ started }, "scheduler started runs");
    } catch (err) {
      logger.error({ err }, "scheduler tick failed");
    } finally {
      scheduler.busy = false;
    }
  };
  scheduler.timer = setInterval(() => void tick(), intervalMs);
  scheduler.timer.unref();
  state.assayScheduler = scheduler;
  void tick();
}

export function stopScheduler(): void {
  if (state.assayScheduler) clearInterval(state.assayScheduler.timer);
  state.assayScheduler = undefined;
}
