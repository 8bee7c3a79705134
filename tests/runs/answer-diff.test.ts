/**
 * The case view's answer diff: which other run's result a final answer is compared with (the
 * previous ordinary run of the suite by default, any listed run on request, the same trial where
 * that run has it), scoped by workspace; and the word diff's counts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { answerComparison } from "@/lib/runs/answer-diff";
import { wordDiff } from "@/components/runs/answer-diff";
import { makeKeyedSuite, makeWorkspace, runWithOutcomes, runWithTrialOutcomes } from "../helpers/factories";

let ctx: WorkspaceContext;
let suiteId: string;
let testCaseId: string;
const runs: { id: string; number: number }[] = [];

/** Sets the answer of the run's result of the case (trial 0 unless said). */
async function answer(runId: string, text: string | null, trial = 0) {
  await db.caseResult.updateMany({ where: { runId, testCaseId, repetition: trial }, data: { actualResponse: text } });
}

beforeAll(async () => {
  const made = await makeKeyedSuite(1, "http://127.0.0.1:9/v1");
  ctx = made.ctx;
  suiteId = made.suite.id;
  testCaseId = (await db.testCase.findFirstOrThrow({ where: { suiteId } })).id;
  // #1 passed, #2 errored (no answer), #3 failed: created in that order.
  const name = (await db.testCase.findUniqueOrThrow({ where: { id: testCaseId } })).name;
  for (const outcome of ["passed", "error", "failed"] as const) {
    const run = await runWithOutcomes(ctx, suiteId, { [name]: outcome });
    runs.push({ id: run.id, number: run.number });
  }
  await answer(runs[0]!.id, "Refunds take five days.");
  await answer(runs[1]!.id, null);
  await answer(runs[2]!.id, "Refunds take ten days.");
});

describe("answerComparison", () => {
  it("compares with the previous run by default and lists the others newest first", async () => {
    const c = (await answerComparison(ctx, { runId: runs[2]!.id, testCaseId, trial: 0 }))!;
    expect(c.candidates.map((x) => x.run_number)).toEqual([runs[1]!.number, runs[0]!.number]);
    expect(c.isDefault).toBe(true);
    // The previous run errored: it is still the one compared with, and says why it has no answer.
    expect(c.against).toMatchObject({ run_id: runs[1]!.id, status: "error", answer: null, error_message: "boom" });
  });

  it("takes the run asked for, and falls back to the previous one for an id it does not list", async () => {
    const asked = (await answerComparison(ctx, { runId: runs[2]!.id, testCaseId, trial: 0 }, runs[0]!.id))!;
    expect(asked).toMatchObject({ isDefault: false, against: { run_id: runs[0]!.id, answer: "Refunds take five days." } });
    for (const odd of [runs[2]!.id, "not-a-uuid", "00000000-0000-4000-8000-000000000000"]) {
      const fallback = (await answerComparison(ctx, { runId: runs[2]!.id, testCaseId, trial: 0 }, odd))!;
      expect(fallback).toMatchObject({ isDefault: true, against: { run_id: runs[1]!.id } });
    }
  });

  it("has no default for the first run, but offers the later ones", async () => {
    const c = (await answerComparison(ctx, { runId: runs[0]!.id, testCaseId, trial: 0 }))!;
    expect(c.against).toBeNull();
    expect(c.candidates.map((x) => x.run_number)).toEqual([runs[2]!.number, runs[1]!.number]);
  });

  it("compares a trial with the same trial of a run that has several", async () => {
    const name = (await db.testCase.findUniqueOrThrow({ where: { id: testCaseId } })).name;
    const multi = await runWithTrialOutcomes(ctx, suiteId, 3, { [name]: ["passed", "failed", "passed"] });
    const later = await runWithOutcomes(ctx, suiteId, {});
    const c = (await answerComparison(ctx, { runId: later.id, testCaseId, trial: 1 }))!;
    expect(c.against).toMatchObject({ run_id: multi.id, answer: "answer 1", status: "failed" });
    // A trial the other run lacks falls back to its first.
    const c2 = (await answerComparison(ctx, { runId: later.id, testCaseId, trial: 7 }))!;
    expect(c2.against).toMatchObject({ run_id: multi.id, answer: "answer 0" });
  });

  it("is nothing to another workspace, nor for a result without a test case", async () => {
    const other = await makeWorkspace("owner");
    expect(await answerComparison(other.ctx, { runId: runs[2]!.id, testCaseId, trial: 0 })).toBeNull();
    expect(await answerComparison(ctx, { runId: runs[2]!.id, testCaseId: null, trial: 0 })).toBeNull();
  });
});

describe("wordDiff", () => {
  it("counts the words added and removed, spaces apart", () => {
    const d = wordDiff("Refunds take five days.", "Refunds take ten business days.")!;
    expect({ added: d.added, removed: d.removed }).toEqual({ added: 2, removed: 1 });
    expect(d.parts.filter((p) => p.removed).map((p) => p.value.trim())).toEqual(["five"]);
    expect(wordDiff("same", "same")).toEqual({ parts: [{ value: "same", count: 1, added: false, removed: false }], added: 0, removed: 0 });
  });
});
