import { describe, expect, it } from "vitest";
import {
  parseArm,
  parseAssignment,
  parseAxes,
  parsePercent,
  parseTypedValue,
  reportFormat,
  runExitCode,
  trialsLine,
  typeVariables,
  type VariableDefinition,
} from "@/lib/cli/args.mjs";
import { exposedVariables } from "@/lib/cli/cases.mjs";
import { ApiError, UsageError } from "@/lib/cli/errors.mjs";
import { typeAxes } from "@/lib/cli/matrix.mjs";
import { pickByName } from "@/lib/cli/resolve.mjs";
import { usage } from "./usage";

/** The CLI's pure parts: assignments, typed variable values, arms, axes and the exit code decision. */

const definitions: VariableDefinition[] = [
  { name: "Temperature", data_type: "number", value_source: "freeform", possible_values: [], default_value: 0.2 },
  { name: "Verbose", data_type: "boolean", value_source: "freeform", possible_values: [] },
  { name: "Cutoff", data_type: "date", value_source: "freeform", possible_values: [] },
  {
    name: "AIConfiguration",
    data_type: "string",
    value_source: "static",
    possible_values: [{ value: "gpt-a" }, { value: "gpt-b" }],
    default_value: "gpt-a",
  },
];

describe("--var NAME=VALUE", () => {
  it("splits at the first = and keeps the rest of the value", () => {
    expect(parseAssignment("Prompt=a=b", "--var")).toEqual(["Prompt", "a=b"]);
    expect(parseAssignment("Empty=", "--var")).toEqual(["Empty", ""]);
    expect(usage(() => parseAssignment("NoEquals", "--var"))).toBe('--var expects NAME=VALUE, got "NoEquals"');
    expect(usage(() => parseAssignment("=1", "--var"))).toContain("NAME=VALUE");
  });

  it("types values by the variable's declared data type", () => {
    expect(
      typeVariables(definitions, [
        ["Temperature", "0.7"],
        ["Verbose", "yes"],
        ["Cutoff", "2025-01-31"],
        ["AIConfiguration", "gpt-b"],
      ]),
    ).toEqual({
      Temperature: 0.7,
      Verbose: true,
      Cutoff: "2025-01-31",
      AIConfiguration: "gpt-b",
    });
    const def = (name: string) => definitions.find((d) => d.name === name)!;
    expect(parseTypedValue(def("Temperature"), " -1e-3 ")).toBe(-0.001);
    expect(parseTypedValue(def("Verbose"), "FALSE")).toBe(false);
    expect(parseTypedValue(def("Verbose"), "0")).toBe(false);
    expect(parseTypedValue(def("Cutoff"), "2025-01-31T10:00:00Z")).toBe("2025-01-31T10:00:00Z");
    // Strings stay exactly as typed (a "1" for a string variable is not a number).
    expect(parseTypedValue(def("AIConfiguration"), " 1 ")).toBe(" 1 ");
  });

  it("refuses values that do not fit the type", () => {
    const def = (name: string) => definitions.find((d) => d.name === name)!;
    expect(usage(() => parseTypedValue(def("Temperature"), "warm"))).toBe('Temperature is a number; "warm" is not one');
    expect(usage(() => parseTypedValue(def("Temperature"), ""))).toContain("is a number");
    expect(usage(() => parseTypedValue(def("Temperature"), "Infinity"))).toContain("is a number");
    expect(usage(() => parseTypedValue(def("Verbose"), "maybe"))).toBe('Verbose is true or false; "maybe" is neither');
    expect(usage(() => parseTypedValue(def("Cutoff"), "31/01/2025"))).toContain("is a date (YYYY-MM-DD)");
    expect(usage(() => parseTypedValue(def("Cutoff"), "2025-02-30x"))).toContain("is a date");
  });

  it("names the known variables when one is unknown", () => {
    expect(usage(() => typeVariables(definitions, [["Temp", "1"]]))).toBe(
      'Unknown variable "Temp". Known variables: Temperature (number), Verbose (boolean), Cutoff (date), AIConfiguration (string).',
    );
    expect(usage(() => typeVariables([], [["Temp", "1"]]))).toBe(`Unknown variable "Temp". The suite's agent declares no variables.`);
  });

  it("lets a later assignment of the same name win", () => {
    expect(
      typeVariables(definitions, [
        ["Temperature", "0"],
        ["Temperature", "1"],
      ]),
    ).toEqual({ Temperature: 1 });
  });
});

describe("comparison arms (KEY=VALUE)", () => {
  it("reads every arm key", () => {
    expect(
      parseArm(
        [
          "model=gpt-b",
          "agent=Support bot",
          "temperature=0.7",
          "max_tokens=256",
          "system_prompt=Be brief=short",
          "label=B",
          "var.Tier=gold",
        ],
        "--variant",
      ),
    ).toEqual({
      model: "gpt-b",
      agent: "Support bot",
      temperature: 0.7,
      max_tokens: 256,
      system_prompt: "Be brief=short",
      label: "B",
      vars: [["Tier", "gold"]],
    });
    expect(parseArm([], "--baseline")).toEqual({ vars: [] });
  });

  it("refuses unknown keys and out-of-range numbers with the flag named", () => {
    expect(usage(() => parseArm(["modle=x"], "--baseline"))).toBe(
      '--baseline: unknown key "modle". Arm keys: model, agent, temperature, max_tokens, system_prompt, label, var.NAME',
    );
    expect(usage(() => parseArm(["temperature=3"], "--variant"))).toContain("--variant: temperature must be a number between 0 and 2");
    expect(usage(() => parseArm(["temperature="], "--variant"))).toContain("temperature must be a number");
    expect(usage(() => parseArm(["max_tokens=1.5"], "--variant"))).toContain("max_tokens must be a whole number");
    expect(usage(() => parseArm(["max_tokens=0"], "--variant"))).toContain("max_tokens must be a whole number");
    expect(usage(() => parseArm(["var.=1"], "--variant"))).toContain("var.NAME=VALUE");
    expect(usage(() => parseArm(["model= "], "--variant"))).toBe("--variant: model cannot be empty");
  });
});

describe("matrix axes", () => {
  it("splits values at commas and types them per variable", () => {
    expect(parseAxes(["Temperature=0, 0.7", "AIConfiguration=gpt-a,gpt-b"])).toEqual([
      ["Temperature", ["0", "0.7"]],
      ["AIConfiguration", ["gpt-a", "gpt-b"]],
    ]);
    expect(typeAxes(definitions, ["Temperature=0,0.7", "Verbose=true,false"])).toEqual({ Temperature: [0, 0.7], Verbose: [true, false] });
  });

  it("refuses empty values, repeated axes, no axis and unknown variables", () => {
    expect(usage(() => parseAxes(["Temperature=0,,1"]))).toContain("empty value");
    expect(usage(() => parseAxes(["Temperature=0", "Temperature=1"]))).toContain("given twice");
    expect(usage(() => parseAxes([]))).toContain("at least one --axis");
    expect(usage(() => typeAxes(definitions, ["Temp=0,1"]))).toContain('Unknown variable "Temp". Known variables: Temperature (number)');
    expect(usage(() => typeAxes(definitions, ["Temperature=0,hot"]))).toContain('"hot" is not one');
  });
});

describe("exit code of a finished run", () => {
  const gate = (minPassRate: number) => ({ minPassRate });

  it("without trial figures (an older server): 0 at or above the pass rate threshold, 1 below it, 3 when the run failed or was cancelled", () => {
    expect(runExitCode({ status: "completed", pass_rate: 100 }, gate(100)).code).toBe(0);
    expect(runExitCode({ status: "completed", pass_rate: 75 }, gate(75)).code).toBe(0);
    expect(runExitCode({ status: "completed", pass_rate: 74.9 }, gate(75))).toEqual({ code: 1, reason: "pass rate 74.9% is below 75%" });
    expect(runExitCode({ status: "completed", pass_rate: null }, gate(0)).code).toBe(0);
    expect(runExitCode({ status: "failed", pass_rate: 100 }, gate(0))).toEqual({ code: 3, reason: "the run failed" });
    expect(runExitCode({ status: "cancelled", pass_rate: 100 }, gate(0))).toEqual({ code: 3, reason: "the run was cancelled" });
  });

  // pass@1 0.725 with its interval [0.61, 0.83]; the run's own pass rate (errors counted) says 50 %.
  const run = (summary: Record<string, unknown>) => ({
    status: "completed",
    pass_rate: 50,
    summary: {
      trials: 3,
      pass_at_1: 0.725,
      pass_at_1_ci95: [0.61, 0.83] as [number, number],
      pass_at_k: 0.9,
      pass_all_k: 0.5,
      flaky_cases: 4,
      ...summary,
    },
  });

  it("--min-pass-rate checks pass@1 (a fraction) as a percentage, not the pass rate", () => {
    expect(runExitCode(run({}), gate(72.5))).toEqual({ code: 0, reason: "pass@1 72.5% (95% CI 61.0–83.0%) ≥ 72.5%" });
    expect(runExitCode(run({}), gate(80))).toEqual({ code: 1, reason: "pass@1 72.5% (95% CI 61.0–83.0%) is below 80%" });
    // 0.29 × 100 is 28.999999999999996 in floating point: still at the threshold.
    expect(runExitCode(run({ pass_at_1: 0.29 }), gate(29)).code).toBe(0);
    // No judged case (every case errored): pass@1 is null and counts as 0.
    expect(runExitCode(run({ pass_at_1: null, pass_at_1_ci95: null }), gate(1))).toEqual({
      code: 1,
      reason: "pass@1 — (no judged case) is below 1%",
    });
    expect(runExitCode(run({ pass_at_1: null, pass_at_1_ci95: null }), gate(0)).code).toBe(0);
  });

  it("--gate lower checks the interval's lower bound", () => {
    expect(runExitCode(run({}), { minPassRate: 70, gate: "point" }).code).toBe(0);
    expect(runExitCode(run({}), { minPassRate: 70, gate: "lower" })).toEqual({
      code: 1,
      reason: "the lower bound 61.0% of pass@1 72.5% (95% CI 61.0–83.0%) is below 70%",
    });
    expect(runExitCode(run({}), { minPassRate: 61, gate: "lower" }).code).toBe(0);
  });

  it("--max-flaky fails (1) when more cases are flaky; the reason names every gate that failed", () => {
    expect(runExitCode(run({}), { minPassRate: 0, maxFlaky: 4 })).toEqual({
      code: 0,
      reason: "pass@1 72.5% (95% CI 61.0–83.0%) ≥ 0%; 4 flaky cases ≤ --max-flaky 4",
    });
    expect(runExitCode(run({}), { minPassRate: 0, maxFlaky: 2 })).toEqual({ code: 1, reason: "4 flaky cases > --max-flaky 2" });
    expect(runExitCode(run({ flaky_cases: 1 }), { minPassRate: 90, maxFlaky: 0 })).toEqual({
      code: 1,
      reason: "pass@1 72.5% (95% CI 61.0–83.0%) is below 90%; 1 flaky case > --max-flaky 0",
    });
    // A server without flaky counts has none to exceed; a failed run is 3 whatever the gates say.
    expect(runExitCode({ status: "completed", pass_rate: 100 }, { minPassRate: 100, maxFlaky: 0 }).code).toBe(0);
    expect(runExitCode({ ...run({}), status: "failed" }, { minPassRate: 0, maxFlaky: 0 }).code).toBe(3);
  });

  it("prints pass@1 with its interval, and with several trials pass@k, pass^k and the flaky count", () => {
    expect(trialsLine(run({}).summary)).toBe(
      "3 trials per case: pass@1 72.5% (95% CI 61.0–83.0%), pass@3 90.0%, pass^3 50.0%, 4 flaky cases",
    );
    expect(trialsLine({ trials: 1, pass_at_1: 0.75, pass_at_1_ci95: [0.5, 1], flaky_cases: 0 })).toBe("pass@1 75.0% (95% CI 50.0–100.0%)");
    expect(trialsLine({ total_tests: 4 } as never)).toBeNull();
    expect(trialsLine(null)).toBeNull();
  });

  it("API errors: 4xx are the caller's (2), 5xx the server's (3)", () => {
    expect(new ApiError(400, "invalid_input", "Invalid body").exitCode).toBe(2);
    expect(new ApiError(404, "not_found", "Not found").exitCode).toBe(2);
    expect(new ApiError(503, "unavailable", "down").exitCode).toBe(3);
  });

  it("parses --min-pass-rate as a percentage", () => {
    expect(parsePercent("90")).toBe(90);
    expect(parsePercent("99.5%")).toBe(99.5);
    for (const bad of ["", "-1", "101", "all"]) expect(() => parsePercent(bad)).toThrow(UsageError);
  });

  it("takes the report format from --format, else from the output file's extension", () => {
    const formats = ["junit", "json", "markdown", "csv"];
    expect(reportFormat("csv", "out.xml", formats)).toBe("csv");
    expect(reportFormat(undefined, "assay-junit.xml", formats)).toBe("junit");
    expect(reportFormat(undefined, "report.md", formats)).toBe("markdown");
    expect(reportFormat(undefined, "report.txt", formats)).toBe("junit");
    expect(reportFormat(undefined, undefined, formats)).toBeUndefined();
  });
});

describe("names and exposed variables", () => {
  it("picks by id or exact name, then a unique case-insensitive name; ambiguity and misses list what exists", () => {
    const items = [
      { id: "1", name: "gpt-a" },
      { id: "2", name: "GPT-B" },
      { id: "3", name: "twin" },
      { id: "4", name: "twin" },
    ];
    expect(pickByName(items, "2", "model configuration").name).toBe("GPT-B");
    expect(pickByName(items, "gpt-b", "model configuration").id).toBe("2");
    expect(usage(() => pickByName(items, "twin", "agent"))).toBe('2 agents are named "twin"; use an id: 3, 4');
    expect(usage(() => pickByName(items, "gpt-c", "model configuration"))).toBe(
      'No model configuration "gpt-c". Known: gpt-a, GPT-B, twin, twin',
    );
  });

  it("resolves what each case exposes: a lock wins, then suite > test > type; restricted values narrow the allowed ones", () => {
    const rows = exposedVariables(
      {
        name: "Refund",
        variables: {
          Temperature: { exposed: true, default_value: 0.5, locked: true },
          Verbose: { exposed: false },
          AIConfiguration: { exposed: true, default_value: "gpt-b", restricted_values: ["gpt-b"] },
        },
      },
      definitions,
      { Temperature: 1, AIConfiguration: "gpt-a" },
    );
    expect(rows.map((r) => [r.variable, r.value, r.source, r.locked, r.allowed])).toEqual([
      ["Temperature", "0.5", "test", true, "any number"],
      ["Cutoff", "–", "", false, "any date"],
      ["AIConfiguration", '"gpt-a"', "suite", false, '"gpt-b"'],
    ]);
    // No config: every variable exposed with the type default (the variables model's backward compatibility).
    expect(exposedVariables({ name: "Plain" }, definitions, {}).map((r) => [r.variable, r.value, r.source, r.allowed])).toEqual([
      ["Temperature", "0.2", "type", "any number"],
      ["Verbose", "–", "", "any boolean"],
      ["Cutoff", "–", "", "any date"],
      ["AIConfiguration", '"gpt-a"', "type", '"gpt-a", "gpt-b"'],
    ]);
  });

  it("shows a locked variable without a default of its own at the agent's default, as the server resolves it (source test: the lock)", () => {
    const rows = exposedVariables(
      {
        name: "Locked",
        variables: { Temperature: { exposed: true, locked: true }, AIConfiguration: { exposed: true, locked: true, default_value: null } },
      },
      definitions,
      // Suite values never reach a locked variable.
      { Temperature: 1, AIConfiguration: "gpt-b" },
    );
    expect(rows.filter((r) => r.locked).map((r) => [r.variable, r.value, r.source])).toEqual([
      ["Temperature", "0.2", "test"],
      ["AIConfiguration", '"gpt-a"', "test"],
    ]);
  });
});
