// @ts-check
/**
 * Pure argument handling for the `assay` CLI: `NAME=VALUE` assignments, values typed by the
 * agent's variable definitions (the variables model), comparison arms, matrix axes and the exit code of a
 * finished run. No I/O here, so tests/cli/args.test.ts covers it directly.
 */
import { EXIT, UsageError } from "./errors.mjs";

/**
 * @typedef {"string" | "number" | "boolean" | "date"} DataType
 * @typedef {string | number | boolean} VariableValue
 * @typedef {{
 *   name: string,
 *   data_type: DataType,
 *   value_source?: "static" | "freeform",
 *   possible_values?: {value: VariableValue, label?: string | null}[],
 *   default_value?: VariableValue | null,
 *   required?: boolean,
 * }} VariableDefinition
 * @typedef {{
 *   label?: string,
 *   model?: string,
 *   agent?: string,
 *   temperature?: number,
 *   max_tokens?: number,
 *   system_prompt?: string,
 *   vars: [string, string][],
 * }} ArmSpec
 */

/**
 * `NAME=VALUE` → [NAME, VALUE]. The value may itself contain `=`; the name may not be empty.
 * @param {string} text
 * @param {string} flag the flag it came from, for the message
 * @returns {[string, string]}
 */
export function parseAssignment(text, flag) {
  const at = text.indexOf("=");
  const name = at < 0 ? "" : text.slice(0, at).trim();
  if (at < 0 || name === "") throw new UsageError(`${flag} expects NAME=VALUE, got "${text}"`);
  return [name, text.slice(at + 1)];
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/;
const TRUE_WORDS = new Set(["true", "yes", "1", "on"]);
const FALSE_WORDS = new Set(["false", "no", "0", "off"]);

/**
 * A command-line string as the variable's declared type: numbers as numbers, `true`/`false`
 * (also yes/no, 1/0, on/off) as booleans, dates checked as ISO dates and kept as strings.
 * @param {VariableDefinition} def
 * @param {string} raw
 * @returns {VariableValue}
 */
export function parseTypedValue(def, raw) {
  const text = raw.trim();
  switch (def.data_type) {
    case "number": {
      const n = text === "" ? NaN : Number(text);
      if (!Number.isFinite(n)) throw new UsageError(`${def.name} is a number; "${raw}" is not one`);
      return n;
    }
    case "boolean": {
      const word = text.toLowerCase();
      if (TRUE_WORDS.has(word)) return true;
      if (FALSE_WORDS.has(word)) return false;
      throw new UsageError(`${def.name} is true or false; "${raw}" is neither`);
    }
    case "date":
      if (!ISO_DATE.test(text) || Number.isNaN(Date.parse(text))) {
        throw new UsageError(`${def.name} is a date (YYYY-MM-DD); "${raw}" is not one`);
      }
      return text;
    default:
      return raw;
  }
}

/**
 * "Known variables: A (number), B (string)" — or a sentence saying there are none.
 * @param {VariableDefinition[]} definitions
 */
export function describeKnownVariables(definitions) {
  if (definitions.length === 0) return "The suite's agent declares no variables.";
  return `Known variables: ${definitions.map((d) => `${d.name} (${d.data_type})`).join(", ")}.`;
}

/**
 * Looks a variable up by name; an unknown name is a usage error listing the known ones.
 * @param {VariableDefinition[]} definitions
 * @param {string} name
 */
export function findVariable(definitions, name) {
  const def = definitions.find((d) => d.name === name);
  if (!def) throw new UsageError(`Unknown variable "${name}". ${describeKnownVariables(definitions)}`);
  return def;
}

/**
 * `--var NAME=VALUE` assignments typed by the agent's variable definitions (the variables model
 * `variables_schema`). A later assignment of the same name wins, like repeated shell flags.
 * @param {VariableDefinition[]} definitions
 * @param {[string, string][]} assignments
 * @returns {Record<string, VariableValue>}
 */
export function typeVariables(definitions, assignments) {
  /** @type {Record<string, VariableValue>} */
  const values = {};
  for (const [name, raw] of assignments) values[name] = parseTypedValue(findVariable(definitions, name), raw);
  return values;
}

export const ARM_KEYS = ["model", "agent", "temperature", "max_tokens", "system_prompt", "label", "var.NAME"];

/**
 * One comparison arm from `KEY=VALUE` pairs (`model`, `agent`, `temperature`, `max_tokens`,
 * `system_prompt`, `label`, `var.NAME`). Names (model, agent) are resolved against the API
 * later; numbers are checked here.
 * @param {string[]} pairs
 * @param {string} flag `--baseline` or `--variant`, for messages
 * @returns {ArmSpec}
 */
export function parseArm(pairs, flag) {
  /** @type {ArmSpec} */
  const arm = { vars: [] };
  for (const pair of pairs) {
    const [key, value] = parseAssignment(pair, flag);
    if (key.startsWith("var.")) {
      const name = key.slice(4);
      if (name === "") throw new UsageError(`${flag}: "var." needs a variable name (var.NAME=VALUE)`);
      arm.vars.push([name, value]);
      continue;
    }
    switch (key) {
      case "model":
      case "agent":
      case "label":
      case "system_prompt":
        if (value.trim() === "" && key !== "system_prompt") throw new UsageError(`${flag}: ${key} cannot be empty`);
        arm[key] = key === "system_prompt" ? value : value.trim();
        break;
      case "temperature": {
        const n = Number(value);
        if (value.trim() === "" || !Number.isFinite(n) || n < 0 || n > 2) {
          throw new UsageError(`${flag}: temperature must be a number between 0 and 2, got "${value}"`);
        }
        arm.temperature = n;
        break;
      }
      case "max_tokens": {
        const n = Number(value);
        if (!/^\s*\d+\s*$/.test(value) || n < 1) throw new UsageError(`${flag}: max_tokens must be a whole number ≥ 1, got "${value}"`);
        arm.max_tokens = n;
        break;
      }
      default:
        throw new UsageError(`${flag}: unknown key "${key}". Arm keys: ${ARM_KEYS.join(", ")}`);
    }
  }
  return arm;
}

/**
 * `--axis NAME=v1,v2` → [NAME, ["v1", "v2"]]; each name once, at least one value each.
 * @param {string[]} axes
 * @returns {[string, string[]][]}
 */
export function parseAxes(axes) {
  /** @type {[string, string[]][]} */
  const out = [];
  for (const text of axes) {
    const [name, list] = parseAssignment(text, "--axis");
    const values = list.split(",").map((v) => v.trim());
    if (values.some((v) => v === "")) throw new UsageError(`--axis ${name}: empty value in "${list}" (use NAME=v1,v2)`);
    if (out.some(([n]) => n === name)) throw new UsageError(`--axis ${name} is given twice; list all its values in one --axis`);
    out.push([name, values]);
  }
  if (out.length === 0) throw new UsageError("assay matrix needs at least one --axis NAME=v1,v2");
  return out;
}

/**
 * A percentage from the command line (0–100).
 * @param {string} text
 */
export function parsePercent(text) {
  const n = Number(text.trim().replace(/%$/, ""));
  if (text.trim() === "" || !Number.isFinite(n) || n < 0 || n > 100)
    throw new UsageError(`expected a percentage between 0 and 100, got "${text}"`);
  return n;
}

/**
 * A whole number in [min, max] from the command line.
 * @param {string} text
 * @param {string} flag
 * @param {number} min
 * @param {number} max
 */
export function parseWholeNumber(text, flag, min, max) {
  const n = Number(text);
  if (!/^\s*\d+\s*$/.test(text) || n < min || n > max)
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, got "${text}"`);
  return n;
}

export const RUN_REPORT_FORMATS = ["junit", "json", "markdown", "csv"];

/**
 * The report format: the flag, else the output file's extension (.xml → junit), else none.
 * @param {string | undefined} format
 * @param {string | undefined} output
 * @param {string[]} allowed
 * @returns {string | undefined}
 */
export function reportFormat(format, output, allowed) {
  if (format) return format;
  if (!output) return undefined;
  const ext = output.toLowerCase().split(".").pop() ?? "";
  /** @type {Record<string, string>} */
  const byExtension = { xml: "junit", json: "json", md: "markdown", markdown: "markdown", csv: "csv", yaml: "yaml", yml: "yaml" };
  const guess = byExtension[ext];
  return guess && allowed.includes(guess) ? guess : allowed[0];
}

/**
 * @typedef {{
 *   trials?: number,
 *   pass_at_1?: number | null,
 *   pass_at_1_ci95?: [number, number] | null,
 *   pass_at_k?: number | null,
 *   pass_all_k?: number | null,
 *   flaky_cases?: number,
 * }} TrialSummary the run summary's trial figures (rates are fractions 0..1); older servers send none
 * @typedef {{minPassRate: number, gate?: "point" | "lower", maxFlaky?: number}} Gates
 */

/**
 * A fraction 0..1 as a percentage with one decimal: 0.725 → "72.5". The gate compares the exact
 * value; this is only for people reading it.
 * @param {number} fraction
 */
export const percentText = (fraction) => (fraction * 100).toFixed(1);

/**
 * "pass@1 72.5% (95% CI 61.0–83.0%)"; without an interval just the rate, without a rate "pass@1 —".
 * @param {TrialSummary} s
 */
export function passAt1Text(s) {
  if (typeof s.pass_at_1 !== "number") return "pass@1 — (no judged case)";
  const ci = s.pass_at_1_ci95 ? ` (95% CI ${percentText(s.pass_at_1_ci95[0])}–${percentText(s.pass_at_1_ci95[1])}%)` : "";
  return `pass@1 ${percentText(s.pass_at_1)}%${ci}`;
}

/**
 * The line after a run with its trial figures: pass@1 with its interval, and with several trials
 * per case also pass@k, pass^k and the flaky count. Nothing for a server that does not send them.
 * @param {TrialSummary | null | undefined} s
 */
export function trialsLine(s) {
  if (!s || s.pass_at_1 === undefined) return null;
  const trials = s.trials ?? 1;
  if (trials <= 1) return passAt1Text(s);
  const rate = (/** @type {number | null | undefined} */ f) => (typeof f === "number" ? `${percentText(f)}%` : "—");
  const flaky = s.flaky_cases ?? 0;
  return (
    `${trials} trials per case: ${passAt1Text(s)}, pass@${trials} ${rate(s.pass_at_k)}, pass^${trials} ${rate(s.pass_all_k)}, ` +
    `${flaky} flaky ${flaky === 1 ? "case" : "cases"}`
  );
}

/** Rounds away binary noise (0.29 × 100 is 28.999999999999996) before a percentage is compared. */
const asPercent = (/** @type {number} */ fraction) => Math.round(fraction * 100 * 1e9) / 1e9;

/**
 * The pass-rate gate: pass@1 (or, with `gate: "lower"`, its interval's lower bound) × 100 against
 * `minPassRate`; a server that sends no pass@1 is gated on its pass rate as before.
 * @param {{pass_rate: number | null, summary?: TrialSummary | null}} run
 * @param {Gates} gates
 * @returns {{ok: boolean, text: string}}
 */
function passRateGate(run, gates) {
  const s = run.summary ?? {};
  const min = `${gates.minPassRate}%`;
  if (s.pass_at_1 === undefined) {
    const rate = run.pass_rate ?? 0;
    return rate >= gates.minPassRate
      ? { ok: true, text: `pass rate ${rate}% ≥ ${min}` }
      : { ok: false, text: `pass rate ${rate}% is below ${min}` };
  }
  const figures = passAt1Text(s);
  if (gates.gate === "lower") {
    const low = s.pass_at_1_ci95?.[0] ?? s.pass_at_1 ?? 0;
    const text = `the lower bound ${percentText(low)}% of ${figures}`;
    return asPercent(low) >= gates.minPassRate ? { ok: true, text: `${text} ≥ ${min}` } : { ok: false, text: `${text} is below ${min}` };
  }
  const point = s.pass_at_1 ?? 0;
  return asPercent(point) >= gates.minPassRate
    ? { ok: true, text: `${figures} ≥ ${min}` }
    : { ok: false, text: `${figures} is below ${min}` };
}

/**
 * The flaky gate: more flaky cases than `maxFlaky` fails. A summary without a flaky count (an
 * older server, one trial per case) has none.
 * @param {TrialSummary | null | undefined} s
 * @param {number} maxFlaky
 * @returns {{ok: boolean, text: string}}
 */
function flakyGate(s, maxFlaky) {
  const flaky = s?.flaky_cases ?? 0;
  const cases = `${flaky} flaky ${flaky === 1 ? "case" : "cases"}`;
  return flaky > maxFlaky
    ? { ok: false, text: `${cases} > --max-flaky ${maxFlaky}` }
    : { ok: true, text: `${cases} ≤ --max-flaky ${maxFlaky}` };
}

/**
 * The exit code of a finished run: 3 when it failed or was cancelled; else 1 when a gate fails
 * (pass@1, or its interval's lower bound with `gate: "lower"`, below `minPassRate`; more flaky
 * cases than `maxFlaky`), else 0. The reason names every gate that failed, with its figures.
 * @param {{status: string, pass_rate: number | null, summary?: TrialSummary | null}} run
 * @param {Gates} gates
 * @returns {{code: number, reason: string}}
 */
export function runExitCode(run, gates) {
  if (run.status !== "completed")
    return { code: EXIT.failed, reason: `the run ${run.status === "cancelled" ? "was cancelled" : "failed"}` };
  const checks = [passRateGate(run, gates), ...(gates.maxFlaky !== undefined ? [flakyGate(run.summary, gates.maxFlaky)] : [])];
  const failed = checks.filter((c) => !c.ok);
  if (failed.length > 0) return { code: EXIT.belowThreshold, reason: failed.map((c) => c.text).join("; ") };
  return { code: EXIT.passed, reason: checks.map((c) => c.text).join("; ") };
}

/**
 * The body fields a comparison or matrix takes from the common flags: repetitions, concurrency
 * and the case selection (tags, difficulty, case ids); a flag left out sends nothing.
 * @param {{repetitions?: number, concurrency?: number, tag: string[], difficulty?: string, case: string[]}} opts
 */
export function selectionBody(opts) {
  return {
    ...(opts.repetitions ? { repetitions: opts.repetitions } : {}),
    ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
    ...(opts.tag.length > 0 ? { tags: opts.tag } : {}),
    ...(opts.difficulty ? { difficulty: opts.difficulty } : {}),
    ...(opts.case.length > 0 ? { case_ids: opts.case } : {}),
  };
}
