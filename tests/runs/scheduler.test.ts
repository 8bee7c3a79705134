import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { getScheduleStatus, startDueScheduledRuns } from "@/lib/runs/scheduler";
import { mostRecentDueTime, nextDueTime, type Schedule } from "@/lib/runs/schedule-slots";
import { updateSuite } from "@/lib/suites/service";
import { updateWorkspaceSettings } from "@/lib/workspaces/service";
import { normaliseTimeZone, workspaceSettingsInput } from "@/lib/workspaces/schemas";
import { makeWorkspace } from "../helpers/factories";
import { makeSuiteWithCases } from "./helpers";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const utc = (s: string) => new Date(s.endsWith("Z") ? s : `${s}Z`);
const sched = (schedule: Partial<Schedule> & Pick<Schedule, "type">): Schedule => ({ time: null, dayOfWeek: null, ...schedule });
const due = (schedule: Partial<Schedule> & Pick<Schedule, "type">, now: string, tz = "UTC") =>
  mostRecentDueTime(sched(schedule), utc(now), tz)?.toISOString() ?? null;
/** Every slot in [from, to), in order. */
function slotsBetween(schedule: Schedule, tz: string, from: string, to: string): string[] {
  const out: string[] = [];
  let at = new Date(utc(from).getTime() - 1);
  for (;;) {
    const next = nextDueTime(schedule, at, tz);
    if (!next || next >= utc(to)) return out;
    out.push(next.toISOString());
    at = next;
  }
}

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
    expect(due({ type: "daily", time: "09:00" }, "2026-03-10T08:59:59.999")).toBe("2026-03-09T09:00:00.000Z");
    expect(due({ type: "daily", time: "23:59" }, "2026-03-10T23:59:30")).toBe("2026-03-10T23:59:00.000Z");
    expect(due({ type: "daily", time: "06:00" }, "2026-01-01T05:00:00")).toBe("2025-12-31T06:00:00.000Z");
    expect(due({ type: "daily", time: "00:00" }, "2026-03-01T00:00:00")).toBe("2026-03-01T00:00:00.000Z");
  });

  it("weekly: the latest matching weekday (0 = Sunday), across the week boundary", () => {
    // 2026-01-05 is a Monday.
    expect(due({ type: "weekly", time: "22:00", dayOfWeek: 6 }, "2026-01-05T08:00:00")).toBe("2026-01-03T22:00:00.000Z");
    expect(due({ type: "weekly", time: "23:00", dayOfWeek: 0 }, "2026-01-05T08:00:00")).toBe("2026-01-04T23:00:00.000Z");
    expect(due({ type: "weekly", time: "08:00", dayOfWeek: 1 }, "2026-01-05T08:00:00")).toBe("2026-01-05T08:00:00.000Z");
    expect(due({ type: "weekly", time: "09:00", dayOfWeek: 1 }, "2026-01-05T08:00:00")).toBe("2025-12-29T09:00:00.000Z");
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

describe("schedules in a workspace time zone, across DST changes", () => {
  it("Europe/Berlin: wall-clock times, the offset changing with DST", () => {
    // Winter: UTC+1; summer: UTC+2.
    expect(due({ type: "daily", time: "09:00" }, "2026-01-15T12:00:00", "Europe/Berlin")).toBe("2026-01-15T08:00:00.000Z");
    expect(due({ type: "daily", time: "09:00" }, "2026-07-15T12:00:00", "Europe/Berlin")).toBe("2026-07-15T07:00:00.000Z");
    // Weekly by the local weekday: Monday 00:30 in Berlin is Sunday 23:30 UTC in winter.
    expect(due({ type: "weekly", time: "00:30", dayOfWeek: 1 }, "2026-01-06T12:00:00", "Europe/Berlin")).toBe("2026-01-04T23:30:00.000Z");
  });

  it("a daily 02:30 on the spring-forward day (Berlin, 2026-03-29) runs once, when the clock has jumped", () => {
    const slots = slotsBetween(sched({ type: "daily", time: "02:30" }), "Europe/Berlin", "2026-03-27T00:00:00", "2026-03-31T00:00:00");
    expect(slots).toEqual([
      "2026-03-27T01:30:00.000Z", // 02:30 CET
      "2026-03-28T01:30:00.000Z",
      "2026-03-29T01:00:00.000Z", // 02:30 does not exist: 03:00 CEST
      "2026-03-30T00:30:00.000Z", // 02:30 CEST
    ]);
    // A weekly Sunday 02:30 too.
    expect(
      slotsBetween(sched({ type: "weekly", time: "02:30", dayOfWeek: 0 }), "Europe/Berlin", "2026-03-22T12:00:00", "2026-04-06T00:00:00"),
    ).toEqual(["2026-03-29T01:00:00.000Z", "2026-04-05T00:30:00.000Z"]);
  });

  it("a daily 02:30 on the fall-back day (Berlin, 2026-10-25) runs once, at the first 02:30", () => {
    const slots = slotsBetween(sched({ type: "daily", time: "02:30" }), "Europe/Berlin", "2026-10-24T00:00:00", "2026-10-27T00:00:00");
    expect(slots).toEqual(["2026-10-24T00:30:00.000Z", "2026-10-25T00:30:00.000Z", "2026-10-26T01:30:00.000Z"]);
  });

  it("America/New_York: a 01:30 on fall-back (2026-11-01) runs once; a 02:30 on spring-forward (2026-03-08) runs once", () => {
    expect(slotsBetween(sched({ type: "daily", time: "01:30" }), "America/New_York", "2026-10-31T00:00:00", "2026-11-03T00:00:00")).toEqual(
      [
        "2026-10-31T05:30:00.000Z", // EDT
        "2026-11-01T05:30:00.000Z", // the first 01:30 (EDT); the repeated one (06:30Z, EST) is not a second slot
        "2026-11-02T06:30:00.000Z", // EST
      ],
    );
    expect(slotsBetween(sched({ type: "daily", time: "02:30" }), "America/New_York", "2026-03-07T00:00:00", "2026-03-10T00:00:00")).toEqual(
      [
        "2026-03-07T07:30:00.000Z",
        "2026-03-08T07:00:00.000Z", // 03:00 EDT
        "2026-03-09T06:30:00.000Z",
      ],
    );
  });

  it("hourly schedules follow real hours: 23 slots on spring-forward day, 25 on fall-back day (New York)", () => {
    const hourly = sched({ type: "hourly", time: "00:15" });
    // Local midnight to midnight: 2026-03-08 EST→EDT, 2026-11-01 EDT→EST.
    expect(slotsBetween(hourly, "America/New_York", "2026-03-08T05:00:00", "2026-03-09T04:00:00")).toHaveLength(23);
    const fallBack = slotsBetween(hourly, "America/New_York", "2026-11-01T04:00:00", "2026-11-02T05:00:00");
    expect(fallBack).toHaveLength(25);
    expect(fallBack).toContain("2026-11-01T05:15:00.000Z"); // 01:15 EDT
    expect(fallBack).toContain("2026-11-01T06:15:00.000Z"); // 01:15 EST
  });
});

async function dbNow(): Promise<Date> {
  const [row] = await db.$queryRaw<{ now: Date }[]>`SELECT now() AS now`;
  return row!.now;
}

const hhmm = (d: Date) => d.toISOString().slice(11, 16);

/** A suite with active cases, scheduled daily one hour before `now` (UTC), created `ageDays` before it. */
async function dailySuite(opts: { cases?: number; ageDays?: number; now?: Date } = {}) {
  const { ctx } = await makeWorkspace("editor");
  const now = opts.now ?? (await dbNow());
  const { suite, agent, modelConfig } = await makeSuiteWithCases(ctx, opts.cases ?? 2);
  await db.suite.update({
    where: { id: suite.id },
    data: {
      scheduleType: "daily",
      scheduleTime: hhmm(new Date(now.getTime() - HOUR)),
      createdAt: new Date(now.getTime() - (opts.ageDays ?? 2) * DAY),
    },
  });
  return { ctx, suite, agent, modelConfig, now };
}

/** A suite in a workspace of `timeZone`, created long before `createdBefore`. */
async function zonedSuite(timeZone: string, schedule: Schedule, createdBefore: Date) {
  const { ctx } = await makeWorkspace("editor");
  await db.workspace.update({ where: { id: ctx.workspaceId }, data: { timeZone } });
  const { suite } = await makeSuiteWithCases(ctx, 1);
  await db.suite.update({
    where: { id: suite.id },
    data: {
      scheduleType: schedule.type,
      scheduleTime: schedule.time,
      scheduleDayOfWeek: schedule.dayOfWeek,
      createdAt: new Date(createdBefore.getTime() - 30 * DAY),
    },
  });
  return { ctx, suite };
}

const scheduledRuns = (suiteId: string) =>
  db.run.findMany({
    where: { suiteId, triggeredBy: "schedule" },
    orderBy: { createdAt: "asc" },
    select: { id: true, status: true, triggeredByUserId: true, totalCases: true, errorMessage: true, completedAt: true },
  });
const complete = (suiteId: string) =>
  db.run.updateMany({ where: { suiteId, status: { in: ["pending", "running"] } }, data: { status: "completed", completedAt: new Date() } });

// The scheduler looks at every suite of the database: keep tests independent.
afterEach(async () => {
  await db.suite.updateMany({ data: { isEnabled: false } });
});

describe("startDueScheduledRuns", () => {
  it("starts exactly one run per slot, even when called concurrently, and not again until the next one", async () => {
    const { suite, now } = await dailySuite({ ageDays: 10 });
    const results = await Promise.all([startDueScheduledRuns(now), startDueScheduledRuns(now), startDueScheduledRuns(now)]);
    const runs = await scheduledRuns(suite.id);
    // Ten missed days give a single catch-up run.
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: "pending", triggeredByUserId: null, totalCases: 2 });
    expect(results.flatMap((r) => r.started)).toEqual([runs[0]!.id]);
    const stored = await db.suite.findUniqueOrThrow({ where: { id: suite.id }, select: { lastScheduledSlot: true } });
    expect(stored.lastScheduledSlot?.toISOString()).toBe(
      mostRecentDueTime(sched({ type: "daily", time: hhmm(new Date(now.getTime() - HOUR)) }), now)!.toISOString(),
    );

    await complete(suite.id);
    expect((await startDueScheduledRuns(now)).started).toEqual([]);
    expect((await startDueScheduledRuns(new Date(now.getTime() + 12 * HOUR))).started).toEqual([]);
    expect(await scheduledRuns(suite.id)).toHaveLength(1);

    const next = await startDueScheduledRuns(new Date(now.getTime() + DAY));
    expect(next.started).toHaveLength(1);
    expect(await scheduledRuns(suite.id)).toHaveLength(2);
  });

  it("exactly once across two processes racing the same slots", async () => {
    const now = await dbNow();
    const suites = await Promise.all(Array.from({ length: 4 }, () => dailySuite({ now, ageDays: 3 })));
    const child = spawn(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", path.join(import.meta.dirname, "scheduler-race.child.ts"), now.toISOString()],
      { cwd: path.resolve(import.meta.dirname, "../.."), env: { ...process.env, LOG_LEVEL: "silent" }, stdio: ["pipe", "pipe", "inherit"] },
    );
    try {
      const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
      expect((await lines.next()).value).toBe("ready");
      child.stdin!.write("go\n");
      const mine = await Promise.all([startDueScheduledRuns(now), startDueScheduledRuns(now), startDueScheduledRuns(now)]);
      const theirs = JSON.parse((await lines.next()).value as string) as string[];
      const started = [...mine.flatMap((r) => r.started), ...theirs];
      const runs = (await Promise.all(suites.map((s) => scheduledRuns(s.suite.id)))).flat();
      expect(runs).toHaveLength(4);
      expect(started.sort()).toEqual(runs.map((r) => r.id).sort());
    } finally {
      child.kill("SIGKILL");
    }
  }, 30_000);

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
    await db.suite.update({
      where: { id: fresh.id },
      data: { scheduleType: "daily", scheduleTime: hhmm(lastHour), createdAt: new Date(now.getTime() - 30 * MINUTE) },
    });

    await startDueScheduledRuns(now);
    expect(await scheduledRuns(hourly.id)).toHaveLength(1);
    expect(await scheduledRuns(weekly.id)).toHaveLength(1);
    expect(await scheduledRuns(fresh.id)).toHaveLength(0);
    await complete(hourly.id);
    await complete(weekly.id);

    await startDueScheduledRuns(new Date(now.getTime() + DAY));
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
});

describe("fake clock through DST nights", () => {
  /** Ticks every 10 minutes over [from, to), completing each started run; returns the runs' slots. */
  async function tickThrough(suiteId: string, from: string, to: string): Promise<string[]> {
    const slots: string[] = [];
    for (let t = utc(from).getTime(); t < utc(to).getTime(); t += 10 * MINUTE) {
      const { started } = await startDueScheduledRuns(new Date(t));
      if (started.length) {
        const s = await db.suite.findUniqueOrThrow({ where: { id: suiteId }, select: { lastScheduledSlot: true } });
        slots.push(s.lastScheduledSlot!.toISOString());
        await complete(suiteId);
      }
    }
    return slots;
  }

  it("Berlin daily 02:30 around spring forward: one run per day, the gap day's at 03:00 CEST", async () => {
    const { suite } = await zonedSuite("Europe/Berlin", sched({ type: "daily", time: "02:30" }), utc("2026-03-28T00:00:00"));
    // Opening at 00:00 UTC on the 28th: yesterday's 02:30 is the one catch-up slot.
    expect(await tickThrough(suite.id, "2026-03-28T00:00:00", "2026-03-30T03:00:00")).toEqual([
      "2026-03-27T01:30:00.000Z",
      "2026-03-28T01:30:00.000Z",
      "2026-03-29T01:00:00.000Z",
      "2026-03-30T00:30:00.000Z",
    ]);
    expect(await scheduledRuns(suite.id)).toHaveLength(4);
  }, 60_000);

  it("New York daily 01:30 around fall back: the repeated hour starts no second run", async () => {
    const { suite } = await zonedSuite("America/New_York", sched({ type: "daily", time: "01:30" }), utc("2026-10-31T12:00:00"));
    await db.suite.update({ where: { id: suite.id }, data: { lastScheduledSlot: utc("2026-10-31T05:30:00") } });
    expect(await tickThrough(suite.id, "2026-10-31T12:00:00", "2026-11-02T12:00:00")).toEqual([
      "2026-11-01T05:30:00.000Z",
      "2026-11-02T06:30:00.000Z",
    ]);
  }, 60_000);
});

describe("catch-up, schedule changes and failed starts", () => {
  it("slots missed while everything was down give exactly one run at start-up", async () => {
    const { suite, now } = await dailySuite({ ageDays: 30 });
    // The last slot handled was five days ago; four daily slots were missed since.
    await db.suite.update({ where: { id: suite.id }, data: { lastScheduledSlot: new Date(now.getTime() - HOUR - 5 * DAY) } });
    expect((await startDueScheduledRuns(now)).started).toHaveLength(1);
    await complete(suite.id);
    for (const offset of [0, MINUTE, HOUR, 12 * HOUR]) {
      expect((await startDueScheduledRuns(new Date(now.getTime() + offset))).started).toEqual([]);
    }
    expect(await scheduledRuns(suite.id)).toHaveLength(1);
  });

  it("enabling or changing a schedule on an old suite starts no catch-up run; the next slot runs", async () => {
    const { ctx, suite, now } = await dailySuite({ ageDays: 30 });
    await db.suite.update({ where: { id: suite.id }, data: { scheduleType: "manual", scheduleTime: null } });
    const owner = { ...ctx, role: "owner" as const };
    // Through the service (as the form and PATCH /api/v1/suites/{id} do): it stamps scheduleChangedAt.
    await updateSuite(owner, suite.id, { schedule_type: "daily", schedule_time: hhmm(new Date(now.getTime() - HOUR)) });
    const changed = await db.suite.findUniqueOrThrow({ where: { id: suite.id }, select: { scheduleChangedAt: true } });
    expect(changed.scheduleChangedAt).not.toBeNull();
    const at = new Date(Math.max(now.getTime(), changed.scheduleChangedAt!.getTime()) + MINUTE);
    expect((await startDueScheduledRuns(at)).started).toEqual([]);

    // Disabling and enabling again counts as a change too.
    await updateSuite(owner, suite.id, { is_enabled: false });
    await updateSuite(owner, suite.id, { is_enabled: true });
    expect((await startDueScheduledRuns(at)).started).toEqual([]);
    // An edit that leaves the schedule alone does not move it.
    const before = (await db.suite.findUniqueOrThrow({ where: { id: suite.id }, select: { scheduleChangedAt: true } })).scheduleChangedAt;
    await updateSuite(owner, suite.id, { description: "unrelated" });
    expect((await db.suite.findUniqueOrThrow({ where: { id: suite.id }, select: { scheduleChangedAt: true } })).scheduleChangedAt).toEqual(
      before,
    );

    expect((await startDueScheduledRuns(new Date(at.getTime() + DAY))).started).toHaveLength(1);
  });

  it("a start that fails is recorded as a failed scheduled run with its error_message, once per slot", async () => {
    const broken = await dailySuite({ cases: 0 });
    const healthy = await dailySuite({ now: broken.now });
    const { started, failed } = await startDueScheduledRuns(healthy.now);
    expect(started).toHaveLength(1);
    expect(failed).toHaveLength(1);
    const [run] = await scheduledRuns(broken.suite.id);
    expect(run).toMatchObject({ id: failed[0], status: "failed", totalCases: 0 });
    expect(run!.errorMessage).toMatch(/^Scheduled run could not start: No test cases match/);
    expect(run!.completedAt).not.toBeNull();

    // The slot is used: no second failed run at the next ticks; the next slot runs normally.
    await db.testCase.create({
      data: { workspaceId: broken.ctx.workspaceId, suiteId: broken.suite.id, name: "now runnable", initialMessage: "hi" },
    });
    expect(await startDueScheduledRuns(healthy.now)).toEqual({ started: [], failed: [] });
    await complete(healthy.suite.id);
    const next = await startDueScheduledRuns(new Date(healthy.now.getTime() + DAY));
    expect(next.started).toHaveLength(2);
    expect((await scheduledRuns(broken.suite.id)).map((r) => r.status)).toEqual(["failed", "pending"]);
  });

  it("a deleted model configuration fails the start with the reason", async () => {
    const { suite, modelConfig, now } = await dailySuite();
    await db.suite.update({ where: { id: suite.id }, data: { llmJudgeModelConfigId: null } });
    await db.modelConfig.delete({ where: { id: modelConfig.id } });
    const { failed } = await startDueScheduledRuns(now);
    expect(failed).toHaveLength(1);
    const [run] = await scheduledRuns(suite.id);
    expect(run!.status).toBe("failed");
    expect(run!.errorMessage).toMatch(/model/i);
  });

  it("the suite page's status: next slot in the workspace zone and the last scheduled run's outcome", async () => {
    const { ctx, suite } = await zonedSuite("Europe/Berlin", sched({ type: "daily", time: "02:30" }), utc("2026-03-28T00:00:00"));
    const viewer = { ...ctx, role: "viewer" as const };
    const status = await getScheduleStatus(viewer, suite.id, utc("2026-03-28T12:00:00"));
    expect(status).toEqual({ next_run_at: "2026-03-29T01:00:00.000Z", time_zone: "Europe/Berlin", last_run: null });
    await startDueScheduledRuns(utc("2026-03-28T12:00:00"));
    await db.run.updateMany({ where: { suiteId: suite.id }, data: { status: "completed", passedCases: 1 } });
    const after = await getScheduleStatus(viewer, suite.id, utc("2026-03-28T12:00:00"));
    expect(after.last_run).toMatchObject({ number: 1, status: "completed", pass_rate: 1, error_message: null });
  });

  it("the workspace time zone: IANA names validated with Intl, and a zone change starts no catch-up run", async () => {
    expect(normaliseTimeZone("europe/berlin")).toBe("Europe/Berlin");
    expect(normaliseTimeZone("Etc/UTC")).toBe("UTC");
    expect(normaliseTimeZone("Asia/Kolkata")).toBe("Asia/Kolkata");
    for (const bad of ["Mars/Olympus", "+01:00", "", "Europe/Berlin; DROP"]) expect(normaliseTimeZone(bad)).toBeNull();
    const parsed = workspaceSettingsInput.safeParse({ name: "x", maxTurnsCap: 10, timeZone: "Nowhere/Town" });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.path).toEqual(["timeZone"]);

    // A daily 09:00 that ran at 09:00 Berlin (08:00 UTC); at 10:00 UTC the zone becomes UTC,
    // whose 09:00 slot has passed: no run for it, the next one (tomorrow 09:00 UTC) runs.
    const { ctx, suite } = await zonedSuite("Europe/Berlin", sched({ type: "daily", time: "09:00" }), utc("2026-05-01T00:00:00"));
    await db.suite.update({ where: { id: suite.id }, data: { lastScheduledSlot: utc("2026-05-04T07:00:00") } });
    await updateWorkspaceSettings({ ...ctx, role: "admin" }, { name: "ws", maxTurnsCap: 30, timeZone: "UTC" });
    const changed = await db.suite.findUniqueOrThrow({ where: { id: suite.id }, select: { scheduleChangedAt: true } });
    // Backdate the change to the fake clock's day (the service stamps the real time).
    expect(changed.scheduleChangedAt).not.toBeNull();
    await db.suite.update({ where: { id: suite.id }, data: { scheduleChangedAt: utc("2026-05-04T10:00:00") } });
    expect((await startDueScheduledRuns(utc("2026-05-04T10:01:00"))).started).toEqual([]);
    expect((await startDueScheduledRuns(utc("2026-05-05T09:00:00"))).started).toHaveLength(1);
  });
});
