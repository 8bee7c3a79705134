import { describe, expect, it } from "vitest";
import { variableDefinitionSchema } from "@/lib/agents/schemas";
import { caseVariablesToRows, formPathForIssue, issuesToFieldErrors, rowsToCaseVariables } from "@/components/variables/case-variable-rows";

const definitions = variableDefinitionSchema.array().parse([
  { name: "Model", display_name: "Model", data_type: "string", value_source: "static", possible_values: [{ value: "a" }, { value: "b" }] },
  { name: "Temperature", display_name: "Temperature", data_type: "number", value_source: "freeform" },
]);

describe("the case form's Variables rows", () => {
  it("leaves untouched variables out and keeps overrides typed (round trip)", () => {
    const rows = caseVariablesToRows(definitions, null);
    expect(rowsToCaseVariables(rows)).toBeNull();
    rows.Model = { ...rows.Model!, default_value: "b", locked: true, restricted: ["a", "b"] };
    rows.Temperature = { ...rows.Temperature!, restricted_text: "0, 0.5" };
    const saved = rowsToCaseVariables(rows);
    expect(saved).toEqual({
      Model: { exposed: true, default_value: "b", locked: true, restricted_values: ["a", "b"] },
      Temperature: { exposed: true, default_value: null, locked: false, restricted_values: [0, 0.5] },
    });
    const again = caseVariablesToRows(definitions, saved as never);
    expect(again.Temperature!.restricted_text).toBe("0, 0.5");
    expect(rowsToCaseVariables(again)).toEqual(saved);
  });

  it("keeps overrides of variables the agent no longer declares visible as stale rows", () => {
    const rows = caseVariablesToRows(definitions, { Old: { exposed: false, default_value: null, locked: false, restricted_values: null } });
    expect(rows.Old!.stale).toBe(true);
    expect(rowsToCaseVariables(rows)).toEqual({ Old: { exposed: false, default_value: null, locked: false, restricted_values: null } });
  });

  it("maps issue paths to the form's fields", () => {
    const labels = ["polite", "refund offered"];
    expect(formPathForIssue("variables.Model.restricted_values.1", labels)).toBe("variables.Model.restricted");
    expect(formPathForIssue("variables.Old", labels)).toBe("variables.Old.exposed");
    expect(formPathForIssue("user_context.account.tier", labels)).toBe("user_context");
    expect(formPathForIssue("expected_outcomes.refund offered", labels)).toBe("expected_outcomes.1.label");
    expect(formPathForIssue("persona.instructions", labels)).toBe("persona.instructions");
    const errors = issuesToFieldErrors([{ path: "variables.Model.locked", message: "needs a default" }], labels) as Record<string, unknown>;
    expect(errors).toEqual({ variables: { Model: { locked: { type: "validate", message: "needs a default" } } } });
  });
});
