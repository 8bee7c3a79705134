// The shared provider budget against the real database: requests paced to declared rpm / tpm
// across two processes' budgets (two owners of one key), max_concurrency across owners, limits
// learned from a 429 and from x-ratelimit-* headers (AIMD), the agent's calls ahead of the
// judge's, cancellation, the wait allowance and the "waiting" report.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { SharedBudget, type BudgetIdentity } from "@/lib/rate-limits/budget";
import { withRateLimitWaits } from "@/lib/rate-limits";
import type { CallPurpose, RatePermit } from "@/lib/llm/types";

const none = { rpm: null, tpm: null, maxConcurrency: null };

/** Two budgets of one key as two processes see it. */
function pair(limits: BudgetIdentity["limits"], maxWaitMs = 60_000) {
  const identity = { key: `test:${randomUUID()}`, label: "http://127.0.0.1/v1 test", limits };
  return [
    new SharedBudget(identity, { owner: "process-a", maxWaitMs }),
    new SharedBudget(identity, { owner: "process-b", maxWaitMs }),
  ] as const;
}

const ask = (budget: SharedBudget, opts: { tokens?: number; purpose?: CallPurpose; signal?: AbortSignal } = {}) =>
  budget.acquire({ promptTokens: opts.tokens ?? 1, maxTokens: 0, purpose: opts.purpose ?? "agent" }, opts.signal);

const ok = { status: 200, headers: new Headers(), usage: null };

async function row(key: string) {
  return db.rateLimitBudget.findUnique({ where: { key } });
}

describe("declared limits, shared by every process", () => {
  it("paces two processes' requests to one rpm budget together", async () => {
    const [a, b] = pair({ rpm: 1200, tpm: null, maxConcurrency: null }); // 20 a second
    const started = performance.now();
    const grants: { who: string; at: number }[] = [];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        ask(i % 2 ? b : a).then(() => grants.push({ who: i % 2 ? "b" : "a", at: performance.now() - started })),
      ),
    );
    const elapsed = performance.now() - started;
    // 20 requests at 20/s from an empty bucket: about a second for both together (each alone would take half).
    expect(elapsed).toBeGreaterThan(850);
    expect(elapsed).toBeLessThan(4_000);
    expect(grants.filter((g) => g.who === "a")).toHaveLength(10);
    // No two grants closer than the pacing allows, give or take the clock: never a burst.
    const gaps = grants.slice(1).map((g, i) => g.at - grants[i]!.at);
    expect(gaps.filter((gap) => gap < 20).length).toBeLessThanOrEqual(2);
  });

  it("paces by tokens, and the usage an answer reports gives back what was not used", async () => {
    const [a] = pair({ rpm: null, tpm: 120_000, maxConcurrency: null }); // 2,000 tokens a second
    let started = performance.now();
    for (let i = 0; i < 6; i++) await ask(a, { tokens: 400 }); // expected 400 each, not settled
    const unsettled = performance.now() - started;
    expect(unsettled).toBeGreaterThan(1_000); // 2,400 tokens at 2,000/s
    started = performance.now();
    for (let i = 0; i < 6; i++) {
      const permit = await ask(a, { tokens: 400 });
      await permit.settle({ status: 200, headers: new Headers(), usage: { prompt_tokens: 20, completion_tokens: 0 } });
    }
    const settled = performance.now() - started;
    // Each answer used 20 of its 400: the refunds pay for the next request almost at once.
    expect(settled).toBeLessThan(unsettled * 0.6);
  });

  it("holds max_concurrency across processes until a request is settled", async () => {
    const [a, b] = pair({ rpm: null, tpm: null, maxConcurrency: 2 });
    const first = await ask(a);
    await ask(a);
    let third: RatePermit | null = null;
    const pending = ask(b).then((p) => (third = p));
    await new Promise((r) => setTimeout(r, 300));
    expect(third).toBeNull();
    await first.settle(ok);
    await pending;
    expect(third).not.toBeNull();
  });
});

describe("limits learned from the provider", () => {
  it("sends unpaced without a database row until a 429, then holds every process for its Retry-After", async () => {
    const [a, b] = pair(none);
    for (let i = 0; i < 12; i++) await (await ask(a)).settle(ok);
    expect(await row(a.key)).toBeNull();
    await (await ask(a)).settle({ status: 429, headers: new Headers({ "retry-after-ms": "600" }), usage: null });
    const learned = await row(a.key);
    expect(learned?.blockedUntil).not.toBeNull();
    expect(learned!.learnedRpm).toBeGreaterThan(0);

    const started = performance.now();
    await ask(a);
    expect(performance.now() - started).toBeGreaterThan(400);

    // The other process finds out on its next look at the budget, then waits too.
    await ask(b);
    await new Promise((r) => setTimeout(r, 100));
    expect(b.paced).toBe(true);
  });

  it("gives back only tokens a take counted: an unpaced request that teaches the limit adds none", async () => {
    const [a] = pair(none);
    // Expected: 1 prompt token and the first guess of completion tokens; used: 1.
    const permit = await a.acquire({ promptTokens: 1, maxTokens: null, purpose: "agent" });
    await permit.settle({
      status: 200,
      headers: new Headers({ "x-ratelimit-limit-tokens": "60000" }),
      usage: { prompt_tokens: 1, completion_tokens: 0 },
    });
    expect(await row(a.key)).toMatchObject({ learnedTpm: 60000, tokens: 0 });
  });

  it("holds for a 429's Retry-After without inventing a rate from a handful of requests", async () => {
    const [a] = pair(none);
    await (await ask(a)).settle({ status: 429, headers: new Headers({ "retry-after-ms": "300" }), usage: null });
    expect(await row(a.key)).toMatchObject({ learnedRpm: null });
    const started = performance.now();
    await ask(a);
    await ask(a);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThan(250);
    expect(elapsed).toBeLessThan(1_500);
  });

  it("adopts x-ratelimit-limit-* headers, and probes a halved rate back up after a 429 without them", async () => {
    const [a] = pair(none);
    // Expected: 1 prompt token and the first guess of completion tokens; used: 1.
    const permit = await a.acquire({ promptTokens: 1, maxTokens: null, purpose: "agent" });
    await permit.settle({
      status: 200,
      headers: new Headers({ "x-ratelimit-limit-requests": "3000", "x-ratelimit-limit-tokens": "90000" }),
      usage: null,
    });
    expect(await row(a.key)).toMatchObject({ learnedRpm: 3000, learnedTpm: 90000, fromHeaders: true });

    const [c] = pair(none);
    for (let i = 0; i < 12; i++) await (await ask(c)).settle(ok);
    await (await ask(c)).settle({ status: 429, headers: new Headers(), usage: null });
    const halved = (await row(c.key))!;
    expect(halved.fromHeaders).toBe(false);
    expect(halved.learnedRpm).toBeGreaterThan(0);
    // Additive increase only once a second has passed since the 429.
    await db.rateLimitBudget.update({ where: { key: c.key }, data: { lastLimitedAt: new Date(Date.now() - 5_000), blockedUntil: null } });
    await (await ask(c)).settle(ok);
    expect((await row(c.key))!.learnedRpm).toBeCloseTo(halved.learnedRpm! + 0.5, 5);
  });
});

describe("waiting", () => {
  it("lets an agent call that arrives later go before queued judge calls", async () => {
    const [a] = pair({ rpm: 600, tpm: null, maxConcurrency: null }); // one every 100 ms
    const order: string[] = [];
    const judges = [
      ask(a, { purpose: "judge" }).then(() => order.push("judge 1")),
      ask(a, { purpose: "judge" }).then(() => order.push("judge 2")),
    ];
    await new Promise((r) => setTimeout(r, 20));
    const agent = ask(a, { purpose: "agent" }).then(() => order.push("agent"));
    await Promise.all([...judges, agent]);
    expect(order).toEqual(["agent", "judge 1", "judge 2"]);
  });

  it("gives up when the call is cancelled, and fails a call past its allowance as rate limited", async () => {
    const [a] = pair({ rpm: 1, tpm: null, maxConcurrency: null }, 400);
    await ask(a).catch(() => undefined); // the first waits a minute for an empty bucket: past the allowance
    const controller = new AbortController();
    const cancelled = ask(a, { signal: controller.signal });
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ type: "aborted" });
    await expect(ask(a)).rejects.toMatchObject({ type: "rate_limited", message: expect.stringContaining("for the provider's rate limit") });
  });

  it("tells the case it is waiting once a request has waited, and again when it goes out", async () => {
    const [a] = pair({ rpm: 120, tpm: null, maxConcurrency: null }); // one every 500 ms
    const reports: boolean[] = [];
    await withRateLimitWaits(
      (waiting) => reports.push(waiting),
      () => ask(a),
    );
    expect(reports).toEqual([true, false]);
  });
});
