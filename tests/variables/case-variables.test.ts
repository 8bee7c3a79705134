import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { getRun, listCaseResults, startRun } from "@/lib/runs/service";
import { ValidationError } from "@/lib/errors";
import { withRunStack } from "../helpers/run-stack";
import { waitFor, makeEvalVariablesSuite } from "../helpers/factories";

const { fake } = withRunStack();

async function setup() {
  const made = await makeEvalVariablesSuite(fake.url, (i) => ({
    name: i === 0 ? "Refund 30 days" : "Shipping",
    initialMessage: `question ${i} at {{Temperature}}`,
  }));
  const [refund, shipping] = await db.testCase.findMany({ where: { suiteId: made.suite.id }, orderBy: { sortOrder: "asc" } });
  return { ...made, refund: refund!, shipping: shipping! };
}

describe("variables per case in a run (the variables model)", () => {
  it("refuses the run before anything executes when a case's restricted values exclude the run value, naming variable and case", async () => {
    const { ctx, suite, refund } = await setup();
    await db.testCase.update({
      where: { id: refund.id },
      data: { variables: { Temperature: { exposed: true, restricted_values: [0, 0.5] } } },
    });
    const err = await startRun(ctx, suite.id, { variables: { Temperature: 1.7 } }, "api").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues).toEqual([
      { path: "variables.Temperature", message: 'case "Refund 30 days": 1.7 not in restricted values (0, 0.5) (from run)' },
    ]);
    expect(await db.run.count({ where: { suiteId: suite.id } })).toBe(0);
  });

  it("resolves each case on its own: a locked model and temperature for one case, the run's for the other, stored with sources", async () => {
    const { ctx, suite, refund, modelConfig } = await setup();
    await db.testCase.update({
      where: { id: refund.id },
      data: {
        variables: {
          AIConfiguration: { exposed: true, default_value: "gpt-b", locked: true },
          Temperature: { exposed: true, default_value: 0.9, locked: true },
        },
      },
    });
    const run = await startRun(ctx, suite.id, { variables: { Temperature: 0.4 } }, "api");
    await waitFor(
      () => getRun(ctx, run.id),
      (r) => r.status === "completed",
    );
    const agentCalls = fake.requests.filter(
      (r) => r.endpoint === "chat" && r.body.messages.some((m: { role: string }) => m.role === "user"),
    );
    const forCase = (q: string) => agentCalls.find((r) => r.body.messages.some((m: { content: string }) => m.content?.startsWith(q)))!;
    // The locked case runs on gpt-b at 0.9; its placeholder sees its own value.
    expect(forCase("question 0").body).toMatchObject({ model: "model-b", temperature: 0.9 });
    expect(forCase("question 0").body.messages.at(-1).content).toBe("question 0 at 0.9");
    expect(forCase("question 1").body).toMatchObject({ model: "fake-model", temperature: 0.4 });
    const results = (await listCaseResults(ctx, run.id, { limit: 10 })).data;
    const byName = Object.fromEntries(results.map((r) => [r.name, r]));
    expect(byName["Refund 30 days"]!.resolved_variables).toEqual({
      values: { AIConfiguration: "gpt-b", Temperature: 0.9 },
      sources: { AIConfiguration: "test", Temperature: "test" },
    });
    expect(byName["Shipping"]!.resolved_variables).toEqual({
      values: { AIConfiguration: modelConfig.name, Temperature: 0.4 },
      sources: { AIConfiguration: "type", Temperature: "run" },
    });
  });
});
