import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { cancelMatrix, createMatrix, getMatrix, listMatrices, matrixTable } from "@/lib/matrices/service";
import { listSuiteRunsPage } from "@/lib/runs/analytics";
import type { MatrixDto } from "@/lib/matrices/dto";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { ConflictError, ValidationError } from "@/lib/errors";
import { withRunStack } from "../helpers/run-stack";
import {
  makeWorkspace,
  makeSuiteWithCases,
  waitFor,
  variable,
  setAgentVariables,
  waitUntilFinished,
  makeModelConfig,
} from "../helpers/factories";

/**
 * Matrix runs end to end: each combination is an ordinary run executed by a real Executor
 * against the fake OpenAI server on loopback, so the model and temperature the fake receives
 * per run prove the variables took effect.
 */

const { fake } = withRunStack({ executor: { heartbeatMs: 50 } });

const yesCheck = [{ type: "contains_phrases", phrases: ["yes"], case_sensitive: false }];
const VARIABLES = [
  variable("AIConfiguration", "string", { display_name: "AI Configuration" }),
  variable("Temperature", "number"),
  variable("Tone", "string", { value_source: "static", possible_values: [{ value: "formal" }, { value: "casual" }] }),
];

/** A suite of `count` cases (a "yes" check) whose agent declares AIConfiguration/Temperature/Tone; two named model configurations. */
async function setup(count: number, role: "editor" | "viewer" = "editor") {
  const { ctx } = await makeWorkspace(role === "viewer" ? "editor" : role);
  const made = await makeSuiteWithCases(ctx, count, { baseUrl: fake.url, caseData: () => ({ checks: yesCheck }) });
  const tag = Math.random().toString(36).slice(2, 8);
  const a = await makeModelConfig(ctx.workspaceId, {
    name: `gpt-a-${tag}`,
    baseUrl: fake.url,
    model: "model-a",
    inputPricePerMtok: 1,
    outputPricePerMtok: 4,
  });
  const b = await makeModelConfig(ctx.workspaceId, { name: `gpt-b-${tag}`, baseUrl: fake.url, model: "model-b" });
  const judge = await makeModelConfig(ctx.workspaceId, { name: `judge-${tag}`, baseUrl: fake.url, model: "judge-model" });
  await setAgentVariables(made.agent.id, VARIABLES);
  await db.suite.update({ where: { id: made.suite.id }, data: { llmJudgeModelConfigId: judge.id } });
  return { ctx, ...made, a, b };
}

async function finished(ctx: WorkspaceContext, id: string, timeoutMs = 20_000): Promise<MatrixDto> {
  return waitUntilFinished(() => getMatrix(ctx, id), timeoutMs);
}

/** The Matrix row once its stored status is `status`. */
function storedMatrix(id: string, status: string) {
  return waitFor(
    () => db.matrix.findUniqueOrThrow({ where: { id } }),
    (m) => m.status === status,
  );
}

async function validationIssues(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ValidationError);
  return (err as ValidationError).issues;
}

describe("matrix runs against the fake OpenAI server", () => {
  it("2×2 AIConfiguration × Temperature: one run per combination, each seen by the fake with its model and temperature; stats, cost and best", async () => {
    const { ctx, suite, a, b } = await setup(3);
    fake.setLatency(20);
    fake.addRule({ match: { model: "model-a" }, reply: { content: "Yes, indeed.", usage: { prompt_tokens: 30, completion_tokens: 10 } } });
    fake.addRule({ match: { model: "model-b" }, reply: { content: "No.", usage: { prompt_tokens: 50, completion_tokens: 5 } } });

    const created = await createMatrix(ctx, suite.id, {
      name: "Models × temperature",
      variables: { AIConfiguration: [a.name, b.name], Temperature: [0, 0.7] },
    });
    expect(created).toMatchObject({ name: "Models × temperature", total_combinations: 4, repetitions: 1 });
    expect(["pending", "running"]).toContain(created.status);
    expect(created.combinations.map((c) => c.values)).toEqual([
      { AIConfiguration: a.name, Temperature: 0 },
      { AIConfiguration: a.name, Temperature: 0.7 },
      { AIConfiguration: b.name, Temperature: 0 },
      { AIConfiguration: b.name, Temperature: 0.7 },
    ]);
    // Labels keep the axes' order (jsonb would sort the keys: "Temperature" before "AIConfiguration").
    expect(created.combinations[1]!.label).toBe(`AIConfiguration="${a.name}", Temperature=0.7`);
    expect(Object.keys(created.axes)).toEqual(["AIConfiguration", "Temperature"]);
    const runs = await db.run.findMany({ where: { matrixId: created.id }, orderBy: { combinationIndex: "asc" } });
    expect(runs.map((r) => r.combinationIndex)).toEqual([0, 1, 2, 3]);
    expect(runs.map((r) => r.id)).toEqual(created.combinations.map((c) => c.run_id));
    // Each combination names its run by the run's number, as the heat map's headings link it.
    expect(created.combinations.map((c) => c.run_number)).toEqual(runs.map((r) => r.number));
    expect(new Set(runs.map((r) => r.number)).size).toBe(4);
    expect(runs.every((r) => r.selectionKey === null && r.totalCases === 3)).toBe(true);

    const done = await finished(ctx, created.id);
    expect(done.status).toBe("completed");

    // The fake saw each combination's model and temperature, once per case.
    for (const c of done.combinations) {
      const model = c.values.AIConfiguration === a.name ? "model-a" : "model-b";
      const seen = fake.requests.filter(
        (r) => r.endpoint === "chat" && r.body.model === model && r.body.temperature === c.values.Temperature,
      );
      expect(seen, c.label).toHaveLength(3);
    }

    const [a0, a7, b0, b7] = done.combinations;
    for (const c of [a0!, a7!]) {
      expect(c).toMatchObject({
        status: "completed",
        passed: 3,
        failed: 0,
        errors: 0,
        pass_rate: 100,
        total_cases: 3,
        completed_cases: 3,
        mean_total_tokens: 40,
        prompt_tokens: 90,
        completion_tokens: 30,
        // (90 × 1 + 30 × 4) / 1e6
        estimated_cost: 0.00021,
        model: { name: a.name, model: "model-a" },
      });
      expect(c.latency_p50_ms).toBeGreaterThanOrEqual(15);
      expect(c.latency_p95_ms).toBeGreaterThanOrEqual(c.latency_p50_ms!);
    }
    for (const c of [b0!, b7!]) {
      // No prices on gpt-b: no estimate.
      expect(c).toMatchObject({ passed: 0, failed: 3, pass_rate: 0, mean_total_tokens: 55, estimated_cost: null });
    }
    expect(done.best_combination).toMatchObject({ index: expect.any(Number), pass_rate: 100, estimated_cost: 0.00021 });
    expect([0, 1]).toContain(done.best_combination!.index);

    // The heat map: cases in suite order, one cell per combination linking to a case result.
    const table = await matrixTable(ctx, created.id);
    expect(table.truncated).toBe(false);
    expect(table.cases.map((r) => r.name)).toEqual(["case 0", "case 1", "case 2"]);
    for (const row of table.cases) {
      expect(row.cells.map((c) => [c.index, c.status])).toEqual([
        [0, "passed"],
        [1, "passed"],
        [2, "failed"],
        [3, "failed"],
      ]);
      expect(row.cells.every((c) => c.case_result_id && c.total === 1)).toBe(true);
    }
    // The stored status followed the runs (finalizeRunIfDone's hook), and no alert was raised.
    // (the hook runs just after the last run's status is committed, so wait for it)
    const stored = await storedMatrix(created.id, "completed");
    expect(stored.completedAt).not.toBeNull();
    expect(await db.regressionAlert.count({ where: { suiteId: suite.id } })).toBe(0);

    const list = await listMatrices(ctx, suite.id, { limit: 10 });
    expect(list.data.map((m) => [m.id, m.status, m.finished_combinations])).toEqual([[created.id, "completed", 4]]);

    // The suite's run history leaves experiments out; its Experiments filter marks each run with its matrix and combination.
    expect((await listSuiteRunsPage(ctx, suite.id)).data).toEqual([]);
    const history = await listSuiteRunsPage(ctx, suite.id, { kind: "experiment" });
    expect(history.data.map((r) => [r.matrix_id, r.combination_index]).sort()).toEqual([0, 1, 2, 3].map((i) => [created.id, i]));
  });

  it("repetitions run every case that many times per combination; the cell counts passes", async () => {
    const { ctx, suite } = await setup(2);
    fake.addRule({ match: { lastUserContains: "question 0" }, reply: { content: "yes" } });
    fake.addRule({ match: { lastUserContains: "question 1" }, reply: { content: "no" } });
    const created = await createMatrix(ctx, suite.id, { variables: { Tone: ["formal", "casual"] }, repetitions: 3 });
    expect(created.name).toBe("Matrix: Tone");
    const done = await finished(ctx, created.id);
    expect(done.combinations.map((c) => [c.total_cases, c.passed, c.failed])).toEqual([
      [6, 3, 3],
      [6, 3, 3],
    ]);
    const table = await matrixTable(ctx, created.id);
    expect(table.cases.map((r) => r.cells.map((c) => `${c.passed}/${c.total} ${c.status}`))).toEqual([
      ["3/3 passed", "3/3 passed"],
      ["0/3 failed", "0/3 failed"],
    ]);
  });

  it("validates every combination as a run would be before creating anything, naming the variable and the combination", async () => {
    const { ctx, suite, a, agent } = await setup(1);
    const unknownModel = await validationIssues(
      createMatrix(ctx, suite.id, { variables: { Temperature: [0, 1], AIConfiguration: [a.name, "nope"] } }),
    );
    expect(unknownModel).toEqual([
      {
        path: "variables.AIConfiguration",
        message: `No model configuration named "nope" in this workspace — combination 2 (Temperature=0, AIConfiguration="nope") and 1 more`,
      },
    ]);
    const badValues = await validationIssues(
      createMatrix(ctx, suite.id, { variables: { Tone: ["formal", "shouty"], Temperature: ["hot"] } }),
    );
    expect(badValues.map((i) => i.path).toSorted()).toEqual(["variables.Temperature", "variables.Tone"]);
    expect(badValues.find((i) => i.path === "variables.Tone")!.message).toMatch(
      /"shouty".*combination 2 \(Tone="shouty", Temperature="hot"\)$/,
    );
    expect(badValues.find((i) => i.path === "variables.Temperature")!.message).toMatch(/number.*combination 1 .* and 1 more$/);
    // An axis that is not a variable of the agent is refused by name, once, before any combination is resolved.
    const unknown = await validationIssues(createMatrix(ctx, suite.id, { variables: { Colour: ["red", "blue"], Tone: ["formal"] } }));
    expect(unknown).toEqual([
      {
        path: "variables.Colour",
        message: `"Colour" is not a variable of the agent "${agent.name}" (it declares AIConfiguration, Temperature, Tone)`,
      },
    ]);
    const tooMany = await validationIssues(
      createMatrix(ctx, suite.id, {
        variables: { Temperature: [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8], Tone: ["formal", "casual"], AIConfiguration: [a.name, "x"] },
      }),
    );
    expect(tooMany).toEqual([{ path: "variables", message: "9 × 2 × 2 = 36 combinations; a matrix has at most 32" }]);
    const noCases = await validationIssues(createMatrix(ctx, suite.id, { variables: { Tone: ["formal"] }, tags: ["none-such"] }));
    expect(noCases[0]!.path).toBe("tags");
    expect(await db.matrix.count({ where: { suiteId: suite.id } })).toBe(0);
    expect(await db.run.count({ where: { suiteId: suite.id } })).toBe(0);
  });

  it("refuses thousands of one-value axes at once (the product of their sizes is 1), before expanding them", async () => {
    const { ctx, suite } = await setup(1);
    const axes = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`V${i}`, [1]]));
    const started = performance.now();
    const many = await validationIssues(createMatrix(ctx, suite.id, { variables: axes(8000) }));
    expect(many).toEqual([{ path: "variables", message: "8000 variables; a matrix varies at most 10" }]);
    // Ten unknown one-value axes: each named, none expanded or resolved.
    const ten = await validationIssues(createMatrix(ctx, suite.id, { variables: axes(10) }));
    expect(ten.map((i) => i.path)).toEqual(Array.from({ length: 10 }, (_, i) => `variables.V${i}`));
    expect(performance.now() - started).toBeLessThan(2000);
    expect(await db.matrix.count({ where: { suiteId: suite.id } })).toBe(0);
  });

  it("cancel stops every run of the matrix and ends it cancelled; a second cancel is a conflict", async () => {
    const { ctx, suite } = await setup(4);
    fake.addRule({ reply: { hang: true } });
    const created = await createMatrix(ctx, suite.id, { variables: { Tone: ["formal", "casual"] }, concurrency: 1 });
    await waitFor(
      () => getMatrix(ctx, created.id),
      (m) => m.status === "running",
    );
    const cancelling = await cancelMatrix(ctx, created.id);
    expect(cancelling.cancel_requested).toBe(true);
    fake.reset();
    const done = await finished(ctx, created.id, 40_000);
    expect(done.status).toBe("cancelled");
    expect(done.combinations.map((c) => c.status)).toEqual(["cancelled", "cancelled"]);
    await storedMatrix(created.id, "cancelled");
    await expect(cancelMatrix(ctx, created.id)).rejects.toBeInstanceOf(ConflictError);
  }, 60_000);

  it("is scoped: another workspace sees 404 and a viewer may not create", async () => {
    const { ctx, suite } = await setup(1);
    const created = await createMatrix(ctx, suite.id, { variables: { Tone: ["formal"] } });
    const other = await makeWorkspace("owner");
    await expect(getMatrix(other.ctx, created.id)).rejects.toMatchObject({ status: 404 });
    await expect(createMatrix(other.ctx, suite.id, { variables: { Tone: ["formal"] } })).rejects.toMatchObject({ status: 404 });
    const viewer: WorkspaceContext = { ...ctx, role: "viewer" };
    await expect(createMatrix(viewer, suite.id, { variables: { Tone: ["formal"] } })).rejects.toMatchObject({ status: 403 });
    await finished(ctx, created.id);
  });
});
