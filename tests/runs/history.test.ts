import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { changesSincePreviousRun, getRun, listRuns, startRun } from "@/lib/runs/service";
import { runChangeDetails } from "@/lib/runs/change-details";
import { agentDiff } from "@/lib/runs/changes";
import { getSuiteAnalytics, listSuiteRunsPage } from "@/lib/runs/analytics";
import { createComparison, getComparison } from "@/lib/comparisons/service";
import { createMatrix, getMatrix } from "@/lib/matrices/service";
import { listSuites } from "@/lib/suites/service";
import { listAlerts, pinBaseline } from "@/lib/alerts/service";
import { ConflictError, ValidationError } from "@/lib/errors";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { withRunStack } from "../helpers/run-stack";
import { makeWorkspace, makeSuiteWithCases, waitFor, variable, setAgentVariables, runToEnd } from "../helpers/factories";

/**
 * A suite's history is its ordinary runs: comparison arms and matrix combinations never reach the
 * trend, the latest run, the suites list, the regression baseline or "changes since the previous
 * run". Runs are numbered per suite; a verdict that flipped says whether the case, the agent,
 * both or neither changed; runs carry their caller's metadata.
 */

const { fake } = withRunStack({ executor: { heartbeatMs: 50 } });

/** Two single-turn cases that pass on the fake's default reply ("Fake reply: question i"). */
async function setup() {
  const { ctx } = await makeWorkspace("editor");
  const made = await makeSuiteWithCases(ctx, 2, {
    baseUrl: fake.url,
    caseData: () => ({ checks: [{ type: "contains_phrases", phrases: ["Fake reply"], case_sensitive: false }] }),
  });
  return { ctx, ...made };
}

/** The suite's alerts, newest first, once `count` exist (the alert is raised just after the run's status is committed). */
async function alertsOf(ctx: WorkspaceContext, count: number) {
  return (
    await waitFor(
      () => listAlerts(ctx, { limit: 10 }),
      (page) => page.data.length >= count,
    )
  ).data;
}

const ran = (ctx: WorkspaceContext, suiteId: string, body: Record<string, unknown> = {}) => runToEnd(ctx, suiteId, body, "api");

describe("run numbers", () => {
  it("count each suite's runs from #1, experiments included, and are never reused", async () => {
    const { ctx, suite, agent, modelConfig } = await setup();
    const first = await ran(ctx, suite.id);
    const second = await ran(ctx, suite.id);
    expect([first.number, second.number]).toEqual([1, 2]);
    const other = await db.suite.create({
      data: { workspaceId: ctx.workspaceId, agentId: agent.id, name: "other", llmJudgeModelConfigId: modelConfig.id },
    });
    await db.testCase.create({ data: { workspaceId: ctx.workspaceId, suiteId: other.id, name: "c", initialMessage: "hi" } });
    expect((await ran(ctx, other.id)).number).toBe(1);

    const comparison = await createComparison(ctx, suite.id, { baseline: {}, variant: { temperature: 0.3 }, reset_window_ms: 0 });
    const arms = await Promise.all([comparison.baseline!.run_id!, comparison.variant!.run_id!].map((id) => getRun(ctx, id)));
    expect(arms.map((a) => [a.number, a.experiment])).toEqual([
      [3, true],
      [4, true],
    ]);
    await db.run.delete({ where: { id: second.id } });
    expect((await ran(ctx, suite.id)).number).toBe(5);
  });

  it("are unique when runs of one suite start at once", async () => {
    const { ctx, suite } = await setup();
    const runs = await Promise.all(Array.from({ length: 6 }, () => startRun(ctx, suite.id, {}, "api")));
    expect(runs.map((r) => r.number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe("the suite's history is ordinary runs", () => {
  it("keeps comparison arms and matrix combinations out of the trend, latest run, run list, suites list and changes", async () => {
    const { ctx, suite, agent } = await setup();
    await setAgentVariables(agent.id, [variable("Temperature", "number")]);
    const one = await ran(ctx, suite.id);
    // The second ordinary run fails one case.
    fake.addRule({ match: { lastUserContains: "question 1" }, reply: { content: "nope" } });
    const two = await ran(ctx, suite.id);
    fake.reset();
    const comparison = await createComparison(ctx, suite.id, { baseline: {}, variant: { temperature: 0.3 }, reset_window_ms: 0 });
    await waitFor(
      () => getComparison(ctx, comparison.id),
      (c) => c.status === "completed",
      20_000,
    );
    const matrix = await createMatrix(ctx, suite.id, { variables: { Temperature: [0.1, 0.2] } });
    await waitFor(
      () => getMatrix(ctx, matrix.id),
      (m) => m.status === "completed",
      20_000,
    );
    // Every experiment run passed both cases; the history's latest run passed one of two.
    const analytics = await getSuiteAnalytics(ctx, suite.id);
    expect(analytics.trend.map((p) => [p.number, p.pass_rate])).toEqual([
      [one.number, 100],
      [two.number, 50],
    ]);
    expect(analytics.latest).toMatchObject({ id: two.id, number: 2, pass_rate: 50 });

    const history = await listSuiteRunsPage(ctx, suite.id);
    expect(history.data.map((r) => r.number)).toEqual([2, 1]);
    const experiments = await listSuiteRunsPage(ctx, suite.id, { kind: "experiment" });
    expect(experiments.data.map((r) => [r.number, r.experiment])).toEqual([
      [6, true],
      [5, true],
      [4, true],
      [3, true],
    ]);
    expect((await listSuiteRunsPage(ctx, suite.id, { kind: "all" })).data).toHaveLength(6);
    // The REST list: history by default, experiments on request.
    expect((await listRuns(ctx, suite.id, { limit: 50 })).data.map((r) => r.number)).toEqual([2, 1]);
    expect((await listRuns(ctx, suite.id, { kind: "experiment", limit: 50 })).data.map((r) => r.number)).toEqual([6, 5, 4, 3]);

    const [listed] = (await listSuites(ctx, { limit: 50 })).data.filter((s) => s.id === suite.id);
    expect(listed).toMatchObject({ last_pass_rate: 50, recent_pass_rates: [100, 50] });

    // A matrix combination's changes compare with the history's latest run, not another experiment.
    const combination = (await getMatrix(ctx, matrix.id)).combinations[1]!;
    expect((await changesSincePreviousRun(ctx, combination.run_id!)).previous_run_id).toBe(two.id);
    // Only runs of the history can be pinned as the regression baseline.
    await expect(pinBaseline(ctx, combination.run_id!)).rejects.toBeInstanceOf(ConflictError);
    await expect(pinBaseline(ctx, comparison.baseline!.run_id!)).rejects.toBeInstanceOf(ConflictError);

    // The next ordinary run's regression baseline and changes are run #2, past every experiment.
    const three = await ran(ctx, suite.id);
    const changes = await changesSincePreviousRun(ctx, three.id);
    expect(changes).toMatchObject({ previous_run_id: two.id, previous_run_number: 2 });
    expect(changes.fixes.map((f) => f.name)).toEqual(["case 1"]);
  });
});

describe("why a verdict flipped", () => {
  it("the case changed: the changes card, the alert's first line and the webhook text say so", async () => {
    const { ctx, suite } = await setup();
    const webhook = await db.webhook.create({
      data: { workspaceId: ctx.workspaceId, url: "http://127.0.0.1:9/hook", events: ["alert.raised"], secretEncrypted: "x", enabled: true },
    });
    await ran(ctx, suite.id);
    // Edit case 0's check: it now asks for a phrase the agent never says.
    await db.testCase.updateMany({
      where: { suiteId: suite.id, name: "case 0" },
      data: { checks: [{ type: "contains_phrases", phrases: ["banana"], case_sensitive: false }] },
    });
    const second = await ran(ctx, suite.id);
    const changes = await changesSincePreviousRun(ctx, second.id);
    expect(changes).toMatchObject({ agent_changed: false, evaluation_changed: false });
    expect(changes.regressions.map((c) => [c.name, c.case_changed, c.cause])).toEqual([["case 0", true, "test"]]);

    const [alert] = await alertsOf(ctx, 1);
    expect(alert).toMatchObject({
      run_id: second.id,
      run_number: 2,
      baseline_run_number: 1,
      agent_changed: false,
      explanation: "The flipped case was edited since the baseline run: the test changed, not the agent.",
    });
    expect(alert!.flipped_cases).toMatchObject([{ name: "case 0", case_changed: true, cause: "test" }]);
    const delivery = await waitFor(
      () => db.webhookDelivery.findFirst({ where: { webhookId: webhook.id } }),
      (d) => d !== null,
    );
    expect((delivery!.payload as { text: string }).text).toContain("run #2");
    expect((delivery!.payload as { text: string }).text).toContain("the test changed, not the agent");

    // What changed, field by field: the case's checks; the agent is the same.
    const details = await runChangeDetails(ctx, second.id);
    expect(details.agent_fields).toEqual([]);
    expect(details.case_fields).toEqual([
      {
        test_case_id: changes.regressions[0]!.test_case_id,
        name: "case 0",
        fields: [
          {
            field: "checks",
            before: [{ type: "contains_phrases", phrases: ["Fake reply"], case_sensitive: false }],
            after: [{ type: "contains_phrases", phrases: ["banana"], case_sensitive: false }],
          },
        ],
      },
    ]);
  });

  it("the agent changed: its system prompt as the diff; neither changed: possibly flaky", async () => {
    const { ctx, suite, agent } = await setup();
    const first = await ran(ctx, suite.id);
    await db.agent.update({ where: { id: agent.id }, data: { systemPrompt: "You are a terse assistant. BREAK" } });
    fake.addRule({ match: { anyContains: "BREAK", lastUserContains: "question 1" }, reply: { content: "nope" } });
    const second = await ran(ctx, suite.id);
    const changes = await changesSincePreviousRun(ctx, second.id);
    expect(changes).toMatchObject({ previous_run_id: first.id, agent_changed: true, evaluation_changed: false });
    expect(changes.regressions.map((c) => [c.name, c.case_changed, c.cause])).toEqual([["case 1", false, "agent"]]);
    const details = await runChangeDetails(ctx, second.id);
    expect(details.agent_fields).toEqual([
      { field: "system_prompt", before: "You are a helpful assistant.", after: "You are a terse assistant. BREAK" },
    ]);
    expect(details.case_fields).toEqual([]);
    const [alert] = await alertsOf(ctx, 1);
    expect(alert!.explanation).toBe("The agent changed since the baseline run and no flipped case was edited.");

    // Same agent, same cases, case 0 flips anyway.
    fake.reset();
    fake.addRule({ match: { anyContains: "BREAK", lastUserContains: "question 1" }, reply: { content: "nope" } });
    const third = await ran(ctx, suite.id);
    fake.addRule({ match: { lastUserContains: "question 0" }, reply: { content: "nope" } });
    const fourth = await ran(ctx, suite.id);
    expect((await changesSincePreviousRun(ctx, fourth.id)).regressions.map((c) => [c.name, c.cause])).toEqual([["case 0", "neither"]]);
    expect((await changesSincePreviousRun(ctx, third.id)).fixes).toEqual([]);
    const alerts = await alertsOf(ctx, 2);
    expect(alerts.find((a) => a.run_id === fourth.id)!.explanation).toBe(
      "Neither the agent nor any flipped case changed since the baseline run: possibly flaky.",
    );
  });

  it("hashes ignore what does not shape a verdict: a renamed or retagged case is not a change", async () => {
    const { ctx, suite } = await setup();
    const first = await ran(ctx, suite.id);
    await db.testCase.updateMany({ where: { suiteId: suite.id, name: "case 0" }, data: { name: "case zero", tags: ["smoke"] } });
    const second = await ran(ctx, suite.id);
    const hashes = await db.caseResult.findMany({
      where: { runId: { in: [first.id, second.id] } },
      select: { runId: true, position: true, caseHash: true },
    });
    const of = (runId: string, position: number) => hashes.find((h) => h.runId === runId && h.position === position)!.caseHash;
    expect(of(first.id, 0)).toMatch(/^[0-9a-f]{32}$/);
    expect(of(second.id, 0)).toBe(of(first.id, 0));
    expect(of(second.id, 1)).toBe(of(first.id, 1));
    expect(of(first.id, 0)).not.toBe(of(first.id, 1));
    expect(second.agent_hash).toBe(first.agent_hash);
    expect(second.eval_hash).toBe(first.eval_hash);
  });

  it("hash the agent's effective parameters, as the field diff compares them", async () => {
    const hash = async (agent: unknown) =>
      (await db.$queryRaw<{ h: string }[]>`SELECT assay_agent_hash(${JSON.stringify(agent)}::jsonb, '{"values": {}}'::jsonb) AS h`)[0]!.h;
    const model = { base_url: "http://x/v1", model: "m", id: "a", name: "A" };
    // An override of 0.2 over a default of 0.7 sends what a default of 0.2 sends.
    const overridden = await hash({ kind: "chat", model_config: { ...model, temperature: 0.7 }, overrides: { temperature: 0.2 } });
    expect(await hash({ kind: "chat", model_config: { ...model, id: "b", name: "B", temperature: 0.2 }, overrides: null })).toBe(
      overridden,
    );
    expect(await hash({ kind: "chat", model_config: { ...model, temperature: 0.7 }, overrides: { temperature: null } })).not.toBe(
      overridden,
    );
    expect(
      agentDiff(
        { model_config: { ...model, temperature: 0.7 }, overrides: { temperature: 0.2 } },
        { model_config: { ...model, temperature: 0.2 } },
        null,
        null,
      ),
    ).toEqual([]);
  });
});

describe("run metadata", () => {
  it("is stored from the API, shown on the run and the trend, and refused when malformed, naming the field", async () => {
    const { ctx, suite } = await setup();
    const meta = { commit: "abc123", branch: "main", build_url: "https://ci.example/build/7" };
    const run = await ran(ctx, suite.id, { metadata: meta });
    expect(run.metadata).toEqual(meta);
    expect((await getSuiteAnalytics(ctx, suite.id)).trend[0]!.metadata).toEqual(meta);
    expect((await listSuiteRunsPage(ctx, suite.id)).data[0]!.metadata).toEqual(meta);

    const refuse = async (metadata: unknown) => {
      const err = await startRun(ctx, suite.id, { metadata }, "api").catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      return (err as ValidationError).issues.map((i) => i.path);
    };
    expect(await refuse(Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, "v"])))).toEqual(["metadata"]);
    expect(await refuse({ commit: 42 })).toEqual(["metadata.commit"]);
    expect(await refuse({ "bad key!": "v" })).toEqual(["metadata.bad key!"]);
    expect(await refuse({ commit: "x".repeat(2001) })).toEqual(["metadata.commit"]);
  });
});
