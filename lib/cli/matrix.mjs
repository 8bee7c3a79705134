// @ts-check
/** `assay matrix`: one run per combination of variable values. */
import { parseAxes, parseTypedValue, findVariable, selectionBody } from "./args.mjs";
import { EXIT } from "./errors.mjs";
import { commandMetadata } from "./metadata.mjs";
import { note, table, writeReport } from "./output.mjs";
import { followStarted } from "./progress.mjs";
import { agentVariables, resolveSuite } from "./resolve.mjs";

/**
 * @typedef {{
 *   axis: string[], repetitions?: number, concurrency?: number, tag: string[], difficulty?: string, case: string[],
 *   wait?: boolean, format?: string, output?: string, meta: string[], ciMeta: boolean,
 * }} MatrixOptions
 */

/**
 * `--axis NAME=v1,v2` → `{NAME: [typed values]}` by the agent's variable definitions.
 * @param {import("./args.mjs").VariableDefinition[]} definitions
 * @param {string[]} axes
 */
export function typeAxes(definitions, axes) {
  /** @type {Record<string, (string | number | boolean)[]>} */
  const out = {};
  for (const [name, values] of parseAxes(axes)) {
    const def = findVariable(definitions, name);
    out[name] = values.map((v) => parseTypedValue(def, v));
  }
  return out;
}

/** @param {number | null | undefined} n @param {string} [unit] */
const show = (n, unit = "") => (n === null || n === undefined ? "–" : `${n}${unit}`);

/**
 * The per-combination table printed after `--wait`.
 * @param {any} matrix
 */
export function matrixTable(matrix) {
  const combos = Array.isArray(matrix.combinations) ? matrix.combinations : [];
  const best = matrix.best_combination?.index;
  return table(
    ["#", "combination", "status", "pass rate", "passed", "failed", "errors", "p50", "p95", "tokens", "cost"],
    combos.map((/** @type {any} */ c) => [
      `${c.index}${c.index === best ? "*" : ""}`,
      c.label ?? JSON.stringify(c.values),
      String(c.status ?? ""),
      show(c.pass_rate, "%"),
      show(c.passed),
      show(c.failed),
      show(c.errors),
      show(c.latency_p50_ms, " ms"),
      show(c.latency_p95_ms, " ms"),
      show(c.mean_total_tokens),
      show(c.estimated_cost),
    ]),
  );
}

/**
 * @param {import("./run.mjs").Context} ctx
 * @param {string} suiteRef
 * @param {MatrixOptions} opts
 * @returns {Promise<number>}
 */
export async function matrixCommand(ctx, suiteRef, opts) {
  const meta = commandMetadata(opts, ctx.env);
  const suite = await resolveSuite(ctx.api, suiteRef);
  const variables = typeAxes(await agentVariables(ctx.api, suite.agent_id), opts.axis);
  const body = {
    variables,
    ...selectionBody(opts),
    ...meta.body,
  };
  const started = await ctx.api.post(`/suites/${suite.id}/matrix`, body);
  const count = Array.isArray(started.combinations) ? started.combinations.length : started.total_combinations;
  note(`Matrix ${started.id} of "${suite.name}" started (${count} combinations)`);
  const done = await followStarted(
    ctx,
    started,
    { metaLine: meta.line, wait: opts.wait },
    {
      label: "matrix",
      path: "/matrices",
      progress: (m) => {
        const combos = Array.isArray(m.combinations) ? m.combinations : [];
        const sum = (/** @type {string} */ key) =>
          combos.reduce((/** @type {number} */ n, /** @type {any} */ c) => n + (Number(c[key]) || 0), 0);
        return {
          done: sum("completed_cases"),
          total: sum("total_cases"),
          detail: `cases (${m.finished_combinations ?? 0}/${m.total_combinations ?? combos.length} combinations)`,
        };
      },
    },
  );
  if (!done) return EXIT.passed;
  if (opts.format === "json" || opts.output) await writeReport(`${JSON.stringify(done, null, 2)}\n`, opts.output);
  else process.stdout.write(matrixTable(done));
  const best = done.best_combination;
  note(`Matrix ${done.id} ${done.status}${best ? `; best: ${best.label} (${best.pass_rate}%)` : ""}`);
  return done.status === "completed" ? EXIT.passed : EXIT.failed;
}
