import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { runningBoss } from "@/lib/jobs/boss";
import { runJobsOnce, startJobs, stopJobs } from "@/lib/jobs/runner";
import { createWebhook, sendTestEvent } from "@/lib/webhooks/service";
import { sendDeliveryJob, WEBHOOK_DELIVERY_JOB } from "@/lib/webhooks/wakeup";
import { RUN_FINISHED_JOB } from "@/lib/runs/run-finished";
import { runWithOutcomes } from "../alerts/helpers";
import { makeWorkspace } from "../helpers/factories";
import { makeSuiteWithCases } from "../runs/helpers";
import { loopbackFetch, startReceiver } from "../webhooks/helpers";

// The job library as a process that only sends jobs starts it; each test then runs the queued
// jobs by hand (runJobsOnce), so nothing depends on a worker's poll.
const SECRET = "whsec-test-0123456789abcdef";
const MINUTE = 60_000;
let startMs = 0;
beforeAll(async () => {
  const t = performance.now();
  await startJobs({ work: false, webhookFetch: loopbackFetch });
  startMs = performance.now() - t;
});
afterAll(() => stopJobs());

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
  for (const name of [WEBHOOK_DELIVERY_JOB, "webhook-sweep", "scheduled-runs", "nightly-cleanup", RUN_FINISHED_JOB])
    await runningBoss()!.deleteAllJobs(name);
  await db.webhookDelivery.deleteMany();
  await db.suite.updateMany({ data: { isEnabled: false } });
});

const boss = () => runningBoss()!;
const deliveryOf = (id: string) => db.webhookDelivery.findUniqueOrThrow({ where: { id } });

async function queuedTestEvent(script?: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(script);
  closers.push(r.close);
  const { ctx } = await makeWorkspace("owner");
  const hook = await createWebhook(ctx, { url: r.url, secret: SECRET, events: ["run.completed"] });
  const queued = await sendTestEvent(ctx, hook.id);
  return { r, queued };
}

async function dbNow(): Promise<Date> {
  const [row] = await db.$queryRaw<{ now: Date }[]>`SELECT now() AS now`;
  return row!.now;
}

describe("the job library", () => {
  it("starts on a cloned database in well under a second", () => {
    console.info(`job library start: ${startMs.toFixed(0)} ms`);
    // The schema comes with the template database; starting only connects and reads the queues.
    expect(startMs).toBeLessThan(1_000);
  });
});

describe("webhook deliveries as jobs", () => {
  it("a queued delivery is a job: running it sends the signed delivery", async () => {
    const { r, queued } = await queuedTestEvent();
    const jobs = await boss().findJobs<{ deliveryId: string }>(WEBHOOK_DELIVERY_JOB, { queued: true });
    expect(jobs.map((j) => j.data.deliveryId)).toEqual([queued.id]);
    // One job waits per delivery, whoever else schedules it.
    expect(await sendDeliveryJob(queued.id)).toBeNull();

    expect(await runJobsOnce(WEBHOOK_DELIVERY_JOB)).toBe(1);
    expect(r.received).toHaveLength(1);
    expect(r.received[0]!.headers["x-assay-signature"]).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(await deliveryOf(queued.id)).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(await runJobsOnce(WEBHOOK_DELIVERY_JOB)).toBe(0);
  });

  it("a failed attempt sends the next attempt's job to start at the row's due time (1 min, then × 3)", async () => {
    const { r, queued } = await queuedTestEvent(() => ({ status: 500 }));
    const before = Date.now();
    expect(await runJobsOnce(WEBHOOK_DELIVERY_JOB)).toBe(1);
    const row = await deliveryOf(queued.id);
    expect(row).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500 });
    expect(row.nextAttemptAt.getTime() - before).toBeGreaterThanOrEqual(MINUTE);
    expect(row.nextAttemptAt.getTime() - before).toBeLessThan(MINUTE + 10_000);

    const next = await boss().findJobs<{ deliveryId: string }>(WEBHOOK_DELIVERY_JOB, { queued: true });
    expect(next).toHaveLength(1);
    expect(next[0]!.data.deliveryId).toBe(queued.id);
    expect(next[0]!.startAfter.getTime()).toBe(row.nextAttemptAt.getTime());
    // Not due: nothing runs now, and the receiver heard one attempt.
    expect(await runJobsOnce(WEBHOOK_DELIVERY_JOB)).toBe(0);
    expect(r.received).toHaveLength(1);
  });

  it("the sweep sends a row whose job never came, and takes over a delivery whose worker died mid-attempt", async () => {
    const lost = await queuedTestEvent();
    const taken = await queuedTestEvent();
    // Neither job exists any more: one as if queued by a process without the library, one as if
    // its worker died holding the lease (the attempt it made still counts).
    await boss().deleteAllJobs(WEBHOOK_DELIVERY_JOB);
    await db.webhookDelivery.update({
      where: { id: taken.queued.id },
      data: { status: "delivering", attempts: 1, leaseOwner: "dead-worker", leaseExpiresAt: new Date(Date.now() - 1_000) },
    });

    await boss().send("webhook-sweep", {});
    expect(await runJobsOnce("webhook-sweep")).toBe(1);
    expect(await deliveryOf(lost.queued.id)).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(await deliveryOf(taken.queued.id)).toMatchObject({ status: "succeeded", attempts: 2, leaseOwner: null });
    expect(lost.r.received).toHaveLength(1);
    expect(taken.r.received).toHaveLength(1);
  });
});

describe("cron jobs", () => {
  it("scheduled-runs starts a due suite's run once, however many of its jobs run", async () => {
    const { ctx } = await makeWorkspace("editor");
    const { suite } = await makeSuiteWithCases(ctx, 1);
    const now = await dbNow();
    const hhmm = `${String(now.getUTCHours()).padStart(2, "0")}:${String(now.getUTCMinutes()).padStart(2, "0")}`;
    await db.suite.update({
      where: { id: suite.id },
      data: { scheduleType: "daily", scheduleTime: hhmm, createdAt: new Date(now.getTime() - 2 * 24 * 60 * MINUTE) },
    });

    // Two processes' catch-up jobs at start-up, and the minute's cron job.
    for (let i = 0; i < 3; i++) await boss().send("scheduled-runs", {});
    expect(await runJobsOnce("scheduled-runs")).toBe(3);
    expect(await db.run.count({ where: { suiteId: suite.id, triggeredBy: "schedule" } })).toBe(1);
  });

  it("nightly-cleanup runs the cleanup once for its slot, however many of its jobs run", async () => {
    const now = await dbNow();
    const slot = `${String(now.getUTCHours()).padStart(2, "0")}:${String(now.getUTCMinutes()).padStart(2, "0")}`;
    await db.instanceSetting.upsert({
      where: { key: "test_suites.retention_cleanup_time" },
      create: { key: "test_suites.retention_cleanup_time", value: slot },
      update: { value: slot },
    });
    for (let i = 0; i < 3; i++) await boss().send("nightly-cleanup", {});
    expect(await runJobsOnce("nightly-cleanup")).toBe(3);
    const records = await db.cleanupRecord.findMany({ where: { trigger: "schedule" } });
    expect(records).toHaveLength(1);
    expect(records[0]!.completedAt).not.toBeNull();
  });
});

describe("run finished, durably", () => {
  const state = globalThis as unknown as { assayRunFinished?: unknown };

  it("the replay job is gone once the run's subscribers ran in this process", async () => {
    const { ctx } = await makeWorkspace("owner");
    const { suite } = await makeSuiteWithCases(ctx, 1);
    const run = await runWithOutcomes(ctx, suite.id);
    expect(run.status).toBe("completed");
    expect(await boss().findJobs(RUN_FINISHED_JOB)).toEqual([]);
  });

  it("a process that dies before the follow-ups leaves a job that replays them, once", async () => {
    const { ctx } = await makeWorkspace("owner");
    await createWebhook(ctx, { url: "http://127.0.0.1:9/x", secret: SECRET, events: ["run.completed", "alert.raised"] });
    const { suite } = await makeSuiteWithCases(ctx, 2);
    await runWithOutcomes(ctx, suite.id);
    const queuedBefore = await db.webhookDelivery.count();

    // This process finishes the bad run and then hangs before any follow-up (as good as dead).
    const saved = state.assayRunFinished;
    let release: () => void = () => undefined;
    state.assayRunFinished = {
      finished: new Map([["dies", { failure: "unused", handle: () => new Promise<void>((r) => (release = r)) }]]),
      cannotProceed: new Map(),
    };
    let bad: Promise<unknown>;
    try {
      bad = runWithOutcomes(ctx, suite.id, { "case 0": "failed" });
      await expect.poll(async () => (await boss().findJobs(RUN_FINISHED_JOB, { queued: true })).length).toBe(1);
    } finally {
      state.assayRunFinished = saved;
    }
    const [job] = await boss().findJobs<{ runId: string }>(RUN_FINISHED_JOB, { queued: true });
    const badRun = await db.run.findUniqueOrThrow({ where: { id: job!.data.runId } });
    expect(badRun.status).toBe("completed");
    expect(await db.regressionAlert.count({ where: { runId: badRun.id } })).toBe(0);
    expect(await db.webhookDelivery.count()).toBe(queuedBefore);
    // Not before its two minutes: the publishing process may still be at it.
    expect(await runJobsOnce(RUN_FINISHED_JOB)).toBe(0);

    // Another process, two minutes later: the follow-ups happen.
    expect(await runJobsOnce(RUN_FINISHED_JOB, { includeDeferred: true })).toBe(1);
    const events = async () =>
      (await db.webhookDelivery.findMany({ where: { createdAt: { gte: badRun.createdAt } }, select: { event: true } }))
        .map((d) => d.event)
        .sort();
    expect(await events()).toEqual(["alert.raised", "run.completed"]);
    expect(await db.regressionAlert.count({ where: { runId: badRun.id } })).toBe(1);

    // A second replay (or the hung process waking up) adds nothing.
    await boss().send(RUN_FINISHED_JOB, job!.data);
    expect(await runJobsOnce(RUN_FINISHED_JOB)).toBe(1);
    expect(await events()).toEqual(["alert.raised", "run.completed"]);
    expect(await db.regressionAlert.count({ where: { runId: badRun.id } })).toBe(1);
    release();
    await bad!;
  });
});
