/**
 * Reports of runs with several trials per case: every JSON, CSV and Markdown row names its
 * trial, the summaries carry pass@1 with its interval, pass@k, pass^k and the flaky count, and
 * JUnit has one testcase per case with Maven Surefire's flaky and rerun elements. A run of one
 * trial per case reads as it always did. Runs are written without an executor
 * (runWithTrialOutcomes: fixed durations, responses and reasons), so reports compare exactly.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { caseResultGroupPages } from "@/lib/runs/case-results";
import { makeSuiteWithCases, makeWorkspace, reportText, runWithTrialOutcomes } from "../helpers/factories";

let ctx: WorkspaceContext;
let suite: { id: string; name: string };
let agentName: string;

beforeAll(async () => {
  ({ ctx } = await makeWorkspace("editor"));
  const made = await makeSuiteWithCases(ctx, 5);
  suite = made.suite;
  agentName = made.agent.name;
});

/** The report's header lines up to the testsuite's properties (the run's own id, suite, agent and start). */
function header(run: { id: string; startedAt: Date | null }, counts: string, passRate: string, extra = "") {
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="Assay" ${counts}>`,
    `  <testsuite name="${suite.name}" ${counts} timestamp="${run.startedAt!.toISOString()}">`,
    `    <properties><property name="run_id" value="${run.id}"/><property name="agent" value="${agentName}"/><property name="pass_rate" value="${passRate}"/>${extra}</properties>`,
  ].join("\n");
}

const testcase = (name: string, time: string, body = "") =>
  `    <testcase classname="${suite.name}" name="${name}" time="${time}">${body}</testcase>`;

describe("JUnit", () => {
  it("one trial per case: one testcase per result, exactly as before trials", async () => {
    const run = await runWithTrialOutcomes(
      ctx,
      suite.id,
      1,
      { "case 1": ["failed"], "case 2": ["error"], "case 3": ["skipped"] },
      { case_ids: await caseIds(4) },
    );
    const xml = await reportText(ctx, run.id, "junit");
    const counts = `tests="4" failures="1" errors="1" skipped="1" time="0.400"`;
    expect(xml).toBe(
      [
        header(run, counts, "33.3"),
        testcase("case 0", "0.100"),
        testcase("case 1", "0.100", `<failure message="wrong answer 0" type="assertion">wrong answer 0\n\nResponse: answer 0</failure>`),
        testcase("case 2", "0.100", `<error message="boom 0" type="agent">boom 0</error>`),
        testcase("case 3", "0.100", `<skipped message="skipped"/>`),
        "  </testsuite>",
        "</testsuites>",
        "",
      ].join("\n"),
    );
  });

  it("several trials: one testcase per case; flaky → flakyFailure/flakyError, never passed → failure/error + rerunFailure/rerunError", async () => {
    const run = await runWithTrialOutcomes(ctx, suite.id, 3, {
      // case 0 passes every trial.
      "case 1": ["failed", "passed", "error"], // flaky: passed once, failed once (and errored once)
      "case 2": ["error", "error", "error"], // every trial errored
      "case 3": ["error", "failed", "failed"], // never passed: the first FAILED trial is the <failure>
      "case 4": ["failed", "failed", "failed"],
    });
    const summary = run.summary as { pass_at_1_ci95: [number, number] };
    const xml = await reportText(ctx, run.id, "junit");
    // Cases: 5; case 3 and 4 failed, case 2 errored. Each case's time is its trials' (100 + 200 + 300 ms).
    const counts = `tests="5" failures="2" errors="1" skipped="0" time="3.000"`;
    // pass@1 = mean of 1 (case 0), 1/2 (case 1, its error left out), 0, 0 over the 4 judged cases.
    const trialProps =
      `<property name="trials" value="3"/><property name="pass_at_1" value="0.375"/>` +
      `<property name="pass_at_1_ci95_low" value="${summary.pass_at_1_ci95[0]}"/><property name="pass_at_1_ci95_high" value="${summary.pass_at_1_ci95[1]}"/>` +
      `<property name="pass_at_k" value="0.5"/><property name="pass_all_k" value="0.25"/><property name="flaky_cases" value="1"/>`;
    const failed = (trial: number) => `wrong answer ${trial}\n\nResponse: answer ${trial}`;
    expect(xml).toBe(
      [
        // 4 of the 15 executed trials passed: the run's pass rate is 26.7 %.
        header(run, counts, "26.7", trialProps),
        testcase("case 0", "0.600"),
        testcase(
          "case 1",
          "0.600",
          `<flakyFailure message="Trial 1 of 3: wrong answer 0" type="assertion"><stackTrace>${failed(0)}</stackTrace></flakyFailure>` +
            `<flakyError message="Trial 3 of 3: boom 2" type="agent"><stackTrace>boom 2</stackTrace></flakyError>`,
        ),
        testcase(
          "case 2",
          "0.600",
          `<error message="Trial 1 of 3: boom 0" type="agent">boom 0</error>` +
            `<rerunError message="Trial 2 of 3: boom 1" type="agent"><stackTrace>boom 1</stackTrace></rerunError>` +
            `<rerunError message="Trial 3 of 3: boom 2" type="agent"><stackTrace>boom 2</stackTrace></rerunError>`,
        ),
        testcase(
          "case 3",
          "0.600",
          `<failure message="Trial 2 of 3: wrong answer 1" type="assertion">${failed(1)}</failure>` +
            `<rerunError message="Trial 1 of 3: boom 0" type="agent"><stackTrace>boom 0</stackTrace></rerunError>` +
            `<rerunFailure message="Trial 3 of 3: wrong answer 2" type="assertion"><stackTrace>${failed(2)}</stackTrace></rerunFailure>`,
        ),
        testcase(
          "case 4",
          "0.600",
          `<failure message="Trial 1 of 3: wrong answer 0" type="assertion">${failed(0)}</failure>` +
            `<rerunFailure message="Trial 2 of 3: wrong answer 1" type="assertion"><stackTrace>${failed(1)}</stackTrace></rerunFailure>` +
            `<rerunFailure message="Trial 3 of 3: wrong answer 2" type="assertion"><stackTrace>${failed(2)}</stackTrace></rerunFailure>`,
        ),
        "  </testsuite>",
        "</testsuites>",
        "",
      ].join("\n"),
    );
  });

  it("groups a case's trials across pages: whole cases, at most the page size of results, in case order", async () => {
    const run = await runWithTrialOutcomes(ctx, suite.id, 3, { "case 2": ["failed", "passed", "passed"] });
    const pages: { name: string; trials: number[] }[][] = [];
    for await (const page of caseResultGroupPages(ctx, run.id, 7)) {
      pages.push(page.map((trials) => ({ name: trials[0]!.name, trials: trials.map((r) => r.trial) })));
    }
    const c = (name: string) => ({ name, trials: [0, 1, 2] });
    expect(pages).toEqual([[c("case 0"), c("case 1")], [c("case 2"), c("case 3")], [c("case 4")]]);
    // A page smaller than a case's trials still holds the whole case.
    let count = 0;
    for await (const page of caseResultGroupPages(ctx, run.id, 2)) {
      expect(page).toHaveLength(1);
      expect(page[0]).toHaveLength(3);
      count++;
    }
    expect(count).toBe(5);
  });
});

describe("JSON, CSV and Markdown", () => {
  it("every row carries its trial; the summaries carry the trial figures", async () => {
    const run = await runWithTrialOutcomes(ctx, suite.id, 2, { "case 0": ["failed", "passed"], "case 1": ["failed", "failed"] });
    const stored = run.summary as Record<string, unknown>;

    const json = JSON.parse(await reportText(ctx, run.id, "json")) as {
      results: { test_name: string; trial: number; status: string }[];
      summary: Record<string, unknown>;
    };
    // Trial 0 of every case, then trial 1.
    expect(json.results.map((r) => `${r.test_name}/${r.trial}/${r.status}`)).toEqual([
      "case 0/0/failed",
      "case 1/0/failed",
      "case 2/0/passed",
      "case 3/0/passed",
      "case 4/0/passed",
      "case 0/1/passed",
      "case 1/1/failed",
      "case 2/1/passed",
      "case 3/1/passed",
      "case 4/1/passed",
    ]);
    // pass@1 = (1/2 + 0 + 1 + 1 + 1) / 5; case 0 is flaky.
    expect(json.summary).toMatchObject({ trials: 2, pass_at_1: 0.7, pass_at_k: 0.8, pass_all_k: 0.6, flaky_cases: 1, judged_cases: 5 });
    expect(json.summary.pass_at_1_ci95).toEqual(stored.pass_at_1_ci95);

    const csv = (await reportText(ctx, run.id, "csv")).trim().split("\n");
    expect(csv[0]).toMatch(/,test_case_id,trial$/);
    expect(csv.slice(1).map((line) => line.split(",").at(-1))).toEqual(["0", "0", "0", "0", "0", "1", "1", "1", "1", "1"]);

    const md = await reportText(ctx, run.id, "markdown");
    const [low, high] = (stored.pass_at_1_ci95 as [number, number]).map((f) => (f * 100).toFixed(1));
    expect(md).toContain(
      `**Trials**: 2 per case — pass@1 70.0% (95% CI ${low}–${high}%) over 5 judged cases, pass@2 80.0%, pass^2 60.0%, 1 flaky case\n`,
    );
    expect(md).toContain("### ❌ Test 1: case 0, trial 1 of 2 (FAILED)");
    expect(md).toContain("### ✅ Test 6: case 0, trial 2 of 2 (PASSED)");
  });

  it("one trial: pass@1 with its interval, no trial in the headings; a summary stored before trials gets its figures counted", async () => {
    const run = await runWithTrialOutcomes(ctx, suite.id, 1, { "case 1": ["failed"] });
    const md = await reportText(ctx, run.id, "markdown");
    expect(md).toMatch(/\n\*\*Pass@1\*\*: 80\.0% \(95% CI [\d.]+–[\d.]+%\) over 5 judged cases\n/);
    expect(md).toContain("### ❌ Test 2: case 1 (FAILED)");

    // The summary as runs finished before trials stored it.
    const old = { ...(run.summary as Record<string, unknown>) };
    for (const key of [
      "trials",
      "judged_cases",
      "pass_at_1",
      "pass_at_1_ci95",
      "pass_at_1_ci95_method",
      "pass_at_k",
      "pass_all_k",
      "flaky_cases",
      "error_only_cases",
    ])
      delete old[key];
    await db.run.update({ where: { id: run.id }, data: { summary: old as object } });
    const json = JSON.parse(await reportText(ctx, run.id, "json")) as { summary: Record<string, unknown> };
    expect(json.summary).toMatchObject({ trials: 1, pass_at_1: 0.8, pass_all_k: 0.8, flaky_cases: 0, judged_cases: 5 });
  });
});

/** The suite's first `n` case ids in case order. */
async function caseIds(n: number) {
  const cases = await db.testCase.findMany({ where: { suiteId: suite.id }, orderBy: { sortOrder: "asc" }, take: n, select: { id: true } });
  return cases.map((c) => c.id);
}
