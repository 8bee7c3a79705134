// @ts-check
/** `assay run`: start a run of a suite, optionally wait for it, write its report, exit by its gates (pass@1, flaky cases, a trusted judge). */
import { RUN_REPORT_FORMATS, parseAssignment, reportFormat, runExitCode, trialsLine, typeVariables } from "./args.mjs";
import { EXIT, UsageError } from "./errors.mjs";
import { commandMetadata } from "./metadata.mjs";
import { note, writeReport } from "./output.mjs";
import { followStarted } from "./progress.mjs";
import { agentVariables, presetValues, resolveSuite } from "./resolve.mjs";

/**
 * @typedef {{
 *   var: string[], preset?: string, tag: string[], tagMatch?: string, difficulty?: string, case: string[],
 *   trials?: number, concurrency?: number, wait?: boolean, format?: string, output?: string, minPassRate: number,
 *   gate?: "point" | "lower", maxFlaky?: number, requireTrustedJudge?: boolean, meta: string[], ciMeta: boolean, json?: boolean,
 * }} RunOptions
 * @typedef {{api: import("./api.mjs").AssayApi, pollMs: number, env: import("./metadata.mjs").Env}} Context
 */

/**
 * "#12", as the app names a run; the id for a server that does not number runs yet.
 * @param {{id: string, number?: number | null}} run
 */
export const runName = (run) => (typeof run.number === "number" ? `#${run.number}` : run.id);

/**
 * "4 cases", or with several trials "4 cases × 3 trials = 12 executions" (`total_cases` counts executions).
 * @param {{total_cases: number, trials?: number}} run
 */
const startedSize = (run) => {
  const trials = run.trials ?? 1;
  if (trials <= 1) return `${run.total_cases} cases`;
  return `${run.total_cases / trials} cases × ${trials} trials = ${run.total_cases} executions`;
};

/**
 * "Judge: trusted (κ 0.72, 95% CI 0.61–0.83, 48 labelled)": the suite's judge calibration in one line.
 * @param {{status: string, thresholds: {min_labels: number}, fingerprints: {levels: {overall: {n: number, kappa: number | null, kappa_ci95: [number, number] | null}}}[]}} c
 */
export function judgeLine(c) {
  const overall = c.fingerprints[0]?.levels.overall;
  const n = overall?.n ?? 0;
  if (c.status === "uncalibrated") return `Judge: uncalibrated (${n} of ${c.thresholds.min_labels} labelled judgements)`;
  const k = (/** @type {number} */ v) => v.toFixed(2);
  const kappa = overall?.kappa == null ? "κ undefined" : `κ ${k(overall.kappa)}`;
  const ci = overall?.kappa_ci95 ? `, 95% CI ${k(overall.kappa_ci95[0])}–${k(overall.kappa_ci95[1])}` : "";
  return `Judge: ${c.status} (${kappa}${ci}, ${n} labelled)`;
}

/**
 * The suite judge's calibration line and, with --require-trusted-judge, its gate: exit 1 unless the
 * judge is trusted. Without the flag a server that cannot say (older, or the call failed) is not an error.
 * @param {Context} ctx
 * @param {string} suiteId
 * @param {boolean | undefined} required
 * @returns {Promise<{ok: boolean, text: string} | null>}
 */
async function judgeGate(ctx, suiteId, required) {
  try {
    const calibration = await ctx.api.get(`/suites/${suiteId}/judge-calibration`);
    const text = judgeLine(calibration);
    note(text);
    if (!required) return null;
    return calibration.status === "trusted"
      ? { ok: true, text: "the judge is trusted" }
      : { ok: false, text: `the suite's judge is ${calibration.status}, not trusted (--require-trusted-judge)` };
  } catch (err) {
    if (required) throw err;
    return null;
  }
}

/** @param {unknown} value */
const printJson = (value) => writeReport(`${JSON.stringify(value, null, 2)}\n`, undefined);

/**
 * Run-level variable values: the preset's, then `--var` on top; every name checked against the
 * suite agent's definitions and typed by them.
 * @param {Context} ctx
 * @param {{id: string, agent_id: string}} suite
 * @param {string[]} vars
 * @param {string | undefined} preset
 */
export async function runVariables(ctx, suite, vars, preset) {
  const assignments = vars.map((v) => parseAssignment(v, "--var"));
  if (assignments.length === 0 && !preset) return {};
  const definitions = await agentVariables(ctx.api, suite.agent_id);
  const fromPreset = preset ? await presetValues(ctx.api, suite.id, preset) : {};
  return { ...fromPreset, ...typeVariables(definitions, assignments) };
}

/**
 * @param {Context} ctx
 * @param {string} suiteRef
 * @param {RunOptions} opts
 * @returns {Promise<number>} the exit code
 */
export async function runCommand(ctx, suiteRef, opts) {
  if ((opts.format || opts.output) && !opts.wait)
    throw new UsageError("--format and --output need --wait (the report exists once the run finished)");
  if (opts.json && opts.wait && !opts.output && opts.format)
    throw new UsageError("--json and the --format report would both go to stdout; write the report with --output FILE");
  const meta = commandMetadata(opts, ctx.env);
  const suite = await resolveSuite(ctx.api, suiteRef);
  const variables = await runVariables(ctx, suite, opts.var, opts.preset);
  const body = {
    tags: opts.tag,
    ...(opts.tagMatch ? { tag_match: opts.tagMatch } : {}),
    ...(opts.difficulty ? { difficulty: opts.difficulty } : {}),
    ...(opts.case.length > 0 ? { case_ids: opts.case } : {}),
    ...(opts.trials ? { trials: opts.trials } : {}),
    ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
    variables,
    ...meta.body,
  };
  const started = await ctx.api.post(`/suites/${suite.id}/runs`, body);
  note(`Run ${runName(started)} of "${suite.name}" started (${startedSize(started)})`);
  const run = await followStarted(
    ctx,
    started,
    { metaLine: meta.line, wait: opts.wait, json: opts.json },
    {
      label: "run",
      path: "/runs",
      progress: (r) => ({
        done: r.done_cases ?? r.passed_cases + r.failed_cases + r.skipped_cases + r.error_cases,
        total: r.total_cases,
        detail: `(${r.passed_cases} passed, ${r.failed_cases} failed, ${r.error_cases} errors)`,
      }),
    },
  );
  if (!run) {
    const judge = await judgeGate(ctx, suite.id, opts.requireTrustedJudge);
    return judge && !judge.ok ? EXIT.belowThreshold : EXIT.passed;
  }
  const format = reportFormat(opts.format, opts.output, RUN_REPORT_FORMATS);
  if (format) {
    const res = await ctx.api.raw("GET", `/runs/${run.id}/report`, { query: { format } });
    await writeReport(new Uint8Array(await res.arrayBuffer()), opts.output);
  }
  if (opts.json) await printJson(run);
  const gates = runExitCode(run, { minPassRate: opts.minPassRate, gate: opts.gate, maxFlaky: opts.maxFlaky });
  const judge = run.status === "completed" ? await judgeGate(ctx, suite.id, opts.requireTrustedJudge) : null;
  const code = judge && !judge.ok && gates.code === EXIT.passed ? EXIT.belowThreshold : gates.code;
  const reason = judge ? `${gates.reason}; ${judge.text}` : gates.reason;
  const trials = trialsLine(run.summary);
  if (trials) note(trials);
  const executed = run.total_cases - run.skipped_cases;
  note(
    `Run ${runName(run)} ${run.status}: ${run.passed_cases}/${executed} passed, ${run.failed_cases} failed, ${run.error_cases} errors, ` +
      `${run.skipped_cases} skipped — ${reason}${run.error_message ? ` (${run.error_message})` : ""}`,
  );
  return code;
}
