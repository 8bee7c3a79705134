import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { runningBoss } from "@/lib/jobs/boss";
import { startJobs, stopJobs } from "@/lib/jobs/runner";
import { createWebhook, sendTestEvent } from "@/lib/webhooks/service";
import { makeWorkspace } from "../helpers/factories";
import { loopbackFetch, startReceiver } from "../webhooks/helpers";

// The job library as a process that executes runs starts it: workers, cron schedules, catch-up.
let startMs = 0;
beforeAll(async () => {
  const t = performance.now();
  await startJobs({ work: true, pollingIntervalSeconds: 0.5, webhookFetch: loopbackFetch });
  startMs = performance.now() - t;
});
afterAll(() => stopJobs());

describe("a process that works the jobs", () => {
  it("registers the minute's cron jobs and runs the start-up catch-up at once", async () => {
    console.info(`job library start with workers: ${startMs.toFixed(0)} ms`);
    const schedules = await runningBoss()!.getSchedules();
    expect(schedules.map((s) => [s.name, s.cron]).sort()).toEqual([
      ["nightly-cleanup", "* * * * *"],
      ["scheduled-runs", "* * * * *"],
      ["webhook-sweep", "* * * * *"],
    ]);
    // The catch-up pass of the nightly cleanup ran without waiting for the next minute.
    await expect
      .poll(async () => (await runningBoss()!.findJobs("nightly-cleanup")).map((j) => j.state), { timeout: 10_000 })
      .toContain("completed");
  });

  it("sends a delivery queued in this process without anyone draining the queue", async () => {
    const r = await startReceiver();
    const { ctx } = await makeWorkspace("owner");
    const hook = await createWebhook(ctx, { url: r.url, secret: "whsec-test-0123456789abcdef", events: ["run.completed"] });
    const queued = await sendTestEvent(ctx, hook.id);
    await expect
      .poll(async () => (await db.webhookDelivery.findUniqueOrThrow({ where: { id: queued.id } })).status, { timeout: 10_000 })
      .toBe("succeeded");
    expect(r.received).toHaveLength(1);
    await r.close();
  });
});
