// @ts-check
/** `assay list` and `assay cases export|import`: a suite's test cases from the command line. */
import { readFile } from "node:fs/promises";
import { EXIT, UsageError } from "./errors.mjs";
import { note, table, writeReport } from "./output.mjs";
import { agentVariables, resolveSuite } from "./resolve.mjs";

/**
 * @typedef {string | number | boolean} VariableValue
 * @typedef {{exposed?: boolean, default_value?: VariableValue | null, locked?: boolean, restricted_values?: VariableValue[] | null}} TestVariableConfig
 * @typedef {{name: string, variable: string, type: string, value: string, source: string, locked: boolean, allowed: string}} ExposedVariable
 */

/** @param {VariableValue | null | undefined} v */
const showValue = (v) => (v === null || v === undefined ? "–" : typeof v === "string" ? JSON.stringify(v) : String(v));

/**
 * The variables a case exposes, each with the value it resolves to before any run value (a test
 * lock wins, at the case's default or else the agent's, recorded as `test` as the server does;
 * then suite > test > type, the variables model) and the values a run may choose from. A case without a
 * `variables` config exposes every agent variable with its type default.
 * @param {{name: string, variables?: Record<string, TestVariableConfig> | null}} testCase
 * @param {import("./args.mjs").VariableDefinition[]} definitions
 * @param {Record<string, VariableValue>} suiteValues
 * @returns {ExposedVariable[]}
 */
export function exposedVariables(testCase, definitions, suiteValues) {
  /** @type {ExposedVariable[]} */
  const out = [];
  for (const def of definitions) {
    const cfg = testCase.variables?.[def.name];
    if (cfg && cfg.exposed === false) continue;
    const locked = Boolean(cfg?.locked);
    /** @type {[string, VariableValue | null | undefined][]} */
    const candidates = locked
      ? [
          ["test", cfg?.default_value],
          ["test", def.default_value],
        ]
      : [
          ["suite", suiteValues[def.name]],
          ["test", cfg?.default_value],
          ["type", def.default_value],
        ];
    const found = candidates.find(([, v]) => v !== undefined && v !== null);
    const restricted = cfg?.restricted_values ?? [];
    const allowed =
      restricted.length > 0
        ? restricted.map(showValue).join(", ")
        : def.value_source === "static" && (def.possible_values ?? []).length > 0
          ? (def.possible_values ?? []).map((p) => showValue(p.value)).join(", ")
          : `any ${def.data_type}`;
    out.push({
      name: testCase.name,
      variable: def.name,
      type: def.data_type,
      value: found ? showValue(found[1]) : def.required ? "(required)" : "–",
      source: found ? found[0] : "",
      locked,
      allowed,
    });
  }
  return out;
}

/**
 * @param {import("./run.mjs").Context} ctx
 * @param {string} suiteRef
 * @param {{showVariables?: boolean, json?: boolean}} opts
 */
export async function listCommand(ctx, suiteRef, opts) {
  const suite = await resolveSuite(ctx.api, suiteRef);
  const cases = await ctx.api.list(`/suites/${suite.id}/test-cases`);
  if (!opts.showVariables) {
    if (opts.json) process.stdout.write(`${JSON.stringify(cases, null, 2)}\n`);
    else {
      process.stdout.write(
        table(
          ["id", "status", "difficulty", "tags", "name"],
          cases.map((c) => [c.id, c.status, c.difficulty, (c.tags ?? []).join(","), c.name]),
        ),
      );
    }
    note(`${cases.length} test cases in "${suite.name}"`);
    return EXIT.passed;
  }
  const definitions = await agentVariables(ctx.api, suite.agent_id);
  const suiteValues = /** @type {Record<string, VariableValue>} */ (suite.variables ?? {});
  const rows = cases.flatMap((c) => exposedVariables(c, definitions, suiteValues));
  if (opts.json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  else {
    process.stdout.write(
      table(
        ["case", "variable", "type", "default", "source", "locked", "allowed values"],
        rows.map((r) => [r.name, r.variable, r.type, r.value, r.source, r.locked ? "yes" : "no", r.allowed]),
      ),
    );
  }
  if (definitions.length === 0) note(`The agent of "${suite.name}" declares no variables.`);
  return EXIT.passed;
}

/**
 * @param {import("./run.mjs").Context} ctx
 * @param {string} suiteRef
 * @param {{format: string, output?: string}} opts
 */
export async function exportCommand(ctx, suiteRef, opts) {
  const suite = await resolveSuite(ctx.api, suiteRef);
  const res = await ctx.api.raw("GET", `/suites/${suite.id}/test-cases/export`, { query: { format: opts.format } });
  await writeReport(new Uint8Array(await res.arrayBuffer()), opts.output);
  return EXIT.passed;
}

/**
 * @param {import("./run.mjs").Context} ctx
 * @param {string} suiteRef
 * @param {string} file
 * @param {{validOnly?: boolean}} opts
 */
export async function importCommand(ctx, suiteRef, file, opts) {
  let text;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    throw new UsageError(`Cannot read ${file}: ${/** @type {Error} */ (err).message}`);
  }
  const suite = await resolveSuite(ctx.api, suiteRef);
  const yaml = /\.ya?ml$/i.test(file) || (!/\.json$/i.test(file) && !/^\s*[[{]/.test(text));
  const result = await ctx.api.json("POST", `/suites/${suite.id}/test-cases/import`, {
    body: text,
    contentType: yaml ? "application/yaml" : "application/json",
    query: opts.validOnly ? { valid_only: "true" } : {},
  });
  note(`Imported ${result.imported} test cases into "${suite.name}"${result.skipped ? `; skipped ${result.skipped} invalid` : ""}`);
  for (const e of result.errors ?? []) note(`  case ${e.index}${e.path ? `.${e.path}` : ""}: ${e.message}`);
  return EXIT.passed;
}
