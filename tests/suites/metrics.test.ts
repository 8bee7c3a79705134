import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createSuite, getSuite, updateSuite } from "@/lib/suites/service";
import { startRun } from "@/lib/runs/service";
import { POST as createRoute } from "@/app/api/v1/suites/route";
import { GET as getRoute, PATCH as patchRoute } from "@/app/api/v1/suites/[id]/route";
import { makeApiKey, makeWorkspace, makeAgent, makeCases, makeModelConfig } from "../helpers/factories";
import { call } from "../helpers/api";
import { expectCreateRefused, issuesOf, paths } from "./helpers";
import { METRIC_DEFAULTS } from "../evaluation/helpers";

async function setup() {
  const { ctx, workspace } = await makeWorkspace("editor");
  const agent = await makeAgent(workspace.id, { variables: [] });
  const judge = await makeModelConfig(workspace.id, { name: "Judge" });
  const sim = await makeModelConfig(workspace.id, { name: "Simulator" });
  const other = await makeWorkspace("owner");
  const foreign = await makeModelConfig(other.workspace.id);
  return { ctx, agent, judge, sim, foreign };
}

// The execution model: the threshold is on the metric's own scale (4 of 1..5).
const relevance = { metric: "relevance", threshold: 4 };

describe("suite metrics and simulator model", () => {
  it("defaults to no metrics and the judge as simulator; stores metrics with spec defaults", async () => {
    const { ctx, agent, judge, sim } = await setup();
    const plain = await createSuite(ctx, { agent_id: agent.id, name: "Plain" });
    expect(plain).toMatchObject({ simulator_model_config_id: null, metrics: [] });

    const s = await createSuite(ctx, {
      agent_id: agent.id,
      name: "Judged",
      llm_judge_model_config_id: judge.id,
      simulator_model_config_id: sim.id,
      metrics: [
        relevance,
        {
          metric: "politeness",
          custom_prompt: "Is the reply polite? {{response}}",
          threshold: null,
          scale: 10,
          model: sim.id,
          fail_on_error: true,
          retry_on_failure: 3,
          timeout_ms: 5000,
          enabled: false,
        },
      ],
    });
    expect(s.simulator_model_config_id).toBe(sim.id);
    expect(s.metrics).toEqual([
      { ...METRIC_DEFAULTS, metric: "relevance", threshold: 4 },
      {
        metric: "politeness",
        threshold: null,
        enabled: false,
        scale: 10,
        model: sim.id,
        fail_on_error: true,
        retry_on_failure: 3,
        timeout_ms: 5000,
        custom_prompt: "Is the reply polite? {{response}}",
      },
    ]);
    expect((await getSuite(ctx, s.id)).metrics).toEqual(s.metrics);
    const row = await db.suite.findUniqueOrThrow({ where: { id: s.id }, select: { simulatorModelConfigId: true, metrics: true } });
    expect(row).toEqual({ simulatorModelConfigId: sim.id, metrics: s.metrics });
  });

  it.each([
    [{ simulator_model_config_id: "nope" }, "simulator_model_config_id"],
    [{ metrics: "relevance" }, "metrics"],
    [{ metrics: [{ metric: "" }] }, "metrics.0.metric"],
    [{ metrics: [{ metric: "has space", custom_prompt: "x" }] }, "metrics.0.metric"],
    [{ metrics: [{ metric: "custom" }] }, "metrics.0.custom_prompt"],
    [{ metrics: [{ metric: "politeness", custom_prompt: "  " }] }, "metrics.0.custom_prompt"],
    [{ metrics: [relevance, { metric: "coherence", threshold: 6 }] }, "metrics.1.threshold"],
    [{ metrics: [{ metric: "fluency", threshold: -0.1 }] }, "metrics.0.threshold"],
    [{ metrics: [{ metric: "fluency", threshold: "high" }] }, "metrics.0.threshold"],
    [{ metrics: [{ metric: "fluency", scale: 1 }] }, "metrics.0.scale"],
    [{ metrics: [{ metric: "fluency", scale: 4.5 }] }, "metrics.0.scale"],
    [{ metrics: [{ metric: "fluency", retry_on_failure: 0 }] }, "metrics.0.retry_on_failure"],
    [{ metrics: [{ metric: "fluency", retry_on_failure: 4 }] }, "metrics.0.retry_on_failure"],
    [{ metrics: [{ metric: "fluency", timeout_ms: 0 }] }, "metrics.0.timeout_ms"],
    [{ metrics: [{ metric: "fluency", model: "not-a-uuid" }] }, "metrics.0.model"],
    [{ metrics: [{ metric: "fluency", enabled: "yes" }] }, "metrics.0.enabled"],
    [{ metrics: [{ metric: "fluency", fail_on_error: 1 }] }, "metrics.0.fail_on_error"],
    [{ metrics: [relevance, relevance] }, "metrics.1.metric"],
    [{ metrics: Array.from({ length: 21 }, (_, i) => ({ metric: `m${i}`, custom_prompt: "x" })) }, "metrics"],
  ])("refuses %j at %s", async (fields, path) => {
    const { ctx, agent } = await setup();
    await expectCreateRefused(ctx, agent.id, fields, path);
  });

  it("refuses model configurations of another workspace for the simulator and metric overrides", async () => {
    const { ctx, agent, judge, foreign } = await setup();
    const issues = await issuesOf(
      createSuite(ctx, {
        agent_id: agent.id,
        name: "S",
        llm_judge_model_config_id: foreign.id,
        simulator_model_config_id: foreign.id,
        metrics: [relevance, { metric: "fluency", model: judge.id }, { metric: "coherence", model: foreign.id }],
      }),
    );
    expect(issues).toEqual([
      { path: "llm_judge_model_config_id", message: "Choose a model configuration of this workspace" },
      { path: "simulator_model_config_id", message: "Choose a model configuration of this workspace" },
      { path: "metrics.2.model", message: "Choose a model configuration of this workspace" },
    ]);
  });

  it("patches metrics and the simulator only when given, replacing the whole metric list", async () => {
    const { ctx, agent, sim, foreign } = await setup();
    const s = await createSuite(ctx, { agent_id: agent.id, name: "S", simulator_model_config_id: sim.id, metrics: [relevance] });
    const renamed = await updateSuite(ctx, s.id, { name: "S2" });
    expect(renamed).toMatchObject({ simulator_model_config_id: sim.id, metrics: [{ metric: "relevance", threshold: 4 }] });

    const replaced = await updateSuite(ctx, s.id, { metrics: [{ metric: "fluency" }] });
    expect(replaced.metrics.map((m) => m.metric)).toEqual(["fluency"]);
    expect(replaced.simulator_model_config_id).toBe(sim.id);

    expect(paths(await issuesOf(updateSuite(ctx, s.id, { metrics: [{ metric: "fluency", model: foreign.id }] })))).toEqual([
      "metrics.0.model",
    ]);
    expect(paths(await issuesOf(updateSuite(ctx, s.id, { metrics: null })))).toEqual(["metrics"]);

    const cleared = await updateSuite(ctx, s.id, { simulator_model_config_id: null, metrics: [] });
    expect(cleared).toMatchObject({ simulator_model_config_id: null, metrics: [] });
  });

  it("keeps schedule_time for hourly suites (its minutes) but not for manual ones", async () => {
    const { ctx, agent } = await setup();
    const hourly = await createSuite(ctx, { agent_id: agent.id, name: "H", schedule_type: "hourly", schedule_time: "00:15" });
    expect(hourly).toMatchObject({ schedule_type: "hourly", schedule_time: "00:15", schedule_day_of_week: null });
    expect(await updateSuite(ctx, hourly.id, { schedule_type: "manual" })).toMatchObject({ schedule_time: null });
  });

  it("is snapshotted by a run: metrics as stored, the simulator model or the judge's when unset", async () => {
    const { ctx, agent, judge, sim } = await setup();
    const s = await createSuite(ctx, {
      agent_id: agent.id,
      name: "S",
      llm_judge_model_config_id: judge.id,
      simulator_model_config_id: sim.id,
      metrics: [relevance],
    });
    await makeCases(ctx.workspaceId, s.id, ["active"]);
    await db.testCase.updateMany({ where: { suiteId: s.id }, data: { initialMessage: "hi" } });
    const run = await startRun(ctx, s.id, {}, "manual");
    const snap = (await db.run.findUniqueOrThrow({ where: { id: run.id }, select: { evalSnapshot: true } })).evalSnapshot as Record<
      string,
      { id?: string }
    >;
    expect(snap.judge_model_config?.id).toBe(judge.id);
    expect(snap.simulator_model_config?.id).toBe(sim.id);
    expect(snap.metrics).toEqual(s.metrics);

    await updateSuite(ctx, s.id, { simulator_model_config_id: null });
    const second = await startRun(ctx, s.id, {}, "manual");
    const snap2 = (await db.run.findUniqueOrThrow({ where: { id: second.id }, select: { evalSnapshot: true } })).evalSnapshot as Record<
      string,
      { id?: string }
    >;
    expect(snap2.simulator_model_config?.id).toBe(judge.id);
  });
});

describe("API: metrics and simulator model", () => {
  it("creates, reads and patches them, with issues at metrics.<i>.<field>", async () => {
    const { agent, sim, foreign, ctx } = await setup();
    const token = await makeApiKey(ctx.workspaceId, "editor");
    const created = await call(createRoute, {
      url: "/api/v1/suites",
      method: "POST",
      token,
      body: { agent_id: agent.id, name: "Api", simulator_model_config_id: sim.id, metrics: [relevance] },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      simulator_model_config_id: sim.id,
      metrics: [{ metric: "relevance", threshold: 4, scale: 5 }],
    });

    const bad = await call(patchRoute, {
      method: "PATCH",
      token,
      params: { id: created.json.id },
      body: {
        metrics: [
          { metric: "custom", threshold: 9 },
          { metric: "fluency", model: foreign.id },
        ],
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.issues.map((i: { path: string }) => i.path)).toEqual(["metrics.0.threshold", "metrics.0.custom_prompt"]);
    const foreignModel = await call(patchRoute, {
      method: "PATCH",
      token,
      params: { id: created.json.id },
      body: { metrics: [{ metric: "fluency", model: foreign.id }] },
    });
    expect(foreignModel.json.error.issues).toEqual([
      { path: "metrics.0.model", message: "Choose a model configuration of this workspace" },
    ]);
    const foreignSim = await call(patchRoute, {
      method: "PATCH",
      token,
      params: { id: created.json.id },
      body: { simulator_model_config_id: foreign.id },
    });
    expect(foreignSim.json.error.issues).toEqual([
      { path: "simulator_model_config_id", message: "Choose a model configuration of this workspace" },
    ]);

    const got = await call(getRoute, { token, params: { id: created.json.id } });
    expect(got.json).toMatchObject({ simulator_model_config_id: sim.id, metrics: [{ metric: "relevance" }] });
  });
});
