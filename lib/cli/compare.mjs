// @ts-check
/** `assay compare`: an A/B comparison of two arms of a suite (the A/B engine), optionally waited for. */
import { parseArm, reportFormat, selectionBody, typeVariables } from "./args.mjs";
import { EXIT, UsageError } from "./errors.mjs";
import { commandMetadata } from "./metadata.mjs";
import { note, writeReport } from "./output.mjs";
import { followStarted } from "./progress.mjs";
import { agentVariables, resolveAgentId, resolveModelConfigId, resolveSuite } from "./resolve.mjs";

export const COMPARISON_REPORT_FORMATS = ["json", "csv"];

/**
 * @typedef {{
 *   baseline: string[], variant: string[], name?: string, ordering?: string, repetitions?: number, concurrency?: number,
 *   tag: string[], difficulty?: string, case: string[], wait?: boolean, format?: string, output?: string,
 *   meta: string[], ciMeta: boolean,
 * }} CompareOptions
 */

/**
 * The API's arm (`{label, agent_id, model_config_id, temperature, max_tokens, system_prompt, variables}`)
 * from the command line's `KEY=VALUE` pairs, names resolved to ids and `var.NAME` typed by the
 * arm's agent (the suite's unless `agent=` changes it).
 * @param {import("./run.mjs").Context} ctx
 * @param {{agent_id: string}} suite
 * @param {string[]} pairs
 * @param {string} flag
 */
export async function resolveArm(ctx, suite, pairs, flag) {
  const spec = parseArm(pairs, flag);
  /** @type {Record<string, unknown>} */
  const arm = {};
  if (spec.label) arm.label = spec.label;
  if (spec.system_prompt !== undefined) arm.system_prompt = spec.system_prompt;
  if (spec.temperature !== undefined) arm.temperature = spec.temperature;
  if (spec.max_tokens !== undefined) arm.max_tokens = spec.max_tokens;
  if (spec.model) arm.model_config_id = await resolveModelConfigId(ctx.api, spec.model);
  const agentId = spec.agent ? await resolveAgentId(ctx.api, spec.agent) : suite.agent_id;
  if (spec.agent) arm.agent_id = agentId;
  if (spec.vars.length > 0) arm.variables = typeVariables(await agentVariables(ctx.api, agentId), spec.vars);
  return arm;
}

/**
 * @param {import("./run.mjs").Context} ctx
 * @param {string} suiteRef
 * @param {CompareOptions} opts
 * @returns {Promise<number>}
 */
export async function compareCommand(ctx, suiteRef, opts) {
  if ((opts.format || opts.output) && !opts.wait)
    throw new UsageError("--format and --output need --wait (the report exists once the comparison finished)");
  const meta = commandMetadata(opts, ctx.env);
  const suite = await resolveSuite(ctx.api, suiteRef);
  const body = {
    ...(opts.name ? { name: opts.name } : {}),
    baseline: await resolveArm(ctx, suite, opts.baseline, "--baseline"),
    variant: await resolveArm(ctx, suite, opts.variant, "--variant"),
    ...(opts.ordering ? { ordering: opts.ordering } : {}),
    ...selectionBody(opts),
    ...meta.body,
  };
  const started = await ctx.api.post(`/suites/${suite.id}/comparisons`, body);
  note(`Comparison ${started.id} of "${suite.name}" started`);
  const done = await followStarted(
    ctx,
    started,
    { metaLine: meta.line, wait: opts.wait },
    {
      label: "comparison",
      path: "/comparisons",
      progress: (c) => ({ done: c.completed_pairs ?? 0, total: c.total_pairs ?? 0, detail: "pairs" }),
    },
  );
  if (!done) return EXIT.passed;
  const format = reportFormat(opts.format, opts.output, COMPARISON_REPORT_FORMATS);
  if (format) {
    const res = await ctx.api.raw("GET", `/comparisons/${done.id}/report`, { query: { format } });
    await writeReport(new Uint8Array(await res.arrayBuffer()), opts.output);
  }
  const verdict = done.summary?.verdict;
  note(`Comparison ${done.id} ${done.status}${verdict ? `: ${verdict}` : ""}${done.error_message ? ` (${done.error_message})` : ""}`);
  return done.status === "completed" ? EXIT.passed : EXIT.failed;
}
