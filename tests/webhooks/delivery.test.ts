import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { WebhookWorker } from "@/lib/webhooks/worker";
import { createWebhook, sendTestEvent } from "@/lib/webhooks/service";
import { retryDelayMs, signatureOf, verifySignature } from "@/lib/webhooks/signing";
import type { FetchLike } from "@/lib/net/safe-fetch";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { makeWorkspace } from "../helpers/factories";
import { makeSuiteWithCases } from "../runs/helpers";
import { runWithOutcomes } from "../alerts/helpers";
import { loopbackFetch, manualClock, startReceiver } from "./helpers";

const SECRET = "whsec-test-0123456789abcdef";
const MINUTE = 60_000;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
  // One database per file: a row left queued by one test must not be sent by the next one's worker.
  await db.webhookDelivery.deleteMany();
});

async function receiver(script?: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(script);
  closers.push(r.close);
  return r;
}

async function hookTo(url: string, events = ["alert.raised", "run.completed", "run.failed", "comparison.completed"]) {
  const { ctx } = await makeWorkspace("owner");
  const hook = await createWebhook(ctx, { url, secret: SECRET, events });
  return { ctx, hook };
}

/** A test event queued for the webhook, and a manual clock standing at its first attempt. */
async function queueTestEvent(ctx: WorkspaceContext, webhookId: string) {
  const queued = await sendTestEvent(ctx, webhookId);
  return { queued, clock: manualClock(queued.next_attempt_at ? new Date(queued.next_attempt_at) : new Date()) };
}

const deliveryOf = (id: string) => db.webhookDelivery.findUniqueOrThrow({ where: { id } });

describe("signing", () => {
  it("sends the event as JSON with a timestamped HMAC-SHA256 signature the receiver can verify", async () => {
    const r = await receiver();
    const { ctx, hook } = await hookTo(r.url);
    const { queued, clock } = await queueTestEvent(ctx, hook.id);
    const worker = new WebhookWorker({ now: clock.now, fetch: loopbackFetch });
    expect(await worker.tick()).toBe(1);

    expect(r.received).toHaveLength(1);
    const { headers, body } = r.received[0]!;
    expect(headers["content-type"]).toBe("application/json");
    expect(headers["x-assay-event"]).toBe("webhook.test");
    expect(headers["x-assay-delivery"]).toBe(queued.id);
    const timestamp = headers["x-assay-timestamp"] as string;
    expect(Number(timestamp)).toBe(Math.floor(clock.now().getTime() / 1000));
    // The receiver's own check: HMAC-SHA256 over "<timestamp>.<raw body>" with the shared secret.
    const { createHmac } = await import("node:crypto");
    const expected = "v1=" + createHmac("sha256", SECRET).update(`${timestamp}.${body}`).digest("hex");
    expect(headers["x-assay-signature"]).toBe(expected);
    expect(verifySignature(SECRET, { timestamp, signature: expected }, body, { now: clock.now() })).toBe(true);
    expect(verifySignature("another-secret-0123456", { timestamp, signature: expected }, body, { now: clock.now() })).toBe(false);
    expect(verifySignature(SECRET, { timestamp, signature: expected }, body + " ", { now: clock.now() })).toBe(false);
    // An old timestamp is refused (replay), whatever the signature.
    const late = new Date(clock.now().getTime() + 10 * MINUTE);
    expect(verifySignature(SECRET, { timestamp, signature: expected }, body, { now: late })).toBe(false);

    const json = JSON.parse(body);
    expect(json).toMatchObject({ event: "webhook.test", text: expect.stringContaining("test event"), webhook: { id: hook.id } });
    expect(Date.parse(json.created_at)).not.toBeNaN();
    const row = await deliveryOf(queued.id);
    expect(row).toMatchObject({ status: "succeeded", attempts: 1, lastStatusCode: 200, lastResponse: "ok", lastError: null });
    expect(row.deliveredAt).not.toBeNull();
    expect(signatureOf(SECRET, timestamp, body)).toBe(expected);
  });
});

describe("retries", () => {
  it("retries a failed delivery after the backoff (500, then 200) and logs every attempt", async () => {
    const r = await receiver((n) => (n === 1 ? { status: 500, body: "x".repeat(5000) } : { status: 204 }));
    const { ctx, hook } = await hookTo(r.url);
    const { queued, clock } = await queueTestEvent(ctx, hook.id);
    const worker = new WebhookWorker({ now: clock.now, fetch: loopbackFetch });

    expect(await worker.tick()).toBe(1);
    let row = await deliveryOf(queued.id);
    expect(row).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500, lastError: "HTTP 500" });
    expect(row.lastResponse).toHaveLength(1024); // a 1 KB excerpt, not the whole body
    expect(row.nextAttemptAt.getTime()).toBe(clock.now().getTime() + MINUTE);

    // Not due yet: nothing is claimed.
    clock.advance(MINUTE - 1);
    expect(await worker.tick()).toBe(0);
    clock.advance(1);
    expect(await worker.tick()).toBe(1);
    row = await deliveryOf(queued.id);
    expect(row).toMatchObject({ status: "succeeded", attempts: 2, lastStatusCode: 204, lastError: null });
    expect(r.received).toHaveLength(2);
    // Each attempt is signed afresh (its own timestamp), and logged.
    expect(r.received[0]!.headers["x-assay-timestamp"]).not.toBe(r.received[1]!.headers["x-assay-timestamp"]);
    const log = row.attemptLog as { status_code: number; error: string | null; duration_ms: number; response_excerpt: string }[];
    expect(log.map((a) => [a.status_code, a.error])).toEqual([
      [500, "HTTP 500"],
      [204, null],
    ]);
    expect(log.every((a) => a.duration_ms >= 0)).toBe(true);
  });

  it("follows the schedule 1, 3, 9, 27, 81, 243 min, 6 h and gives up after 8 attempts", async () => {
    const r = await receiver(() => ({ status: 503, body: "down" }));
    const { ctx, hook } = await hookTo(r.url);
    const { queued, clock } = await queueTestEvent(ctx, hook.id);
    const worker = new WebhookWorker({ now: clock.now, fetch: loopbackFetch });
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 8; attempt++) {
      expect(await worker.tick(), `attempt ${attempt}`).toBe(1);
      const row = await deliveryOf(queued.id);
      expect(row.attempts).toBe(attempt);
      if (attempt < 8) {
        expect(row.status).toBe("pending");
        waits.push((row.nextAttemptAt.getTime() - clock.now().getTime()) / MINUTE);
        clock.set(row.nextAttemptAt);
      } else {
        expect(row.status).toBe("failed");
      }
    }
    expect(waits).toEqual([1, 3, 9, 27, 81, 243, 360]);
    expect(waits.map((_, i) => retryDelayMs(i + 1) / MINUTE)).toEqual(waits);
    clock.advance(24 * 60 * MINUTE);
    expect(await worker.tick()).toBe(0);
    expect(r.received).toHaveLength(8);
    expect((await deliveryOf(queued.id)).attemptLog).toHaveLength(8);
  });

  it("takes a shorter backoff base for tests and a refused address counts as a failed attempt", async () => {
    const { ctx, hook } = await hookTo("http://127.0.0.1:9/never");
    // Point the stored URL at the metadata address behind the API's back: the guard refuses it at connect time.
    await db.webhook.update({ where: { id: hook.id }, data: { url: "http://169.254.169.254/latest/meta-data" } });
    const { queued, clock } = await queueTestEvent(ctx, hook.id);
    const worker = new WebhookWorker({ now: clock.now, fetch: loopbackFetch, backoffBaseMs: 1000 });
    await worker.tick();
    const row = await deliveryOf(queued.id);
    expect(row).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: null });
    expect(row.lastError).toMatch(/169\.254\.169\.254.*refused/);
    expect(row.nextAttemptAt.getTime() - clock.now().getTime()).toBe(1000);
  });
});

describe("durability", () => {
  it("a delivery whose worker died mid-attempt is delivered by another worker once the lease expires", async () => {
    const r = await receiver();
    const { ctx, hook } = await hookTo(r.url);
    const { queued, clock } = await queueTestEvent(ctx, hook.id);

    // Worker A claims the row and then hangs forever (a crash, as far as the queue can tell).
    let release: () => void = () => undefined;
    const hanging: FetchLike = () =>
      new Promise((_, reject) => {
        release = () => reject(new Error("worker A came back too late"));
      });
    const a = new WebhookWorker({ owner: "worker-a", now: clock.now, fetch: hanging, leaseMs: 30_000 });
    const aTick = a.tick();
    await expect.poll(async () => (await deliveryOf(queued.id)).status).toBe("delivering");
    expect((await deliveryOf(queued.id)).leaseOwner).toBe("worker-a");

    // A restarted process (worker B): nothing to do while A's lease holds…
    const b = new WebhookWorker({ owner: "worker-b", now: clock.now, fetch: loopbackFetch, leaseMs: 30_000 });
    expect(await b.tick()).toBe(0);
    // …and the row is B's once it expired.
    clock.advance(30_001);
    expect(await b.tick()).toBe(1);
    let row = await deliveryOf(queued.id);
    expect(row).toMatchObject({ status: "succeeded", attempts: 2, lastStatusCode: 200, leaseOwner: null });
    expect(r.received).toHaveLength(1);

    // A's late outcome is dropped: it no longer holds the lease.
    release();
    await aTick;
    row = await deliveryOf(queued.id);
    expect(row.status).toBe("succeeded");
    expect(row.attemptLog).toHaveLength(1);
  });
});

describe("events", () => {
  it("queues run.completed and alert.raised for subscribed, enabled webhooks of the workspace only, with the event's object", async () => {
    const r = await receiver();
    const { ctx } = await makeWorkspace("owner");
    const all = await createWebhook(ctx, { url: r.url, secret: SECRET, events: ["run.completed", "alert.raised"] });
    const failedOnly = await createWebhook(ctx, { url: r.url, secret: SECRET, events: ["run.failed"] });
    const disabled = await createWebhook(ctx, { url: r.url, secret: SECRET, events: ["run.completed", "alert.raised"], enabled: false });
    const other = await makeWorkspace("owner");
    const foreign = await createWebhook(other.ctx, { url: r.url, secret: SECRET, events: ["run.completed", "alert.raised"] });

    const { suite } = await makeSuiteWithCases(ctx, 2);
    await runWithOutcomes(ctx, suite.id);
    const bad = await runWithOutcomes(ctx, suite.id, { "case 0": "failed" });

    const rows = await db.webhookDelivery.findMany({ orderBy: { createdAt: "asc" } });
    const by = (id: string) => rows.filter((d) => d.webhookId === id).map((d) => d.event);
    expect(by(all.id)).toEqual(["run.completed", "run.completed", "alert.raised"]);
    expect(by(failedOnly.id)).toEqual([]);
    expect(by(disabled.id)).toEqual([]);
    expect(by(foreign.id)).toEqual([]);

    const worker = new WebhookWorker({ fetch: loopbackFetch });
    expect(await worker.tick()).toBe(3);
    const bodies = r.received.map((x) => JSON.parse(x.body));
    const alert = bodies.find((b) => b.event === "alert.raised");
    // Nothing changed between the runs: the text ends with the alert's explanation, a possibly flaky flip.
    const explanation = "Neither the agent nor any flipped case changed since the baseline run: possibly flaky.";
    expect(alert).toMatchObject({
      text: expect.stringMatching(new RegExp(`regression in suite .*, run #${bad.number}: .* ${explanation.replace(/[.:]/g, "\\$&")}$`)),
      alert: {
        run_id: bad.id,
        run_number: bad.number,
        suite_id: suite.id,
        drop_points: 50,
        explanation,
        flipped_cases: [expect.objectContaining({ name: "case 0", to: "failed", cause: "neither", case_changed: false })],
      },
    });
    const completed = bodies.find((b) => b.event === "run.completed" && b.run.id === bad.id);
    expect(completed).toMatchObject({
      text: expect.stringContaining("1 of 2 cases passed (50.0%)"),
      run: { id: bad.id, suite_id: suite.id, status: "completed", pass_rate: 50 },
    });
  });

  it("queues run.failed for a failed run, and nothing for a comparison arm run", async () => {
    const { ctx } = await makeWorkspace("owner");
    const hook = await createWebhook(ctx, { url: "http://127.0.0.1:9/x", secret: SECRET, events: ["run.completed", "run.failed"] });
    const { suite } = await makeSuiteWithCases(ctx, 1);
    const { failRun } = await import("@/lib/runs/finalize");
    const { startRun } = await import("@/lib/runs/service");
    const run = await startRun(ctx, suite.id, {}, "api");
    await failRun(run.id, "The agent was deleted");
    const rows = await db.webhookDelivery.findMany({ where: { webhookId: hook.id } });
    expect(rows.map((d) => d.event)).toEqual(["run.failed"]);
    expect(rows[0]!.payload).toMatchObject({ text: expect.stringContaining("The agent was deleted"), run: { status: "failed" } });

    const { emitRunFinished } = await import("@/lib/webhooks/events");
    const arm = await runWithOutcomes(ctx, suite.id);
    await db.webhookDelivery.deleteMany({ where: { webhookId: hook.id } });
    const comparison = await db.comparison.create({ data: { workspaceId: ctx.workspaceId, suiteId: suite.id, name: "AB" } });
    await db.run.update({ where: { id: arm.id }, data: { comparisonId: comparison.id } });
    await emitRunFinished(arm.id);
    expect(await db.webhookDelivery.count({ where: { webhookId: hook.id } })).toBe(0);
  });
});
