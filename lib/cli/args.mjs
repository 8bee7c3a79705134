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
 * The exit code of a finished run: 3 when it failed or was cancelled, else 0 when its pass rate
 * (passed / executed × 100, as the API reports it) reaches `minPassRate`, else 1.
 * @param {{status: string, pass_rate: number | null}} run
 * @param {number} minPassRate
 * @returns {{code: number, reason: string}}
 */
export function runExitCode(run, minPassRate) {
  if (run.status !== "completed")
    return { code: EXIT.failed, reason: `the run ${run.status === "cancelled" ? "was cancelled" : "failed"}` };
  const rate = run.pass_rate ?? 0;
  if (rate >= minPassRate) return { code: EXIT.passed, reason: `pass rate ${rate}% ≥ ${minPassRate}%` };
  return { code: EXIT.belowThreshold, reason: `pass rate ${rate}% is below ${minPassRate}%` };
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
