import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { getRun, listCaseResults } from "@/lib/runs/service";
import { caseCost, formatUsd } from "@/lib/runs/cost";
import { withRunStack } from "../helpers/run-stack";
import { makeModelConfig, makeSuiteWithCases, makeWorkspace, reportText, runToEnd } from "../helpers/factories";
import type { WorkspaceContext } from "@/lib/auth/roles";

const { fake } = withRunStack();

const persona = { type: "customer", description: "Wants a refund", instructions: "Ask for a refund" };

/**
 * A suite whose agent, simulated user and judge are three model configurations with their own
 * model names (so the fake server's request log tells their calls apart) and, when `priced`, prices.
 */
async function makePricedSuite(ctx: WorkspaceContext, priced: boolean) {
  const tag = Math.random().toString(36).slice(2, 8);
  const made = await makeSuiteWithCases(ctx, 0, { baseUrl: fake.url });
  const agentModel = `agent-${tag}`;
  const simModel = `sim-${tag}`;
  const judgeModel = `judge-${tag}`;
  await db.modelConfig.update({
    where: { id: made.modelConfig.id },
    data: { model: agentModel, ...(priced ? { inputPricePerMtok: 2, outputPricePerMtok: 8 } : {}) },
  });
  const sim = await makeModelConfig(ctx.workspaceId, {
    baseUrl: fake.url,
    model: simModel,
    ...(priced ? { inputPricePerMtok: 1, outputPricePerMtok: 4 } : {}),
  });
  const judge = await makeModelConfig(ctx.workspaceId, {
    baseUrl: fake.url,
    model: judgeModel,
    ...(priced ? { inputPricePerMtok: 3, outputPricePerMtok: 12 } : {}),
  });
  await db.suite.update({ where: { id: made.suite.id }, data: { simulatorModelConfigId: sim.id, llmJudgeModelConfigId: judge.id } });
  await db.testCase.create({
    data: {
      workspaceId: ctx.workspaceId,
      suiteId: made.suite.id,
      name: "refund",
      sortOrder: 0,
      persona,
      initialMessage: "I want a refund",
      maxTurns: 3,
      expectedOutcomes: { "offers a refund": true },
    },
  });
  fake.addRule({
    match: { model: simModel, schemaName: "simulator_turn" },
    reply: {
      json: { message: "ok thanks", should_end: true, end_reason: "satisfied" },
      usage: { prompt_tokens: 200, completion_tokens: 100 },
    },
  });
  fake.addRule({
    match: { model: judgeModel, schemaName: "outcome_verdicts" },
    reply: {
      json: { o1: { reasoning: "Refund offered", evidence_turns: [1], verdict: "pass" } },
      usage: { prompt_tokens: 300, completion_tokens: 50 },
    },
  });
  fake.addRule({
    match: { model: agentModel },
    reply: { content: "I will refund you today.", usage: { prompt_tokens: 1000, completion_tokens: 500 } },
  });
  const calls = (model: string) => fake.requests.filter((r) => r.endpoint === "chat" && r.body?.model === model).length;
  return { ...made, sim, judge, calls: () => ({ agent: calls(agentModel), simulator: calls(simModel), judge: calls(judgeModel) }) };
}

describe("run and case cost", () => {
  it("prices the agent, the simulated user and the judge at the prices snapshotted when the run started", async () => {
    const { ctx } = await makeWorkspace("editor");
    const { suite, modelConfig, sim, judge, calls } = await makePricedSuite(ctx, true);
    const run = await runToEnd(ctx, suite.id);
    expect(run.status).toBe("completed");

    // By hand from the fake server's log: each agent call 1,000 prompt tokens at $2/Mtok + 500 completion at $8/Mtok
    // = $0.006; each simulator call 200 × $1 + 100 × $4 = $0.0006; each judge call 300 × $3 + 50 × $12 = $0.0015.
    const n = calls();
    expect(n.agent).toBeGreaterThanOrEqual(1);
    expect(n.simulator).toBeGreaterThanOrEqual(1);
    expect(n.judge).toBe(1);
    const agent = n.agent * 0.006;
    const simulator = n.simulator * 0.0006;
    const judgeUsd = n.judge * 0.0015;
    const total = agent + simulator + judgeUsd;

    const { data } = await listCaseResults(ctx, run.id, { limit: 10 });
    expect(data[0]!.prompt_tokens).toBe(n.agent * 1000);
    const cost = data[0]!.cost!;
    expect(cost.agent).toBeCloseTo(agent, 9);
    expect(cost.simulator).toBeCloseTo(simulator, 9);
    expect(cost.judge).toBeCloseTo(judgeUsd, 9);
    expect(cost.total).toBeCloseTo(total, 9);
    const row = await db.caseResult.findUniqueOrThrow({ where: { id: data[0]!.id }, select: { costUsd: true } });
    expect(row.costUsd).toBeCloseTo(total, 9);

    const finished = await getRun(ctx, run.id);
    expect(finished.cost).toEqual(cost);
    const runRow = await db.run.findUniqueOrThrow({ where: { id: run.id }, select: { costUsd: true } });
    expect(runRow.costUsd).toBeCloseTo(total, 9);

    // A later price edit never rewrites the run's cost.
    await db.modelConfig.updateMany({
      where: { id: { in: [modelConfig.id, sim.id, judge.id] } },
      data: { inputPricePerMtok: 100, outputPricePerMtok: 100 },
    });
    expect((await getRun(ctx, run.id)).cost).toEqual(cost);

    // Every export carries it.
    const json = JSON.parse(await reportText(ctx, run.id, "json")) as { cost: unknown; results: { cost: unknown }[] };
    expect(json.cost).toEqual(cost);
    expect(json.results[0]!.cost).toEqual(cost);
    const csv = (await reportText(ctx, run.id, "csv")).trim().split("\n");
    const header = csv[0]!.split(",");
    const cells = csv[1]!.split(",");
    expect(Number(cells[header.indexOf("cost_usd")])).toBeCloseTo(total, 9);
    expect(Number(cells[header.indexOf("judge_cost_usd")])).toBeCloseTo(judgeUsd, 9);
    const md = await reportText(ctx, run.id, "markdown");
    expect(md).toContain(`**Cost**: ${formatUsd(cost.total)} (agent ${formatUsd(agent)}, simulated user ${formatUsd(simulator)}`);
    expect(await reportText(ctx, run.id, "junit")).toContain(`<property name="cost_usd" value="${cost.total}"/>`);
  });

  it("leaves the cost unknown (null, never $0.00) when the model configurations have no prices", async () => {
    const { ctx } = await makeWorkspace("editor");
    const { suite, calls } = await makePricedSuite(ctx, false);
    const run = await runToEnd(ctx, suite.id);
    expect(calls().agent).toBeGreaterThanOrEqual(1);
    const { data } = await listCaseResults(ctx, run.id, { limit: 10 });
    expect(data[0]!.cost).toEqual({ agent: null, simulator: null, judge: null, total: null });
    expect((await getRun(ctx, run.id)).cost).toEqual({ agent: null, simulator: null, judge: null, total: null });
    expect(await reportText(ctx, run.id, "markdown")).toContain("**Cost**: — (agent —");
    expect(await reportText(ctx, run.id, "junit")).not.toContain("cost_usd");
  });
});

describe("caseCost", () => {
  const p = { input: 2, output: 8 };
  const used = (purpose: "agent" | "simulator" | "judge", prices: typeof p | null) => ({
    purpose,
    usage: { prompt_tokens: 1000, completion_tokens: 500 },
    prices,
  });

  it("is free for a part that made no call on a priced model, unknown for one on an unpriced model", () => {
    expect(
      caseCost({
        agent: { calls: [used("agent", p)], prices: p },
        simulator: { calls: [], prices: p },
        judge: { calls: [], prices: null },
      }),
    ).toEqual({ agent: 0.006, simulator: 0, judge: null, total: 0.006 });
  });

  it("has no total when a part that used tokens cannot be priced (a metric on a model without prices)", () => {
    expect(
      caseCost({
        agent: { calls: [used("agent", p)], prices: p },
        simulator: { calls: [], prices: p },
        judge: { calls: [used("judge", p), used("judge", null)], prices: p },
      }),
    ).toEqual({ agent: 0.006, simulator: 0, judge: null, total: null });
  });
});
