import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { getRun, listCaseResults, startRun } from "@/lib/runs/service";
import { createComparison, getComparison } from "@/lib/comparisons/service";
import { createMatrix, getMatrix } from "@/lib/matrices/service";
import { ValidationError } from "@/lib/errors";
import type { WorkspaceContext } from "@/lib/auth/roles";
import type { RecordedRequest } from "../fake-openai/server";
import { withRunStack } from "../helpers/run-stack";
import { waitFor, makeChatAgent, makeEvalVariablesSuite, waitUntilFinished } from "../helpers/factories";

/**
 * Where a resolved variable and an explicit setting meet, the explicit one wins: a comparison
 * arm's model configuration, temperature, max tokens, system prompt and agent over every variable
 * source (the agent's defaults, the suite's values, a case's locks); explicit run values over a
 * preset; a matrix's axis values over its preset. Asserted on what the fake server received.
 */

const { fake } = withRunStack();

/** The agent calls the fake received (the judge answers structured requests; these cases have none). */
function agentCalls(question?: string): RecordedRequest[] {
  return fake.requests.filter(
    (r) =>
      r.endpoint === "chat" &&
      !r.body.response_format &&
      (question === undefined ||
        r.body.messages.some((m: { role: string; content: unknown }) => m.role === "user" && m.content === question)),
  );
}

type Setup = Awaited<ReturnType<typeof makeEvalVariablesSuite>>;

/**
 * The Agent Eval set's suite (AIConfiguration defaulting to the agent's own "fake-model"
 * configuration, Temperature defaulting to 0.2), or the same suite without any variable.
 */
async function setup(withVariables: boolean): Promise<Setup> {
  const made = await makeEvalVariablesSuite(fake.url);
  if (!withVariables) await db.agent.update({ where: { id: made.agent.id }, data: { variablesSchema: [] } });
  return made;
}

async function compare(ctx: WorkspaceContext, suiteId: string, body: Record<string, unknown>) {
  const created = await createComparison(ctx, suiteId, { reset_window_ms: 0, baseline: {}, ...body });
  return waitUntilFinished(() => getComparison(ctx, created.id));
}

/** Each arm's agent calls as recorded for its run (both arms ask the same questions). */
async function armRequests(ctx: WorkspaceContext, comparisonId: string) {
  const c = await getComparison(ctx, comparisonId);
  const [baselineCalls, variantCalls] = await Promise.all(
    [c.baseline!.run_id!, c.variant!.run_id!].map((runId) =>
      db.llmCall.findMany({ where: { runId, purpose: "agent" }, select: { request: true, model: true } }),
    ),
  );
  return { comparison: c, baselineCalls: baselineCalls!, variantCalls: variantCalls! };
}

describe.each([
  ["with an AIConfiguration variable defaulting to the baseline's model", true],
  ["without variables", false],
])("comparison arms: explicit settings win (%s)", (_label, withVariables) => {
  it("model_config_id: the variant's requests name the variant's model, the baseline's its own", async () => {
    const { ctx, suite, other } = await setup(withVariables);
    const done = await compare(ctx, suite.id, { variant: { model_config_id: other.id } });
    expect(done.status).toBe("completed");
    // The fake server's log: two questions, each asked once by each model, and nothing else.
    for (const q of ["question 0", "question 1"]) {
      expect(
        agentCalls(q)
          .map((r) => r.body.model)
          .sort(),
      ).toEqual(["fake-model", "model-b"]);
    }
    expect(agentCalls()).toHaveLength(4);
    // The configuration card reads what ran from the recorded calls.
    expect(done.variant!.executed).toEqual({
      agent_calls: 2,
      models: [{ model: "model-b", temperature: withVariables ? 0.2 : null, max_tokens: null, calls: 2 }],
    });
    expect(done.baseline!.executed!.models.map((m) => m.model)).toEqual(["fake-model"]);
    if (withVariables) {
      // The variant's cases record the model they ran with, not the variable's default.
      const { data } = await listCaseResults(ctx, done.variant!.run_id!, { limit: 10 });
      for (const r of data) {
        expect(r.resolved_variables).toMatchObject({ values: { AIConfiguration: "gpt-b" }, sources: { AIConfiguration: "run" } });
      }
    }
  });

  it("temperature and max_tokens reach the variant's requests; the baseline keeps the agent's", async () => {
    const { ctx, suite } = await setup(withVariables);
    const done = await compare(ctx, suite.id, { variant: { temperature: 0.9, max_tokens: 77 } });
    expect(done.status).toBe("completed");
    const { baselineCalls, variantCalls } = await armRequests(ctx, done.id);
    expect(variantCalls).toHaveLength(2);
    for (const c of variantCalls) expect(c.request).toMatchObject({ model: "fake-model", temperature: 0.9, max_tokens: 77 });
    for (const c of baselineCalls) {
      const sent = c.request as { temperature?: number; max_tokens?: number };
      expect(sent.temperature).toBe(withVariables ? 0.2 : undefined);
      expect(sent.max_tokens).toBeUndefined();
    }
    // The fake server saw the same.
    expect(
      agentCalls()
        .map((r) => r.body.temperature ?? null)
        .sort(),
    ).toEqual(withVariables ? [0.2, 0.2, 0.9, 0.9] : [0.9, 0.9, null, null]);
  });

  it("system_prompt and agent_id: the variant's requests carry its prompt, or the other agent's model", async () => {
    const { ctx, suite, other } = await setup(withVariables);
    const prompted = await compare(ctx, suite.id, { variant: { system_prompt: "You answer in French." } });
    expect(prompted.status).toBe("completed");
    const systems = agentCalls().map((r) => r.body.messages[0].content);
    expect(systems.sort()).toEqual([
      "You answer in French.",
      "You answer in French.",
      "You are a helpful assistant.",
      "You are a helpful assistant.",
    ]);
    fake.reset();

    const otherAgent = await makeChatAgent(ctx.workspaceId, other.id, "Other agent.");
    const swapped = await compare(ctx, suite.id, { variant: { agent_id: otherAgent.id } });
    expect(swapped.status).toBe("completed");
    const byPrompt = (p: string) => agentCalls().filter((r) => r.body.messages[0].content === p);
    expect(byPrompt("Other agent.").map((r) => r.body.model)).toEqual(["model-b", "model-b"]);
    expect(byPrompt("You are a helpful assistant.").map((r) => r.body.model)).toEqual(["fake-model", "fake-model"]);
  });
});

describe("comparison arms: explicit settings over every variable source", () => {
  it("the arm's model wins over the suite's value and a case's locked AIConfiguration", async () => {
    const { ctx, suite, other, modelConfig } = await setup(true);
    await db.suite.update({ where: { id: suite.id }, data: { variables: { AIConfiguration: modelConfig.name } } });
    await db.testCase.updateMany({
      where: { suiteId: suite.id, name: "case 0" },
      data: { variables: { AIConfiguration: { exposed: true, locked: true, default_value: modelConfig.name } } },
    });
    const done = await compare(ctx, suite.id, { variant: { model_config_id: other.id, temperature: 0.5 } });
    expect(done.status).toBe("completed");
    const { variantCalls, baselineCalls } = await armRequests(ctx, done.id);
    expect(variantCalls.map((c) => c.model)).toEqual(["model-b", "model-b"]);
    expect(baselineCalls.map((c) => c.model)).toEqual(["fake-model", "fake-model"]);
    expect(agentCalls().filter((r) => r.body.model === "model-b")).toHaveLength(2);
  });

  it("an arm may also set the variable, to the same value; a contradiction is refused naming both", async () => {
    const { ctx, suite, other, modelConfig } = await setup(true);
    const refused = await createComparison(ctx, suite.id, {
      baseline: {},
      variant: { model_config_id: other.id, temperature: 0.4, variables: { AIConfiguration: modelConfig.name, Temperature: 0.9 } },
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ValidationError);
    const issues = (refused as ValidationError).issues;
    expect(issues.map((i) => i.path).sort()).toEqual(["variant.variables.AIConfiguration", "variant.variables.Temperature"]);
    const model = issues.find((i) => i.path.endsWith("AIConfiguration"))!.message;
    expect(model).toContain(JSON.stringify(modelConfig.name));
    expect(model).toContain('"gpt-b"');
    expect(issues.find((i) => i.path.endsWith("Temperature"))!.message).toMatch(/0\.9.*temperature 0\.4/);
    expect(await db.comparison.count({ where: { suiteId: suite.id } })).toBe(0);

    const agreed = await compare(ctx, suite.id, {
      variant: { model_config_id: other.id, temperature: 0.4, variables: { AIConfiguration: "gpt-b", Temperature: 0.4 } },
    });
    expect(agreed.status).toBe("completed");
    expect(agreed.variant!.executed!.models).toEqual([{ model: "model-b", temperature: 0.4, max_tokens: null, calls: 2 }]);
  });

  it("an arm that picks its model through the variable runs that model in every case", async () => {
    const { ctx, suite } = await setup(true);
    const done = await compare(ctx, suite.id, { variant: { variables: { AIConfiguration: "gpt-b" } } });
    expect(done.status).toBe("completed");
    expect(done.variant!.executed!.models.map((m) => [m.model, m.calls])).toEqual([["model-b", 2]]);
  });
});

describe("runs and matrices: explicit values over presets", () => {
  it("a run's own values win over its preset's, and the preset's over the suite's and the defaults", async () => {
    const { ctx, suite, modelConfig } = await setup(true);
    const preset = await db.suitePreset.create({
      data: { workspaceId: ctx.workspaceId, suiteId: suite.id, name: "cold b", values: { AIConfiguration: "gpt-b", Temperature: 0.1 } },
    });
    await db.suite.update({ where: { id: suite.id }, data: { variables: { Temperature: 0.6 } } });
    const run = await startRun(ctx, suite.id, { preset: preset.name, variables: { AIConfiguration: modelConfig.name } }, "api");
    await waitFor(
      () => getRun(ctx, run.id),
      (r) => r.status === "completed",
    );
    expect(agentCalls().map((r) => [r.body.model, r.body.temperature])).toEqual([
      ["fake-model", 0.1],
      ["fake-model", 0.1],
    ]);
  });

  it("a matrix's axis values win over its preset's, and the preset applies to what the axes leave", async () => {
    const { ctx, suite } = await setup(true);
    await db.suitePreset.create({
      data: { workspaceId: ctx.workspaceId, suiteId: suite.id, name: "b", values: { AIConfiguration: "gpt-b", Temperature: 0.1 } },
    });
    const matrix = await createMatrix(ctx, suite.id, { preset: "b", variables: { Temperature: [0.3, 0.8] } });
    await waitFor(
      () => getMatrix(ctx, matrix.id),
      (m) => m.status === "completed",
      20_000,
    );
    expect(
      agentCalls()
        .map((r) => `${r.body.model}@${r.body.temperature}`)
        .sort(),
    ).toEqual(["model-b@0.3", "model-b@0.3", "model-b@0.8", "model-b@0.8"]);
  });

  it("a matrix refuses an unknown preset, naming it", async () => {
    const { ctx, suite } = await setup(true);
    const refused = await createMatrix(ctx, suite.id, { preset: "nope", variables: { Temperature: [0.3] } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).issues.map((i) => i.path)).toEqual(["preset"]);
  });
});
