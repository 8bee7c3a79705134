import { describe, expect, it } from "vitest";
import { resolveCaseVariables } from "@/lib/runs/variables";
import type { VariableDefinition } from "@/lib/agents/schemas";

const def = (over: Partial<VariableDefinition> & Pick<VariableDefinition, "name">): VariableDefinition => ({
  display_name: over.name,
  description: null,
  data_type: "number",
  value_source: "freeform",
  possible_values: [],
  default_value: null,
  required: false,
  ...over,
});

const temperature = def({ name: "Temperature", default_value: 0.2 });
const model = def({
  name: "AIConfiguration",
  data_type: "string",
  value_source: "static",
  possible_values: [
    { value: "a", label: null, description: null },
    { value: "b", label: null, description: null },
    { value: "c", label: null, description: null },
  ],
  default_value: "a",
});

describe("the variables model's resolution per case", () => {
  it("takes run over suite over test over type, and records each source", () => {
    const defs = [temperature, model, def({ name: "MaxTokens" })];
    const cfg = { Temperature: { exposed: true, default_value: 0.9 }, AIConfiguration: { exposed: true, default_value: "b" } };
    expect(resolveCaseVariables(defs, {}, {}, cfg).resolved).toEqual({
      values: { Temperature: 0.9, AIConfiguration: "b" },
      sources: { Temperature: "test", AIConfiguration: "test" },
    });
    expect(resolveCaseVariables(defs, { Temperature: 0.5 }, {}, cfg).resolved.sources.Temperature).toBe("suite");
    expect(resolveCaseVariables(defs, { Temperature: 0.5 }, { Temperature: 0.1 }, cfg).resolved).toMatchObject({
      values: { Temperature: 0.1 },
      sources: { Temperature: "run" },
    });
    // No configuration: every type variable exposed with the type's default (spec backward compatibility).
    expect(resolveCaseVariables(defs, {}, {}, null).resolved).toEqual({
      values: { Temperature: 0.2, AIConfiguration: "a" },
      sources: { Temperature: "type", AIConfiguration: "type" },
    });
  });

  it("a locked value wins over run and suite, and an unexposed variable is not resolved at all", () => {
    const cfg = { Temperature: { exposed: true, default_value: 0, locked: true }, AIConfiguration: { exposed: false } };
    const { resolved, issues } = resolveCaseVariables(
      [temperature, model],
      { Temperature: 0.5 },
      { Temperature: 1, AIConfiguration: "c" },
      cfg,
    );
    expect(issues).toEqual([]);
    expect(resolved).toEqual({ values: { Temperature: 0 }, sources: { Temperature: "test" } });
  });

  it("checks run and suite values against the case's restricted values, the static values and the type", () => {
    const cfg = { AIConfiguration: { exposed: true, restricted_values: ["a", "b"] } };
    expect(resolveCaseVariables([model], {}, { AIConfiguration: "c" }, cfg).issues).toEqual([
      { path: "variables.AIConfiguration", message: '"c" not in restricted values ("a", "b") (from run)' },
    ]);
    expect(resolveCaseVariables([model], { AIConfiguration: "c" }, {}, cfg).issues[0]!.message).toMatch(/from suite/);
    expect(resolveCaseVariables([model], {}, { AIConfiguration: "z" }, null).issues[0]!.message).toMatch(/not one of/);
    expect(resolveCaseVariables([temperature], {}, { Temperature: "hot" }, null).issues[0]!.message).toMatch(/number/);
  });

  it("reports a required variable without a value, unless the case supplies one", () => {
    const required = def({ name: "Region", data_type: "string", required: true });
    expect(resolveCaseVariables([required], {}, {}, null).issues).toEqual([
      { path: "variables.Region", message: 'Required variable "Region" has no value' },
    ]);
    expect(resolveCaseVariables([required], {}, {}, { Region: { exposed: true, default_value: "eu" } }).resolved.values).toEqual({
      Region: "eu",
    });
  });
});
