import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { mostRecentDueTime, startDueScheduledRuns, type Schedule } from "@/lib/runs/scheduler";
import { makeWorkspace } from "../helpers/factories";
import { makeSuiteWithCases } from "./helpers";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const utc = (s: string) => new Date(`${s}Z`);
const due = (schedule: Partial<Schedule> & Pick<Schedule, "type">, now: string) =>
  mostRecentDueTime({ time: null, dayOfWeek: null, ...schedule }, utc(now))?.toISOString() ?? null;

describe("mostRecentDueTime (UTC)", () => {
  it("hourly: the minutes of schedule_time, on the hour when null, across the day boundary", () => {
    expect(due({ type: "hourly", time: "07:30" }, "2026-03-10T10:15:00")).toBe("2026-03-10T09:30:00.000Z");
    expect(due({ type: "hourly", time: "07:30" }, "2026-03-10T10:30:00")).toBe("2026-03-10T10:30:00.000Z");
    expect(due({ type: "hourly", time: null }, "2026-03-10T10:15:00")).toBe("2026-03-10T10:00:00.000Z");
    expect(due({ type: "hourly", time: "00:00" }, "2026-03-10T10:00:00")).toBe("2026-03-10T10:00:00.000Z");
    expect(due({ type: "hourly", time: "12:45" }, "2026-01-01T00:10:00")).toBe("2025-12-31T23:45:00.000Z");
  });

  it("daily: today's time once passed, else yesterday's (across month and year)", () => {
    expect(due({ type: "daily", time: "09:00" }, "2026-03-10T09:00:00")).toBe("2026-03-10T09:00:00.000Z");
    expect(due({ type: "daily", time: "09:00" }, "2026-03-10T08:59:59")).toBe("2026-03-09T09:00:00.000Z");
    expect(due({ type: "daily", time: "23:59" }, "2026-03-10T23:59:30")).toBe("2026-03-10T23:59:00.000Z");
    expect(due({ type: "daily", time: "06:00" }, "2026-01-01T05:00:00")).toBe("2025-12-31T06:00:00.000Z");
    expect(due({ type: "daily", time: "00:00" }, "2026-03-01T00:00:00")).toBe("2026-03-01T00:00:00.000Z");
  });

  it("weekly: the latest matching weekday (0 = Sunday), across the week boundary", () => {
    // 2026-01-05 is a Monday.
    expect(due({ type: "weekly", time: "22:00", dayOfWeek: 6 }, "2026-01-05T08:00:00")).toBe("2026-01-03T22:00:00.000Z");
    expect(due({ type: "weekly", time: "23:00", dayOfWeek: 0 }, "2026-01-05T08:00:00")).toBe("2026-01-04T23:00:00.000Z");
    expect(due({ type: "weekly", time: "08:00", dayOfWeek: 1 }, "2026-01-05T08:00:00")).toBe("2026-01-05T08:00:00.000Z");
    // Later today on the scheduled weekday → a week ago.
    expect(due({ type: "weekly", time: "09:00", dayOfWeek: 1 }, "2026-01-05T08:00:00")).toBe("2025-12-29T09:00:00.000Z");
    // Sunday night for a Saturday schedule, and Saturday night for a Sunday one.
    expect(due({ type: "weekly", time: "10:00", dayOfWeek: 6 }, "2026-01-04T23:00:00")).toBe("2026-01-03T10:00:00.000Z");
    expect(due({ type: "weekly", time: "10:00", dayOfWeek: 0 }, "2026-01-03T23:00:00")).toBe("2025-12-28T10:00:00.000Z");
  });

  it("has no due time for manual or incomplete schedules", () => {
    expect(due({ type: "manual", time: "09:00" }, "2026-03-10T10:00:00")).toBeNull();
    expect(due({ type: "daily", time: null }, "2026-03-10T10:00:00")).toBeNull();
    expect(due({ type: "weekly", time: "09:00", dayOfWeek: null }, "2026-03-10T10:00:00")).toBeNull();
    expect(due({ type: "weekly", time: "09:00", dayOfWeek: 7 }, "2026-03-10T10:00:00")).toBeNull();
  });
});

async function dbNow(): Promise<Date> {
  const [row] = await db.$queryRaw<{ now: Date }[]>`SELECT now() AS now`;
  return row!.now;
}

const hhmm = (d: Date) => d.toISOString().slice(11, 16);

/** A suite with active cases, scheduled daily one hour before the database's now, created `ageDays` ago. */
async function dailySuite(opts: { cases?: number; ageDays?: number } = {}) {
  const { ctx } = await makeWorkspace("editor");
  const now = await dbNow();
  const { suite } = await makeSuiteWithCases(ctx, opts.cases ?? 2);
  await db.suite.update({
    where: { id: suite.id },
    data: {
      scheduleType: "daily",
      scheduleTime: hhmm(new Date(now.getTime() - HOUR)),
      createdAt: new Date(now.getTime() - (opts.ageDays ?? 2) * DAY),
    },
  });
  return { ctx, suite, now };
}

const scheduledRuns = (suiteId: string) =>
  db.run.findMany({
    where: { suiteId, triggeredBy: "schedule" },
    orderBy: { createdAt: "asc" },
    select: { id: true, status: true, triggeredByUserId: true, totalCases: true },
  });
const complete = (suiteId: string) => db.run.updateMany({ where: { suiteId }, data: { status: "completed", completedAt: new Date() } });

// The scheduler looks at every suite of the database: keep tests independent.
afterEach(async () => {
  await db.suite.updateMany({ data: { isEnabled: false } });
});

describe("startDueScheduledRuns", () => {
  it("starts exactly one run per due time, even when called concurrently, and not again until the next one", async () => {
    const { suite, now } = await dailySuite({ ageDays: 10 });
    const results = await Promise.all([startDueScheduledRuns(now), startDueScheduledRuns(now), startDueScheduledRuns(now)]);
    const runs = await scheduledRuns(suite.id);
    // Ten missed days give a single catch-up run.
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: "pending", triggeredByUserId: null, totalCases: 2 });
    expect(results.flatMap((r) => r.started)).toEqual([runs[0]!.id]);

    await complete(suite.id);
    expect((await startDueScheduledRuns(now)).started).toEqual([]);
    expect((await startDueScheduledRuns(new Date(now.getTime() + 12 * HOUR))).started).toEqual([]);
    expect(await scheduledRuns(suite.id)).toHaveLength(1);

    const next = await startDueScheduledRuns(new Date(now.getTime() + DAY));
    expect(next.started).toHaveLength(1);
    expect(await scheduledRuns(suite.id)).toHaveLength(2);
  });

  it("uses the database clock when no time is given", async () => {
    const { suite } = await dailySuite();
    const { started } = await startDueScheduledRuns();
    expect(started).toHaveLength(1);
    expect((await scheduledRuns(suite.id)).map((r) => r.id)).toEqual(started);
    expect((await startDueScheduledRuns()).started).toEqual([]);
  });

  it("starts hourly and weekly suites when due and waits for a suite created after the due time", async () => {
    const { ctx } = await makeWorkspace("editor");
    const now = await dbNow();
    const hourly = (await makeSuiteWithCases(ctx, 1)).suite;
    const weekly = (await makeSuiteWithCases(ctx, 1)).suite;
    const fresh = (await makeSuiteWithCases(ctx, 1)).suite;
    const lastHour = new Date(now.getTime() - HOUR);
    await db.suite.update({ where: { id: hourly.id }, data: { scheduleType: "hourly", scheduleTime: null, createdAt: lastHour } });
    await db.suite.update({
      where: { id: weekly.id },
      data: {
        scheduleType: "weekly",
        scheduleTime: hhmm(lastHour),
        scheduleDayOfWeek: lastHour.getUTCDay(),
        createdAt: new Date(now.getTime() - 8 * DAY),
      },
    });
    // Created after its most recent due time: first run at the next one.
    await db.suite.update({
      where: { id: fresh.id },
      data: { scheduleType: "daily", scheduleTime: hhmm(lastHour), createdAt: new Date(now.getTime() - 30 * 60_000) },
    });

    await startDueScheduledRuns(now);
    expect(await scheduledRuns(hourly.id)).toHaveLength(1);
    expect(await scheduledRuns(weekly.id)).toHaveLength(1);
    expect(await scheduledRuns(fresh.id)).toHaveLength(0);
    await complete(hourly.id);
    await complete(weekly.id);

    const later = new Date(now.getTime() + DAY);
    await startDueScheduledRuns(later);
    expect(await scheduledRuns(hourly.id)).toHaveLength(2);
    expect(await scheduledRuns(weekly.id)).toHaveLength(1);
    expect(await scheduledRuns(fresh.id)).toHaveLength(1);
  });

  it("never starts disabled, deleted or manual suites", async () => {
    const disabled = await dailySuite();
    const deleted = await dailySuite();
    const manual = await dailySuite();
    await db.suite.update({ where: { id: disabled.suite.id }, data: { isEnabled: false } });
    await db.suite.update({ where: { id: deleted.suite.id }, data: { deletedAt: new Date() } });
    await db.suite.update({ where: { id: manual.suite.id }, data: { scheduleType: "manual" } });
    for (const offset of [0, DAY, 7 * DAY]) {
      expect((await startDueScheduledRuns(new Date(disabled.now.getTime() + offset))).started).toEqual([]);
    }
    expect(await db.run.count({ where: { suiteId: { in: [disabled.suite.id, deleted.suite.id, manual.suite.id] } } })).toBe(0);
  });

  it("skips while the previous scheduled run is still active, then catches up once", async () => {
    const { ctx, suite, now } = await dailySuite();
    await startDueScheduledRuns(now);
    const [first] = await scheduledRuns(suite.id);
    await db.run.update({ where: { id: first!.id }, data: { status: "running" } });

    const tomorrow = new Date(now.getTime() + DAY);
    expect((await startDueScheduledRuns(tomorrow)).started).toEqual([]);
    await db.run.update({ where: { id: first!.id }, data: { status: "pending" } });
    expect((await startDueScheduledRuns(tomorrow)).started).toEqual([]);
    expect(await scheduledRuns(suite.id)).toHaveLength(1);

    // A manual run in progress does not hold the schedule back.
    await complete(suite.id);
    await db.run.create({
      data: { workspaceId: ctx.workspaceId, suiteId: suite.id, triggeredBy: "manual", status: "running", agentSnapshot: {} },
    });
    expect((await startDueScheduledRuns(tomorrow)).started).toHaveLength(1);
    expect((await startDueScheduledRuns(tomorrow)).started).toEqual([]);
    expect(await scheduledRuns(suite.id)).toHaveLength(2);
  });

  it("logs and skips a suite whose run cannot start without blocking the others", async () => {
    const broken = await dailySuite({ cases: 0 });
    const healthy = await dailySuite();
    const { started } = await startDueScheduledRuns(healthy.now);
    expect(started).toHaveLength(1);
    expect((await scheduledRuns(healthy.suite.id)).map((r) => r.id)).toEqual(started);
    expect(await scheduledRuns(broken.suite.id)).toHaveLength(0);

    // The failed due time is not retried every tick; the next due time is.
    await db.testCase.create({
      data: { workspaceId: broken.ctx.workspaceId, suiteId: broken.suite.id, name: "now runnable", initialMessage: "hi" },
    });
    expect((await startDueScheduledRuns(healthy.now)).started).toEqual([]);
    await complete(healthy.suite.id);
    const next = await startDueScheduledRuns(new Date(healthy.now.getTime() + DAY));
    expect(next.started).toHaveLength(2);
    expect(await scheduledRuns(broken.suite.id)).toHaveLength(1);
  });
});
