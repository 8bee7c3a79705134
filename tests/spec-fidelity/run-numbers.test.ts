/**
 * Spec fidelity, end to end against the fake OpenAI server: the execution model's summary numbers
 * (total_tests = len(results) = passed + failed, with errors and skipped broken out, difficulty weighting), errors vs failure reasons, metric
 * thresholds on the metric's own scale and per-test metric selection, agent-only retry_count,
 * the report's header fields, expected outcomes in their authored order, and a deleted case's
 * result still readable through its snapshot (the reference schema).
 */
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { listCaseResults } from "@/lib/runs/service";
import { createTestCase, deleteTestCase } from "@/lib/test-cases/service";
import { workspaceSettingsInput } from "@/lib/workspaces/schemas";
import { ASSAY_VERSION } from "@/lib/version";
import type { CaseResultDto, RunSummary } from "@/lib/runs/dto";
import * as caseResultRoute from "@/app/api/v1/case-results/[id]/route";
import { withRunStack } from "../helpers/run-stack";
import { makeApiKey, makeWorkspace, makeSuiteWithCases, reportText, runToEnd } from "../helpers/factories";
import { call } from "../helpers/api";

const { fake } = withRunStack();

const verdict = (reasoning: string) => ({ reasoning, evidence_turns: [2], verdict: "pass" });

describe("spec fidelity of a run's numbers", () => {
  it("counts every result that did not pass as failed with errors and skipped broken out, weighs hard cases, keeps reasons apart from errors and retries per caller", async () => {
    const { ctx } = await makeWorkspace("editor");
    const { suite, agent } = await makeSuiteWithCases(ctx, 0, { baseUrl: fake.url });
    await db.suite.update({ where: { id: suite.id }, data: { hardWeight: 3, metrics: [{ metric: "relevance", threshold: 4, scale: 5 }] } });

    // alpha: hard, passes; three outcomes authored in a non-alphabetical order; scored on relevance only.
    const alpha = await createTestCase(ctx, suite.id, {
      name: "alpha",
      difficulty: "hard",
      initial_message: "alpha question",
      checks: [{ type: "contains_phrases", phrases: ["alpha"] }],
      expected_outcomes: { "zeta label": true, "alpha label": "kind", "mid label": 3 },
      evaluations: ["relevance"],
    });
    // beta: normal, fails a check; no metric for this case.
    await createTestCase(ctx, suite.id, {
      name: "beta",
      initial_message: "beta question",
      checks: [{ type: "contains_phrases", phrases: ["never said"] }],
      evaluations: [],
    });
    // gamma: normal, the agent keeps failing (an error, not a failure).
    await createTestCase(ctx, suite.id, { name: "gamma", initial_message: "gamma question" });
    // delta: normal, passes after one judge retry; the suite's metrics (relevance).
    await createTestCase(ctx, suite.id, { name: "delta", initial_message: "delta question", expected_outcomes: { ok: true } });
    // epsilon: not runnable, so skipped.
    await db.testCase.create({ data: { workspaceId: ctx.workspaceId, suiteId: suite.id, name: "epsilon", sortOrder: 9 } });

    fake.addRule({ match: { endpoint: "chat", lastUserContains: "gamma" }, reply: { status: 500 } });
    fake.addRule({ match: { schemaName: "outcome_verdicts", anyContains: "delta" }, reply: { status: 500 }, times: 1 });
    fake.addRule({ match: { schemaName: "outcome_verdicts", anyContains: "delta" }, reply: { json: { o1: verdict("fine") } } });
    fake.addRule({
      match: { schemaName: "outcome_verdicts", anyContains: "zeta label" },
      reply: { json: { o1: verdict("z"), o2: verdict("a"), o3: verdict("m") } },
    });
    fake.addRule({ match: { schemaName: "metric_relevance" }, reply: { json: { reasoning: "on topic", score: 4 } } });

    const run = await runToEnd(ctx, suite.id);
    expect(run.status).toBe("completed");

    // The execution model's ReportSummary: total_tests = len(results) = passed + failed, failed = every result that did
    // not pass; Assay's breakdown (not met, errors, skipped) and its pass rate over the executed results beside.
    const summary = run.summary as RunSummary;
    expect(summary).toMatchObject({
      total_tests: 5,
      passed: 2,
      failed: 3,
      not_met: 1,
      errors: 1,
      skipped: 1,
      unfinished: 0,
      executed: 4,
      total_cases: 5,
      pass_rate: 40,
      executed_pass_rate: 50,
      // (alpha 3 + delta 1) / (alpha 3 + beta 1 + gamma 1 + delta 1)
      weighted_pass_rate: 66.7,
      hard_weight: 3,
      // gamma's agent calls: 3 attempts = 2 retries; delta's judge retry is counted apart.
      retry_count: 2,
      evaluator_retry_count: 1,
      average_scores: { relevance: 0.75 },
    });
    expect(summary.total_tests).toBe(summary.passed + summary.failed);
    expect(summary.failed).toBe(summary.not_met + summary.errors + summary.skipped);
    // The run's own pass rate (history, alerts) is the executed one.
    expect(run.pass_rate).toBe(summary.executed_pass_rate);

    const { data } = await listCaseResults(ctx, run.id, { limit: 10 });
    const byName = Object.fromEntries(data.map((r) => [r.name, r])) as Record<string, CaseResultDto>;

    expect(byName.alpha).toMatchObject({
      status: "passed",
      error_message: null,
      errors: [],
      failure_reasons: [],
      metrics_passed: 1,
      metrics_total: 1,
      end_reason: "single_turn",
      stopped_by_safety_cap: false,
      metric_results: [
        { metric_name: "relevance", score: 4, threshold: 4, normalized_score: 0.75, normalized_threshold: 0.75, passed: true },
      ],
    });
    // The authored order survives jsonb: in the snapshot and in the judge's keys.
    expect(Object.keys((byName.alpha!.test_case as { expected_outcomes: object }).expected_outcomes)).toEqual([
      "zeta label",
      "alpha label",
      "mid label",
    ]);
    expect((byName.alpha!.outcome_results as { key: string; label: string }[]).map((o) => [o.key, o.label])).toEqual([
      ["o1", "zeta label"],
      ["o2", "alpha label"],
      ["o3", "mid label"],
    ]);

    expect(byName.beta).toMatchObject({
      status: "failed",
      error_message: null,
      error_type: null,
      errors: [],
      failure_reasons: ["1 of 1 check failed"],
      metrics_total: 0,
      metric_results: [],
    });
    expect(byName.gamma).toMatchObject({ status: "error", error_type: "agent", retry_count: 2, failure_reasons: [] });
    expect(byName.gamma!.errors).toEqual([byName.gamma!.error_message]);
    expect(byName.delta).toMatchObject({ status: "passed", errors: [], retry_count: 0, evaluator_retry_count: 1, metrics_total: 1 });
    expect(byName.epsilon).toMatchObject({ status: "skipped", errors: [], failure_reasons: [] });

    // The Markdown report: spec counts, then which results failed holds; the version line, the agent's config path and the environment.
    const md = await reportText(ctx, run.id, "markdown");
    expect(md).toContain(
      "**Tests**: 2 passed, 3 failed of 5 (1 not met, 1 error, 1 skipped) — 40% pass rate; 50% of the 4 executed, 66.7% weighted by difficulty",
    );
    expect(md).toContain(`**Assay Version**: ${ASSAY_VERSION}`);
    expect(md).toContain(`/api/v1/agents/${agent.id}`);
    expect(md).toContain(`node_version ${process.version}`);
    expect(md).toContain("**Failure reasons**: 1 of 1 check failed");
    expect(md).toContain("relevance: 4 / 4 on 1–5 (normalised 0.75) ✅");

    const json = JSON.parse(await reportText(ctx, run.id, "json"));
    expect(json).toMatchObject({
      agent_name: agent.name,
      agent_config_path: `/api/v1/agents/${agent.id}`,
      assay_version: ASSAY_VERSION,
      environment: { assay_version: ASSAY_VERSION, node_version: process.version, agent_kind: "chat", agent_model: "fake-model" },
      summary: { total_tests: 5, passed: 2, failed: 3, not_met: 1, errors: 1, skipped: 1, pass_rate: 40 },
    });
    // The spec's ReportSummary and TestReport rules, on the document other tools parse.
    expect(json.summary.total_tests).toBe(json.results.length);
    expect(json.summary.total_tests).toBe(json.summary.passed + json.summary.failed);
    expect(json.summary.passed).toBe(json.results.filter((r: { passed: boolean }) => r.passed).length);
    expect(json.summary.pass_rate).toBe(Math.round((json.summary.passed / json.summary.total_tests) * 1000) / 10);
    expect(json.summary.counting).toMatch(/failed counts every result that did not pass/);
    const beta = json.results.find((r: { test_name: string }) => r.test_name === "beta");
    expect(beta).toMatchObject({
      passed: false,
      errors: [],
      failure_reasons: ["1 of 1 check failed"],
      metrics_passed: 0,
      metrics_total: 0,
    });

    // The reference schema: delete alpha (soft, then for good); its result stays readable through the snapshot.
    await deleteTestCase(ctx, alpha.id);
    await db.testCase.delete({ where: { id: alpha.id } });
    const token = await makeApiKey(ctx.workspaceId, "viewer");
    const res = await call(caseResultRoute.GET, {
      url: `/api/v1/case-results/${byName.alpha!.id}`,
      token,
      params: { id: byName.alpha!.id },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      id: byName.alpha!.id,
      test_case_id: null,
      name: "alpha",
      status: "passed",
      test_case: { id: alpha.id, name: "alpha", difficulty: "hard", evaluations: ["relevance"] },
    });
    expect(Object.keys(res.json.test_case.expected_outcomes)).toEqual(["zeta label", "alpha label", "mid label"]);
  });

  it("never reports a passed case with a failed metric: a metric that could not be evaluated is passed: null", async () => {
    const { ctx } = await makeWorkspace("editor");
    const { suite } = await makeSuiteWithCases(ctx, 0, { baseUrl: fake.url });
    // relevance cannot be evaluated (its judge answers garbage); coherence can and passes. Only
    // "strict" cases (fluency, fail_on_error) turn such an error into a case error.
    await db.suite.update({
      where: { id: suite.id },
      data: {
        metrics: [
          { metric: "relevance", threshold: 3, scale: 5 },
          { metric: "coherence", threshold: 3, scale: 5 },
          { metric: "fluency", threshold: 3, scale: 5, fail_on_error: true, enabled: false },
        ],
      },
    });
    await createTestCase(ctx, suite.id, { name: "lenient", initial_message: "lenient question", evaluations: ["relevance", "coherence"] });
    await createTestCase(ctx, suite.id, { name: "strict", initial_message: "strict question", evaluations: ["fluency"] });
    fake.addRule({ match: { schemaName: "metric_relevance" }, reply: { content: "not json at all" } });
    fake.addRule({ match: { schemaName: "metric_fluency" }, reply: { content: "not json at all" } });
    fake.addRule({ match: { schemaName: "metric_coherence" }, reply: { json: { reasoning: "clear", score: 4 } } });

    const run = await runToEnd(ctx, suite.id);
    const { data } = await listCaseResults(ctx, run.id, { limit: 10 });
    const byName = Object.fromEntries(data.map((r) => [r.name, r])) as Record<string, CaseResultDto>;
    expect(byName.lenient).toMatchObject({
      status: "passed",
      metrics_passed: 1,
      metrics_total: 2,
      metric_results: [
        { metric_name: "relevance", passed: null, score: null, error: expect.stringMatching(/JSON/) },
        { metric_name: "coherence", passed: true, score: 4, error: null },
      ],
    });
    expect(byName.strict).toMatchObject({
      status: "error",
      error_type: "judge",
      metric_results: [{ metric_name: "fluency", passed: null, error: expect.any(String) }],
    });

    // The spec's rule on the report: passed is false if any metric failed, and no passed result has a failed metric.
    const json = JSON.parse(await reportText(ctx, run.id, "json"));
    for (const r of json.results as { passed: boolean; metric_results: { passed: boolean | null }[] }[]) {
      if (r.metric_results.some((m) => m.passed === false)) expect(r.passed).toBe(false);
    }
    expect(json.results.find((r: { test_name: string }) => r.test_name === "lenient")).toMatchObject({ passed: true });
    // Not evaluated is neither evaluated nor failed in the summary's metric numbers.
    expect(run.summary).toMatchObject({
      metrics_evaluated: { relevance: 0, coherence: 1, fluency: 0 },
      metric_pass_rates: { relevance: 0, coherence: 100 },
    });
    const md = await reportText(ctx, run.id, "markdown");
    expect(md).toMatch(/relevance: error \/ 3 on 1–5 ⚠️ not evaluated/);

    // A result stored when an errored metric said passed: false reads as not evaluated.
    await db.caseResult.update({
      where: { id: byName.lenient!.id },
      data: { metricResults: [{ ...(byName.lenient!.metric_results as object[])[0], passed: false }] },
    });
    const again = await listCaseResults(ctx, run.id, { limit: 10 });
    expect(again.data.find((r) => r.name === "lenient")!.metric_results).toMatchObject([{ metric_name: "relevance", passed: null }]);
  });

  it("reports tools_matched false, not null, for a case that expects tool calls when its agent never ran", async () => {
    const { ctx } = await makeWorkspace("editor");
    const { suite } = await makeSuiteWithCases(ctx, 0, { baseUrl: fake.url });
    // Not runnable (no message, no persona), so skipped without calling the agent.
    await db.testCase.create({
      data: {
        workspaceId: ctx.workspaceId,
        suiteId: suite.id,
        name: "never ran",
        sortOrder: 0,
        expectedToolCalls: [{ tool: "lookup", expected_params: null }],
      },
    });
    await db.testCase.create({ data: { workspaceId: ctx.workspaceId, suiteId: suite.id, name: "no expectations", sortOrder: 1 } });
    await createTestCase(ctx, suite.id, { name: "ran", initial_message: "hello", expected_tool_calls: [{ tool: "lookup" }] });
    const run = await runToEnd(ctx, suite.id);
    const json = JSON.parse(await reportText(ctx, run.id, "json"));
    const byName = Object.fromEntries(json.results.map((r: { test_name: string }) => [r.test_name, r]));
    expect(byName["never ran"]).toMatchObject({ status: "skipped", expected_tools: ["lookup"], tools_matched: false, tool_calls: [] });
    expect(byName["no expectations"]).toMatchObject({ status: "skipped", expected_tools: null, tools_matched: null });
    expect(byName.ran).toMatchObject({ expected_tools: ["lookup"], tools_matched: false });
    // The execution model: if expected_tools is provided, tools_matched is never null.
    for (const r of json.results) if (r.expected_tools) expect(r.tools_matched, r.test_name).not.toBeNull();
    const md = await reportText(ctx, run.id, "markdown");
    expect(md).toContain("**Tools Called**: none ❌ (the agent never ran)");
  });

  it("lets a workspace set the safety cap up to 200 turns", () => {
    expect(workspaceSettingsInput.safeParse({ name: "W", maxTurnsCap: 200 }).success).toBe(true);
    const over = workspaceSettingsInput.safeParse({ name: "W", maxTurnsCap: 201 });
    expect(over.error?.issues[0]).toMatchObject({ path: ["maxTurnsCap"], message: "At most 200" });
  });
});
