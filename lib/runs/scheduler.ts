import "server-only";
import { db, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { DomainError, NotFoundError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { startRun } from "@/lib/runs/service";
import { finalizeRunIfDone } from "@/lib/runs/finalize";
import { withoutWorkspaceScope } from "@/lib/tenant-scope";
import { mostRecentDueTime, nextDueTime, type Schedule, type ScheduleType } from "@/lib/runs/schedule-slots";

/**
 * Starts the runs of scheduled suites, on wall-clock time in the workspace's time zone
 * (`Workspace.timeZone`, IANA, default UTC):
 * - hourly: every hour at minute MM of `schedule_time` ("HH:MM", the hour part is ignored);
 *   on the hour (minute 0) when `schedule_time` is null;
 * - daily: every day at `schedule_time`;
 * - weekly: every `schedule_day_of_week` (0 = Sunday … 6 = Saturday) at `schedule_time`.
 *
 * Time-zone and DST arithmetic is croner's (a schedule is a cron pattern evaluated in the
 * zone), never hand-written. Its DST rules: a daily/weekly time (one hour, one minute: a
 * "fixed-time" job) that falls in a spring-forward gap runs once, when the clock has jumped
 * (02:30 → 03:00 in Berlin); one that occurs twice on a fall-back night runs once, at its first
 * occurrence. Hourly schedules follow real hours: the skipped hour has no slot and the repeated
 * hour has two (one per real hour).
 *
 * A **slot** is one due time. A suite is due when its most recent slot (≤ now) is later than
 * `lastScheduledSlot` (the last slot claimed), `scheduleChangedAt` (set whenever the schedule or
 * its enabled flag changes, so enabling a schedule on an old suite never starts a catch-up run)
 * and the suite's `createdAt`. Only the most recent slot counts: slots missed while every
 * process was down give exactly one catch-up run at start-up, never a pile-up.
 *
 * Exactly one run per slot across processes: the slot is claimed with a conditional
 * `UPDATE … SET lastScheduledSlot = slot WHERE lastScheduledSlot < slot RETURNING`. Under READ
 * COMMITTED a second process's UPDATE waits on the first one's row lock, then re-checks its
 * WHERE against the committed row and matches nothing. The claim's transaction stays open while
 * the run is created (startRun commits on its own connection), so a crash before the run exists
 * releases the slot for the next tick instead of losing it.
 *
 * The job library calls startDueScheduledRuns every minute (lib/jobs/queues.ts, the
 * `scheduled-runs` cron job) and once at start-up.
 *
 * A start that fails (no active cases, variables that do not resolve, an agent without a model
 * configuration, …) is recorded as a `failed` run with its `errorMessage`, finished through
 * `finalizeRunIfDone` (which raises the run.failed event), and the slot counts as used.
 */

type SuiteRow = {
  id: string;
  workspaceId: string;
  scheduleType: ScheduleType;
  scheduleTime: string | null;
  scheduleDayOfWeek: number | null;
  timeZone: string;
  createdAt: Date;
  scheduleChangedAt: Date | null;
  lastScheduledSlot: Date | null;
  lastScheduledAt: Date | null;
};

/** Enabled, live, scheduled suites with their zone and latest schedule-triggered run (one query). */
function scheduledSuites(client: Pick<Tx, "$queryRaw"> = db, suiteId?: string): Promise<SuiteRow[]> {
  return client.$queryRaw<SuiteRow[]>`
    SELECT s."id", s."workspaceId", s."scheduleType"::text AS "scheduleType", s."scheduleTime", s."scheduleDayOfWeek",
           w."timeZone", s."createdAt", s."scheduleChangedAt", s."lastScheduledSlot", r."createdAt" AS "lastScheduledAt"
    FROM "Suite" s
    JOIN "Workspace" w ON w."id" = s."workspaceId"
    LEFT JOIN LATERAL (
      SELECT "createdAt" FROM "Run"
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

function scheduleOf(row: Pick<SuiteRow, "scheduleType" | "scheduleTime" | "scheduleDayOfWeek">): Schedule {
  return { type: row.scheduleType, time: row.scheduleTime, dayOfWeek: row.scheduleDayOfWeek };
}

/**
 * Due times at or before this instant never start a run: the suite's creation, the last schedule
 * change, the last claimed slot. Suites scheduled before slots were recorded (no
 * `lastScheduledSlot` yet) fall back to their latest scheduled run's creation time.
 */
function floorOf(row: SuiteRow): number {
  const times = [row.createdAt, row.scheduleChangedAt, row.lastScheduledSlot ?? row.lastScheduledAt];
  return Math.max(...times.map((t) => t?.getTime() ?? -Infinity));
}

function slotFor(row: SuiteRow, now: Date): Date | null {
  let slot: Date | null;
  try {
    slot = mostRecentDueTime(scheduleOf(row), now, row.timeZone);
  } catch (err) {
    // Only a zone this runtime does not know (validated on write) gets here.
    logger.error({ err, suiteId: row.id, timeZone: row.timeZone }, "schedule has no valid time zone");
    return null;
  }
  return slot && slot.getTime() > floorOf(row) ? slot : null;
}

/**
 * Starts one run for every suite whose schedule has a new slot. Safe with any number of
 * processes (see the header); one suite's failure never blocks the others. `now` defaults to
 * the database clock.
 */
export async function startDueScheduledRuns(now?: Date): Promise<{ started: string[]; failed: string[] }> {
  return withoutWorkspaceScope(async () => {
    const at = now ?? (await dbNow());
    const started: string[] = [];
    const failed: string[] = [];
    for (const row of await scheduledSuites()) {
      const slot = slotFor(row, at);
      if (!slot) continue;
      try {
        const outcome = await claimAndStart(row, slot);
        if (outcome?.status === "started") started.push(outcome.runId);
        if (outcome?.status === "failed") failed.push(outcome.runId);
      } catch (err) {
        logger.error({ err, suiteId: row.id, slot: slot.toISOString() }, "scheduled slot could not be handled; retried at the next tick");
      }
    }
    return { started, failed };
  });
}

type Outcome = { status: "started" | "failed"; runId: string } | null;

/** Claims `slot` for the suite and starts its run (or records why it could not start). Null: another process has it, or skipped. */
async function claimAndStart(row: SuiteRow, slot: Date): Promise<Outcome> {
  const result = await db.$transaction(
    async (tx): Promise<Outcome> => {
      // The claim: one process wins (row lock + re-check). A scheduled run still pending or
      // running holds the schedule back without using the slot: it starts when that run ends.
      const claimed = await tx.$queryRaw<{ id: string }[]>`
        UPDATE "Suite" s SET "lastScheduledSlot" = ${slot}
        WHERE s."id" = ${row.id}::uuid AND s."isEnabled" AND s."deletedAt" IS NULL
          AND s."scheduleType"::text = ${row.scheduleType}
          AND s."scheduleTime" IS NOT DISTINCT FROM ${row.scheduleTime}
          AND s."scheduleDayOfWeek" IS NOT DISTINCT FROM ${row.scheduleDayOfWeek}::int
          AND (s."lastScheduledSlot" IS NULL OR s."lastScheduledSlot" < ${slot})
          AND (s."scheduleChangedAt" IS NULL OR s."scheduleChangedAt" < ${slot})
          AND NOT EXISTS (
            SELECT 1 FROM "Run" r WHERE r."suiteId" = s."id" AND r."triggeredBy" = 'schedule' AND r."status" IN ('pending', 'running')
          )
        RETURNING s."id"`;
      if (claimed.length === 0) return null;
      const ctx: WorkspaceContext = { workspaceId: row.workspaceId, role: "editor", userId: null, apiKeyId: null };
      try {
        // startRun commits on its own connection while this transaction still holds the claim.
        const run = await startRun(ctx, row.id, {}, "schedule");
        logger.info({ suiteId: row.id, runId: run.id, slot: slot.toISOString() }, "scheduled run started");
        return { status: "started", runId: run.id };
      } catch (err) {
        const message = startFailureMessage(err);
        if (!(err instanceof DomainError && err.status < 500)) logger.error({ err, suiteId: row.id }, "scheduled run failed to start");
        const failed = await tx.run.create({
          data: {
            workspaceId: row.workspaceId,
            suiteId: row.id,
            triggeredBy: "schedule",
            status: "pending",
            totalCases: 0,
            agentSnapshot: {},
            errorMessage: message,
          },
          select: { id: true },
        });
        logger.warn({ suiteId: row.id, runId: failed.id, slot: slot.toISOString(), reason: message }, "scheduled run could not start");
        return { status: "failed", runId: failed.id };
      }
    },
    { maxWait: 10_000, timeout: 120_000 },
  );
  // After the commit: no case is open, so this ends the run as failed (errorMessage) and raises run.failed.
  if (result?.status === "failed") await finalizeRunIfDone(result.runId);
  return result;
}

/** What a failed start tells the team: the domain error with its field issues, never an internal message. */
function startFailureMessage(err: unknown): string {
  if (err instanceof DomainError && err.status < 500) {
    const details = err.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).filter((d) => d !== err.message);
    return `Scheduled run could not start: ${err.message}${details.length ? ` (${details.join("; ")})` : ""}`;
  }
  return "Scheduled run could not start because of an internal error (see the server log)";
}

export type ScheduleStatus = {
  /** The next slot (ISO), null for manual or disabled suites. */
  next_run_at: string | null;
  time_zone: string;
  /** The latest schedule-triggered run, with its outcome. */
  last_run: {
    id: string;
    number: number;
    status: string;
    created_at: string;
    error_message: string | null;
    pass_rate: number | null;
  } | null;
};

/** The suite page's schedule line: the next slot in the workspace's zone and the last scheduled run's outcome. */
export async function getScheduleStatus(ctx: WorkspaceContext, suiteId: string, now: Date = new Date()): Promise<ScheduleStatus> {
  const suite = await db.suite.findFirst({
    where: { id: suiteId, workspaceId: ctx.workspaceId },
    select: {
      scheduleType: true,
      scheduleTime: true,
      scheduleDayOfWeek: true,
      isEnabled: true,
      deletedAt: true,
      workspace: { select: { timeZone: true } },
    },
  });
  if (!suite) throw new NotFoundError("Suite");
  const last = await db.run.findFirst({
    where: { suiteId, workspaceId: ctx.workspaceId, triggeredBy: "schedule" },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: {
      id: true,
      number: true,
      status: true,
      createdAt: true,
      errorMessage: true,
      totalCases: true,
      passedCases: true,
      skippedCases: true,
    },
  });
  const timeZone = suite.workspace.timeZone;
  const active = suite.isEnabled && !suite.deletedAt;
  let next: Date | null = null;
  try {
    next = active ? nextDueTime(scheduleOf(suite), now, timeZone) : null;
  } catch {
    next = null;
  }
  const ran = last ? last.totalCases - last.skippedCases : 0;
  return {
    next_run_at: next?.toISOString() ?? null,
    time_zone: timeZone,
    last_run: last
      ? {
          id: last.id,
          number: last.number,
          status: last.status,
          created_at: last.createdAt.toISOString(),
          error_message: last.errorMessage,
          pass_rate: last.status === "completed" && ran > 0 ? last.passedCases / ran : null,
        }
      : null,
  };
}
