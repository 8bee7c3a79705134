import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { ValidationError } from "@/lib/errors";
import { createTestCase, getTestCase, updateTestCase } from "@/lib/test-cases/service";
import { exportTestCases, importTestCases, parseCasesDocument } from "@/lib/test-cases/import-export";
import { caseVariableIssues, casePlaceholderIssues } from "@/lib/test-cases/variables";
import { agentInput, variableDefinitionSchema, type VariableDefinition } from "@/lib/agents/schemas";
import { makeWorkspace, makeSuiteWithCases } from "../helpers/factories";

const definitions: VariableDefinition[] = variableDefinitionSchema.array().parse([
  {
    name: "AIConfiguration",
    display_name: "AI configuration",
    data_type: "string",
    value_source: "static",
    possible_values: [{ value: "gpt-a" }, { value: "gpt-b" }, { value: "gpt-c" }],
  },
  { name: "Temperature", display_name: "Temperature", data_type: "number", value_source: "freeform", default_value: 0.7 },
  { name: "MaxTokens", display_name: "Max tokens", data_type: "number", value_source: "freeform" },
]);

async function setup() {
  const { ctx } = await makeWorkspace("editor");
  const made = await makeSuiteWithCases(ctx, 0);
  await db.agent.update({ where: { id: made.agent.id }, data: { variablesSchema: definitions } });
  return { ctx, ...made };
}

async function issuesOf(p: Promise<unknown>) {
  const err = await p.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ValidationError);
  return (err as ValidationError).issues;
}

describe("the variables model's test-level rules (pure)", () => {
  it("accepts an override that fits the agent", () => {
    expect(
      caseVariableIssues(
        {
          AIConfiguration: { exposed: true, default_value: "gpt-b", locked: true, restricted_values: ["gpt-a", "gpt-b"] },
          Temperature: { exposed: false, default_value: null, locked: false, restricted_values: null },
        },
        definitions,
      ),
    ).toEqual([]);
  });

  it("names unknown variables, wrong types, values outside the possible or restricted ones and locks without a default", () => {
    const issues = caseVariableIssues(
      {
        Model: { exposed: true, default_value: null, locked: false, restricted_values: null },
        AIConfiguration: { exposed: true, default_value: "gpt-c", locked: false, restricted_values: ["gpt-a", "claude"] },
        Temperature: { exposed: true, default_value: "hot", locked: false, restricted_values: [0.1, "x"] },
        MaxTokens: { exposed: true, default_value: null, locked: true, restricted_values: null },
      },
      definitions,
    );
    expect(issues).toEqual([
      { path: "variables.Model", message: 'Unknown variable "Model": the agent declares AIConfiguration, Temperature, MaxTokens' },
      {
        path: "variables.AIConfiguration.restricted_values.1",
        message: '"claude" is not a possible value of AIConfiguration ("gpt-a", "gpt-b", "gpt-c")',
      },
      {
        path: "variables.AIConfiguration.default_value",
        message: 'Default value must be one of the restricted values ("gpt-a", "claude")',
      },
      { path: "variables.Temperature.restricted_values.1", message: '"x": Value must be a number' },
      { path: "variables.Temperature.default_value", message: "Value must be a number" },
      {
        path: "variables.MaxTokens.locked",
        message: "A locked variable needs a default value: set one here (MaxTokens has no default of its own)",
      },
    ]);
  });

  it("a locked variable may use the agent's default", () => {
    expect(
      caseVariableIssues({ Temperature: { exposed: true, default_value: null, locked: true, restricted_values: null } }, definitions),
    ).toEqual([]);
  });

  it("unknown {{Name}} placeholders are named at their field; known ones (with spaces too) pass", () => {
    const issues = casePlaceholderIssues(
      {
        initial_message: "Hi at {{ Temperature }} with {{Tone}}",
        persona: { type: "shopper", description: "uses {{AIConfiguration}}", instructions: "Say {{Mood}} twice, {{Mood}}" },
        user_context: { account: { tier: "{{Tier}}" }, list: ["{{ MaxTokens }}", "{{Other}}"] },
        expected_outcomes: { "refund offered": "mentions {{Policy}}" },
      },
      definitions,
    );
    expect(issues.map((i) => i.path)).toEqual([
      "initial_message",
      "persona.instructions",
      "user_context.account.tier",
      "user_context.list.1",
      "expected_outcomes.refund offered",
    ]);
    expect(issues[0]!.message).toBe("Unknown variable {{Tone}}: the agent declares AIConfiguration, Temperature, MaxTokens");
  });

  it("an agent's system prompt may only use its own variables", () => {
    const base = { name: "a", kind: "chat", model_config_id: "00000000-0000-4000-8000-000000000000" };
    const ok = agentInput.safeParse({
      ...base,
      system_prompt: "Be {{ Tone }}",
      variables_schema: [{ name: "Tone", display_name: "Tone", data_type: "string", value_source: "freeform" }],
    });
    expect(ok.success).toBe(true);
    const bad = agentInput.safeParse({ ...base, system_prompt: "Be {{Tone}}" });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["system_prompt", "Unknown variable {{Tone}}: the agent declares no variables"],
    ]);
  });
});

describe("the variables model's test-level variables through the service", () => {
  it("creates, reads and updates a case's variables in the documented shape", async () => {
    const { ctx, suite } = await setup();
    const created = await createTestCase(ctx, suite.id, {
      name: "locked model",
      initial_message: "Hello at {{Temperature}}",
      variables: { AIConfiguration: { exposed: true, default_value: "gpt-b", locked: true }, Temperature: { exposed: false } },
    });
    expect(created.variables).toEqual({
      AIConfiguration: { exposed: true, default_value: "gpt-b", locked: true, restricted_values: null },
      Temperature: { exposed: false, default_value: null, locked: false, restricted_values: null },
    });
    expect(Object.keys(created.variables!.AIConfiguration!)).toEqual(["exposed", "default_value", "locked", "restricted_values"]);
    const updated = await updateTestCase(ctx, created.id, {
      variables: { Temperature: { exposed: true, restricted_values: [0, 0.5], default_value: 0.5 } },
    });
    expect(updated.variables).toEqual({ Temperature: { exposed: true, default_value: 0.5, locked: false, restricted_values: [0, 0.5] } });
    const cleared = await updateTestCase(ctx, created.id, { variables: {} });
    expect(cleared.variables).toBeNull();
    expect((await getTestCase(ctx, created.id)).variables).toBeNull();
  });

  it("refuses variables the agent does not declare and unknown placeholders with field paths; nothing is written", async () => {
    const { ctx, suite } = await setup();
    const issues = await issuesOf(
      createTestCase(ctx, suite.id, {
        name: "bad",
        initial_message: "Hi {{Nope}}",
        expected_outcomes: { polite: "uses {{Tone}}" },
        variables: { Model: { exposed: true }, AIConfiguration: { exposed: true, default_value: "claude" } },
      }),
    );
    expect(issues.map((i) => i.path)).toEqual([
      "variables.Model",
      "variables.AIConfiguration.default_value",
      "initial_message",
      "expected_outcomes.polite",
    ]);
    expect(issues[2]!.message).toContain("{{Nope}}");
    expect(await db.testCase.count({ where: { suiteId: suite.id } })).toBe(0);
  });

  it("checks shapes with zod (a non-boolean exposed, a non-object override)", async () => {
    const { ctx, suite } = await setup();
    const issues = await issuesOf(
      createTestCase(ctx, suite.id, { name: "x", initial_message: "hi", variables: { Temperature: { exposed: "yes" }, MaxTokens: 3 } }),
    );
    expect(issues.map((i) => i.path).sort()).toEqual(["variables.MaxTokens", "variables.Temperature.exposed"]);
  });

  it("an update is validated against the agent too", async () => {
    const { ctx, suite } = await setup();
    const c = await createTestCase(ctx, suite.id, { name: "x", initial_message: "hi" });
    const issues = await issuesOf(updateTestCase(ctx, c.id, { variables: { MaxTokens: { exposed: true, locked: true } } }));
    expect(issues).toEqual([{ path: "variables.MaxTokens.locked", message: expect.stringContaining("needs a default value") }]);
  });

  it("round-trips variables through JSON and YAML export and import; import refuses unknown variables per case", async () => {
    const { ctx, suite } = await setup();
    const variables = {
      AIConfiguration: { exposed: true, default_value: "gpt-a", locked: false, restricted_values: ["gpt-a", "gpt-c"] },
      MaxTokens: { exposed: true, default_value: 256, locked: true, restricted_values: null },
    };
    await createTestCase(ctx, suite.id, { name: "with vars", initial_message: "{{AIConfiguration}}", variables });
    await createTestCase(ctx, suite.id, { name: "without", initial_message: "plain" });
    for (const format of ["json", "yaml"] as const) {
      const body = await new Response((await exportTestCases(ctx, suite.id, format)).body).text();
      const docs = parseCasesDocument(body, format) as { name: string; variables: unknown }[];
      expect(docs.map((d) => d.variables)).toEqual([variables, null]);
      const target = await makeSuiteWithCases(ctx, 0);
      await db.agent.update({ where: { id: target.agent.id }, data: { variablesSchema: definitions } });
      const result = await importTestCases(ctx, target.suite.id, docs, { validOnly: false });
      expect(result.imported).toBe(2);
      const again = await new Response((await exportTestCases(ctx, target.suite.id, format)).body).text();
      expect(again).toBe(body);
    }
    const bare = await makeSuiteWithCases(ctx, 0);
    const body = await new Response((await exportTestCases(ctx, suite.id, "json")).body).text();
    const issues = await issuesOf(importTestCases(ctx, bare.suite.id, parseCasesDocument(body, "json"), { validOnly: false }));
    expect(issues.map((i) => i.path).sort()).toEqual(["0.initial_message", "0.variables.AIConfiguration", "0.variables.MaxTokens"]);
  });
});
