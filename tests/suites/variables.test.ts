import { describe, expect, it } from "vitest";
import { checkSuiteVariables, parseVariableValues, parseVariablesSchema } from "@/lib/suites/variables";
import { VARIABLES } from "../helpers/factories";

describe("suite variables (the variables model, suite level)", () => {
  it("reads an agent's stored schema, skipping malformed definitions", () => {
    const defs = parseVariablesSchema([
      ...VARIABLES,
      { name: "1bad", display_name: "x", data_type: "string", value_source: "freeform" },
      "junk",
    ]);
    expect(defs.map((d) => d.name)).toEqual(["AIConfiguration", "Temperature", "Verbose", "AsOf"]);
    expect(parseVariablesSchema({ not: "an array" })).toEqual([]);
  });

  it("keeps only scalar stored values", () => {
    expect(parseVariableValues({ a: "x", b: 1, c: false, d: { nested: true }, e: null })).toEqual({ a: "x", b: 1, c: false });
    expect(parseVariableValues(["x"])).toEqual({});
  });

  it("accepts values that fit, including numbers and booleans of static variables", () => {
    const defs = parseVariablesSchema([
      { name: "Level", display_name: "Level", data_type: "number", value_source: "static", possible_values: [{ value: 1 }, { value: 2 }] },
      { name: "Strict", display_name: "Strict", data_type: "boolean", value_source: "static", possible_values: [{ value: true }] },
    ]);
    expect(checkSuiteVariables(defs, { Level: 2, Strict: true })).toEqual([]);
    expect(checkSuiteVariables(defs, { Level: 3, Strict: false })).toEqual([
      { path: "variables.Level", message: "Must be one of: 1, 2" },
      { path: "variables.Strict", message: "Must be one of: true" },
    ]);
    // Type before membership: "1" is not the number 1.
    expect(checkSuiteVariables(defs, { Level: "1" })).toEqual([{ path: "variables.Level", message: "Value must be a number" }]);
  });

  it("does not demand required variables: the test, the run or the default may supply them", () => {
    const defs = parseVariablesSchema([
      { name: "Model", display_name: "Model", data_type: "string", value_source: "freeform", required: true },
    ]);
    expect(checkSuiteVariables(defs, {})).toEqual([]);
  });
});
