import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { mulberry32 } from "@/lib/comparisons/statistics";
import { cancelRun, getRun, startRun } from "@/lib/runs/service";
import { listCaseResults } from "@/lib/runs/case-results";
import { listRunCases } from "@/lib/runs/trial-reads";
import { runTrialStats, caseTrialStats } from "@/lib/runs/trials";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { withRunStack } from "../helpers/run-stack";
import { makeSuiteWithCases, makeWorkspace, waitFor } from "../helpers/factories";

/**
 * Trials through the real stack (executor, case runner, fake model, PostgreSQL): a fake model
 * that answers each case correctly with its own probability (seeded), one trial at a time, and
 * the run's figures checked against the same figures worked out here from the stored verdicts.
 * Then a cancelled run: trials are claimed trial-major, so whatever ran covers the cases evenly.
 */

const { fake } = withRunStack({ executor: { heartbeatMs: 50 } });

type Verdict = "passed" | "failed" | "error";

const PHRASE = "ANSWER-OK";
/** A marker no other case's message contains ("Q<1>" is not in "Q<10>", unlike "question 1"). */
const marker = (i: number) => `Q<${i}>`;
const caseIndexOf = (text: string) => Number(/Q<(\d+)>/.exec(text)?.[1] ?? NaN);

/** A suite of `count` single-turn cases, each passing only when the answer contains PHRASE. */
async function trialSuite(count: number) {
  const { ctx } = await makeWorkspace("editor");
  const made = await makeSuiteWithCases(ctx, count, {
    baseUrl: fake.url,
    caseData: (i) => ({
      initialMessage: `${marker(i)} What is the answer?`,
      checks: [{ type: "contains_phrases", phrases: [PHRASE], case_sensitive: true }],
    }),
  });
  return { ctx, ...made };
}

async function finished(ctx: WorkspaceContext, runId: string) {
  return waitFor(
    () => getRun(ctx, runId),
    (r) => ["completed", "failed", "cancelled"].includes(r.status),
    30_000,
  );
}

/** The last user message of every chat request the fake received, in arrival order. */
function askedCaseOrder(): number[] {
  return fake.requests
    .filter((r) => r.endpoint === "chat")
    .map((r) => {
      const messages = (r.body as { messages: { role: string; content: string }[] }).messages;
      return caseIndexOf(messages.filter((m) => m.role === "user").at(-1)!.content);
    });
}

describe("a run with 5 trials against a model that is right with probability p", () => {
  const P = [1, 0.9, 0.7, 0.5, 0.5, 0.3, 0.1, 0];
  const TRIALS = 5;
  /** The one trial whose agent call fails with a 400 (a client error: not retried), in a case that passes sometimes. */
  const ERRORED = { caseIndex: 2, trial: 3 };

  /** verdicts[trial][case], drawn from a seeded generator. */
  function plan(): Verdict[][] {
    const random = mulberry32(2023);
    return Array.from({ length: TRIALS }, (_, t) =>
      P.map((p, c): Verdict => {
        const correct = random() < p;
        if (c === ERRORED.caseIndex && t === ERRORED.trial) return "error";
        return correct ? "passed" : "failed";
      }),
    );
  }

  it("reports pass@1, pass@k, pass^k, the flaky count and each case's stability as worked out from the stored verdicts", async () => {
    const { ctx, suite } = await trialSuite(P.length);
    const verdicts = plan();
    // With concurrency 1 the trials run one after another, trial-major, so each case's rules
    // (one use each, consumed first-come) are taken in trial order.
    for (let t = 0; t < TRIALS; t++) {
      P.forEach((_, c) => {
        const v = verdicts[t]![c]!;
        fake.addRule({
          match: { lastUserContains: marker(c) },
          reply:
            v === "error" ? { status: 400, content: "scripted bad request" } : { content: v === "passed" ? `Sure: ${PHRASE}` : "No idea." },
          times: 1,
        });
      });
    }

    const started = await startRun(ctx, suite.id, { trials: TRIALS, concurrency: 1 }, "api");
    const run = await finished(ctx, started.id);
    expect(run).toMatchObject({ status: "completed", trials: TRIALS, total_cases: P.length * TRIALS });

    const rows = await db.caseResult.findMany({
      where: { runId: run.id },
      select: { testCaseId: true, repetition: true, position: true, status: true, startedAt: true, caseSnapshot: true },
    });
    const indexOf = (r: (typeof rows)[number]) => caseIndexOf((r.caseSnapshot as { initial_message: string }).initial_message);
    expect(rows).toHaveLength(P.length * TRIALS);

    // Each trial's stored verdict is the one scripted for that case and trial, at its trial-major position.
    for (const r of rows) {
      expect(r.status, `case ${indexOf(r)}, trial ${r.repetition}`).toBe(verdicts[r.repetition]![indexOf(r)]);
      expect(r.position).toBe(r.repetition * P.length + indexOf(r));
    }
    // Trial 0 of every case was asked before trial 1 of any, and so on.
    const expectedOrder = Array.from({ length: TRIALS }, () => P.map((_, c) => c)).flat();
    expect(askedCaseOrder()).toEqual(expectedOrder);
    const byStart = [...rows].sort((a, b) => a.startedAt!.getTime() - b.startedAt!.getTime() || a.position - b.position);
    expect(byStart.map((r) => r.repetition)).toEqual([...byStart.map((r) => r.repetition)].sort((a, b) => a - b));

    // The figures by hand, from the stored rows: errors are neither passes nor failures.
    const hand = P.map((_, c) => {
      const mine = rows.filter((r) => indexOf(r) === c);
      const passed = mine.filter((r) => r.status === "passed").length;
      const errored = mine.filter((r) => r.status === "error").length;
      const judged = mine.length - errored;
      const stability = judged === 0 ? "error" : passed === judged ? "stable_pass" : passed === 0 ? "stable_fail" : "flaky";
      return {
        testCaseId: mine[0]!.testCaseId,
        trials: mine.length,
        passed,
        errored,
        judged,
        passRate: judged > 0 ? passed / judged : null,
        stability,
      };
    });
    const judgedCases = hand.filter((h) => h.judged > 0);
    const handPassAt1 = judgedCases.reduce((sum, h) => sum + h.passRate!, 0) / judgedCases.length;
    const handPassAtK = judgedCases.filter((h) => h.passed > 0).length / judgedCases.length;
    const handPassAllK = judgedCases.filter((h) => h.passed === h.judged).length / judgedCases.length;
    const handFlaky = hand.filter((h) => h.stability === "flaky").length;
    // The seed gives every label but "error" (and the errored trial sits in a case that passes sometimes),
    // so a denominator that counted the error, or a label mixed up, shows.
    expect(new Set(hand.map((h) => h.stability))).toEqual(new Set(["stable_pass", "flaky", "stable_fail"]));
    expect(hand[ERRORED.caseIndex]).toMatchObject({ errored: 1, judged: TRIALS - 1 });
    expect(hand[ERRORED.caseIndex]!.passed).toBeGreaterThan(0);

    const summary = run.summary as Record<string, unknown>;
    expect(summary.trials).toBe(TRIALS);
    expect(summary.judged_cases).toBe(judgedCases.length);
    expect(summary.pass_at_1 as number).toBeCloseTo(handPassAt1, 12);
    expect(summary.pass_at_k as number).toBeCloseTo(handPassAtK, 12);
    expect(summary.pass_all_k as number).toBeCloseTo(handPassAllK, 12);
    expect(summary.flaky_cases).toBe(handFlaky);
    expect(summary.error_only_cases).toBe(0);
    // The interval is the seeded bootstrap over these cases: the same on recomputation, around pass@1.
    const [low, high] = summary.pass_at_1_ci95 as [number, number];
    expect(low).toBeLessThanOrEqual(handPassAt1);
    expect(high).toBeGreaterThanOrEqual(handPassAt1);
    expect(low).toBeLessThan(high);
    const recomputed = runTrialStats(hand.map((h) => caseTrialStats({ trials: h.trials, passed: h.passed, errored: h.errored })));
    expect(summary.pass_at_1_ci95).toEqual(recomputed.pass_at_1_ci95);

    // GET /runs/{id}/cases: one row per case, in case order, with the same figures and labels.
    const cases = await listRunCases(ctx, run.id, { limit: 100 });
    expect(cases.next_cursor).toBeNull();
    expect(
      cases.data.map((row) => ({
        id: row.test_case_id,
        trials: row.trials,
        passed: row.passed_trials,
        errored: row.errored_trials,
        rate: row.pass_rate,
        atK: row.pass_at_k,
        allK: row.pass_all_k,
        stability: row.stability,
      })),
    ).toEqual(
      hand.map((h) => ({
        id: h.testCaseId,
        trials: h.trials,
        passed: h.passed,
        errored: h.errored,
        rate: h.passRate,
        atK: h.passed > 0,
        allK: h.judged > 0 && h.passed === h.judged,
        stability: h.stability,
      })),
    );
    for (const row of cases.data) expect(row.results.map((m) => m.trial)).toEqual([0, 1, 2, 3, 4]);
    const flaky = await listRunCases(ctx, run.id, { stability: "flaky", limit: 100 });
    expect(flaky.data.map((row) => row.test_case_id)).toEqual(hand.filter((h) => h.stability === "flaky").map((h) => h.testCaseId));

    // ?trial=2: that trial of every case, in case order, with its scripted verdict.
    const trial2 = await listCaseResults(ctx, run.id, { trial: 2, limit: 100 });
    expect(trial2.data.map((r) => r.trial)).toEqual(P.map(() => 2));
    expect(trial2.data.map((r) => r.status)).toEqual(verdicts[2]);
    expect(trial2.data.map((r) => r.test_case_id)).toEqual(hand.map((h) => h.testCaseId));
  });
});

describe("a cancelled run with trials", () => {
  it("has even coverage: no trial started while an earlier trial of any case had not", async () => {
    const CASES = 6;
    const TRIALS = 3;
    const { ctx, suite } = await trialSuite(CASES);
    fake.setLatency(250);
    const started = await startRun(ctx, suite.id, { trials: TRIALS, concurrency: 1 }, "api");
    // Seven results done: trial 0 is complete and trial 1 under way, trial 2 still ahead.
    await waitFor(
      () => db.caseResult.count({ where: { runId: started.id, status: { in: ["passed", "failed", "error"] } } }),
      (done) => done >= CASES + 1,
      30_000,
    );
    await cancelRun(ctx, started.id);
    const run = await finished(ctx, started.id);
    expect(run.status).toBe("cancelled");

    const rows = await db.caseResult.findMany({
      where: { runId: run.id },
      select: { repetition: true, status: true, startedAt: true, caseSnapshot: true },
    });
    expect(rows).toHaveLength(CASES * TRIALS);
    const ran = rows.filter((r) => r.startedAt !== null);
    // The cancel came mid-run, after trial 1 had begun: the property below has something to hold over.
    expect(ran.some((r) => r.repetition === 1)).toBe(true);
    expect(rows.filter((r) => r.status === "skipped").length).toBeGreaterThan(0);
    // Every started trial-t result implies every result of each earlier trial started.
    for (const r of ran) {
      const unstartedEarlier = rows.filter((o) => o.repetition < r.repetition && o.startedAt === null);
      expect(unstartedEarlier, `trial ${r.repetition} started while earlier trials had not`).toEqual([]);
    }
    // So the cases' executed trials differ by at most one.
    const perCase = Array.from(
      { length: CASES },
      (_, c) => ran.filter((r) => caseIndexOf((r.caseSnapshot as { initial_message: string }).initial_message) === c).length,
    );
    expect(Math.max(...perCase) - Math.min(...perCase)).toBeLessThanOrEqual(1);
  });
});
