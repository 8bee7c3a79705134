import { describe, expect, it } from "vitest";
import type { CompareOptions } from "@/lib/comparisons/actions";
import type { VariableDefinition } from "@/lib/agents/schemas";
import {
  armVariablesContext,
  atFields,
  declaredValues,
  defaults,
  differences,
  toInput,
  type FormValues,
} from "@/components/comparisons/compare-form-model";

/** The Compare dialog's typed variables: what each arm sends, what it refuses, where issues land. */

function variable(name: string, data_type: VariableDefinition["data_type"], extra: Partial<VariableDefinition> = {}): VariableDefinition {
  return {
    name,
    display_name: name === "Temperature" ? "Temperature" : `The ${name}`,
    description: "",
    data_type,
    value_source: "freeform",
    possible_values: [],
    default_value: null,
    required: false,
    ...extra,
  } as VariableDefinition;
}

const OPTIONS: CompareOptions = {
  suite_agent_id: "agent-a",
  agents: [
    {
      id: "agent-a",
      name: "A",
      kind: "chat",
      system_prompt: "Be brief.",
      model_config_id: null,
      variables_schema: [variable("Temperature", "number"), variable("Formal", "boolean"), variable("Tone", "string")],
    },
    {
      id: "agent-b",
      name: "B",
      kind: "chat",
      system_prompt: "Be kind.",
      model_config_id: null,
      variables_schema: [variable("Tone", "string")],
    },
  ],
  model_configs: [],
  tags: [],
  presets: [{ id: "p1", name: "Cold", values: { Temperature: 0.1 } }],
  suite_values: { Tone: "warm" },
};

function form(edit: (v: FormValues) => void): FormValues {
  const values = defaults(OPTIONS);
  edit(values);
  return values;
}

const arm = (input: Record<string, unknown>, key: "baseline" | "variant") => input[key] as Record<string, unknown>;

describe("toInput: an arm's typed variables", () => {
  it("sends each arm's values with their types, and no variables when none is set", () => {
    const { input, issues } = toInput(
      form((v) => {
        v.variant.variables = { Temperature: 0.4, Formal: false, Tone: "dry" };
      }),
      OPTIONS,
    );
    expect(issues).toEqual([]);
    expect(arm(input, "variant").variables).toEqual({ Temperature: 0.4, Formal: false, Tone: "dry" });
    expect(arm(input, "baseline").variables).toBeUndefined();
  });

  it("refuses a number input holding no number, naming the variable at its path", () => {
    const { issues } = toInput(
      form((v) => {
        v.variant.unreadable = ["Temperature"];
      }),
      OPTIONS,
    );
    expect(issues).toEqual([{ path: "variant.variables.Temperature", message: "Temperature (Temperature) must be a number" }]);
  });

  it("drops values of variables the arm's agent does not declare", () => {
    const { input } = toInput(
      form((v) => {
        v.variant.agent_id = "agent-b";
        v.variant.variables = { Temperature: 0.4, Tone: "dry" };
      }),
      OPTIONS,
    );
    expect(arm(input, "variant").variables).toEqual({ Tone: "dry" });
  });
});

describe("declaredValues", () => {
  it("keeps the declared variables' values only", () => {
    expect(declaredValues({ Tone: "dry", Gone: 1 }, [variable("Tone", "string")])).toEqual({ Tone: "dry" });
  });
});

describe("differences", () => {
  it("sees the same variables set in another order as no difference, and another value as one", () => {
    const same = form((v) => {
      v.baseline.variables = { Temperature: 0.4, Tone: "dry" };
      v.variant.variables = { Tone: "dry", Temperature: 0.4 };
    });
    expect(differences(same, OPTIONS)).toEqual([]);
    const other = form((v) => {
      v.baseline.variables = { Temperature: 0.4 };
      v.variant.variables = { Temperature: 0.5 };
    });
    expect(differences(other, OPTIONS)).toEqual(["variables"]);
  });
});

describe("atFields", () => {
  it("keeps a variable's issue at that variable and moves deeper issues to their field", () => {
    expect(
      atFields([
        { path: "variant.variables.AIConfiguration", message: "contradicts" },
        { path: "tags.0", message: "Unknown tag" },
      ]),
    ).toEqual([
      { path: "variant.variables.AIConfiguration", message: "contradicts" },
      { path: "tags", message: "0: Unknown tag" },
    ]);
  });
});

describe("armVariablesContext", () => {
  it("offers the arm's agent's variables with the suite's values and presets", () => {
    const context = armVariablesContext(OPTIONS, "agent-b");
    expect(context.definitions.map((d) => d.name)).toEqual(["Tone"]);
    expect(context.suite_values).toEqual({ Tone: "warm" });
    expect(context.presets).toEqual([{ id: "p1", name: "Cold", values: { Temperature: 0.1 }, trials: null }]);
  });
});
