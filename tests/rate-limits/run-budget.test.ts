// Runs against a provider that enforces its budget (the fake answering 429 with Retry-After and
// x-ratelimit-* headers past it), executed by two executors sharing the budget through the
// database: paced to a declared rpm with no 429, or learning it from the first burst's 429s; in
// both, no case fails, every question is answered once, and the run says it was waiting.
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { Executor } from "@/lib/runs/executor";
import { createCaseRunner } from "@/lib/runs/case-runner";
import { getRun, startRun } from "@/lib/runs/service";
import { withFakeOpenAI } from "../helpers/run-stack";
import { makeSuiteWithCases, makeWorkspace, waitFor } from "../helpers/factories";

const fake = withFakeOpenAI({ latencyMs: 20 });
const executors: Executor[] = [];
afterEach(async () => {
  await Promise.all(executors.splice(0).map((e) => e.stop(1_000)));
});

/** Every stage each case reported, in order, by case result id. */
const stagesByCase = new Map<string, string[]>();

/** Two executors, as two worker processes would run (each its own lease owner and slots). */
function twoExecutors() {
  stagesByCase.clear();
  for (let i = 0; i < 2; i++) {
    const runner = createCaseRunner();
    const executor = new Executor({
      runner: (job, run, signal, report) =>
        runner(job, run, signal, (stage) => {
          stagesByCase.set(job.caseResultId, [...(stagesByCase.get(job.caseResultId) ?? []), stage]);
          report?.(stage);
        }),
      pollMs: 50,
      maxSlots: 8,
    });
    executors.push(executor);
    executor.start();
  }
}

/** A suite of `cases` single-turn cases on a model of its own (its own provider budget), with `rpm` declared or not. */
async function pacedSuite(cases: number, rpm: number | null) {
  const { ctx } = await makeWorkspace("editor");
  const { modelConfig, suite } = await makeSuiteWithCases(ctx, cases, { baseUrl: fake.url });
  const model = `paced-${randomUUID()}`;
  await db.modelConfig.update({ where: { id: modelConfig.id }, data: { model, rpm } });
  return { ctx, suite, model };
}

/** Runs the suite to its end, sampling how many of its cases waited for the rate limit at once. */
async function runSampled(ctx: Awaited<ReturnType<typeof pacedSuite>>["ctx"], suiteId: string) {
  const run = await startRun(ctx, suiteId, { concurrency: 16 }, "api");
  let mostWaiting = 0;
  const done = await waitFor(
    async () => {
      const r = await getRun(ctx, run.id);
      mostWaiting = Math.max(mostWaiting, r.rate_limit_waits ?? 0);
      return r;
    },
    (r) => r.status === "completed",
    30_000,
  );
  return { done, mostWaiting };
}

const chatRequests = (model: string) => fake.requests.filter((r) => r.endpoint === "chat" && r.body?.model === model);

describe("a run against a provider's budget", () => {
  it("is paced to a declared rpm across two executors: no 429, every case passes, each question answered once", async () => {
    fake.setRateLimit({ rpm: 600 }); // 10 a second
    const { ctx, suite, model } = await pacedSuite(30, 600);
    twoExecutors();
    const { done, mostWaiting } = await runSampled(ctx, suite.id);
    expect(done).toMatchObject({ passed_cases: 30, error_cases: 0, rate_limit_waits: 0 });
    const asked = chatRequests(model);
    expect(asked.every((r) => r.status === 200)).toBe(true);
    expect(new Set(asked.map((r) => JSON.stringify(r.body.messages))).size).toBe(30);
    expect(asked).toHaveLength(30);
    expect(fake.rateLimited()).toBe(0);
    // 30 requests at 10 a second from an empty client bucket: about 3 s from first to last, never a burst.
    expect(asked.at(-1)!.at - asked[0]!.at).toBeGreaterThan(2_500);
    // Cases queued for the budget said so while they waited, and went back to calling the agent when their request went out.
    expect(mostWaiting).toBeGreaterThan(0);
    const waited = [...stagesByCase.values()].filter((stages) => stages.includes("waiting_rate_limit"));
    expect(waited.length).toBeGreaterThan(0);
    for (const stages of waited) expect(stages.slice(0, 2)).toEqual(["waiting_rate_limit", "executing_agent"]);
  });

  it("learns an undeclared limit from the first burst's 429s: no case fails, and the 429s stop", async () => {
    fake.setRateLimit({ rpm: 600, burstSeconds: 0.5 }); // 5 at once, then 10 a second
    const { ctx, suite, model } = await pacedSuite(40, null);
    twoExecutors();
    const { done } = await runSampled(ctx, suite.id);
    expect(done).toMatchObject({ passed_cases: 40, error_cases: 0 });
    const asked = chatRequests(model);
    const answered = asked.filter((r) => r.status === 200);
    expect(answered).toHaveLength(40);
    expect(new Set(answered.map((r) => JSON.stringify(r.body.messages))).size).toBe(40);
    // The first wave (16 at once, unpaced) met 429s; once the limit was learned they stopped.
    expect(fake.rateLimited()).toBeGreaterThan(0);
    const lastHalf = asked.slice(Math.floor(asked.length / 2));
    expect(lastHalf.filter((r) => r.status === 429)).toHaveLength(0);
    const budget = await db.rateLimitBudget.findFirst({ where: { label: { endsWith: model } } });
    expect(budget).toMatchObject({ fromHeaders: true });
    expect(budget!.learnedRpm).toBeGreaterThan(500);
    expect(budget!.learnedRpm).toBeLessThanOrEqual(600);
  });
});
