import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { getRun, startRun } from "@/lib/runs/service";
import { ValidationError } from "@/lib/errors";
import { withRunStack } from "../helpers/run-stack";
import { waitFor, makeEvalVariablesSuite } from "../helpers/factories";

const { fake } = withRunStack();

/** A suite whose agent declares the variables model's default Agent Eval variables (AIConfiguration, Temperature). */
async function setup() {
  return makeEvalVariablesSuite(fake.url);
}

describe("variables with effects (the variables model)", () => {
  it("AIConfiguration selects the model configuration by name and Temperature reaches the request", async () => {
    const { ctx, suite } = await setup();
    const run = await startRun(ctx, suite.id, { variables: { AIConfiguration: "gpt-b", Temperature: 0.3 } }, "api");
    expect(run.agent_snapshot).toMatchObject({ model_config: { name: "gpt-b", model: "model-b" } });
    await waitFor(
      () => getRun(ctx, run.id),
      (r) => r.status === "completed",
    );
    const agentCalls = fake.requests.filter((r) => r.endpoint === "chat" && r.body.model === "model-b");
    expect(agentCalls).toHaveLength(2);
    expect(agentCalls.every((r) => r.body.temperature === 0.3)).toBe(true);
  });

  it("the agent's own model config is used without the variable, and an unknown name is refused naming the variable", async () => {
    const { ctx, suite, modelConfig, agent } = await setup();
    const run = await startRun(ctx, suite.id, {}, "api");
    expect(run.agent_snapshot).toMatchObject({ model_config: { id: modelConfig.id } });
    // A name among the possible values that no model configuration carries (renamed since).
    await db.modelConfig.update({ where: { id: modelConfig.id }, data: { name: "renamed" } });
    const error = await startRun(ctx, suite.id, {}, "api").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.path)).toEqual(["variables.AIConfiguration"]);
    expect(await db.run.count({ where: { suiteId: suite.id, agentSnapshot: { path: ["id"], equals: agent.id } } })).toBe(1);
  });
});
