// @ts-check
/** `assay runs export`: a run's transcripts as a file another tool reads (OpenAI chat JSONL, for fine-tuning and evals). */
import { EXIT, UsageError } from "./errors.mjs";
import { writeReport } from "./output.mjs";
import { isUuid } from "./resolve.mjs";

/** `--format` of `assay runs export`. */
export const RUN_EXPORT_FORMATS = ["openai-jsonl"];

/**
 * @param {import("./run.mjs").Context} ctx
 * @param {string} runId
 * @param {{format: string, output?: string}} opts
 */
export async function runExportCommand(ctx, runId, opts) {
  // People know runs by number (#12); the API addresses them by id, which `assay run` prints.
  if (!isUuid(runId)) throw new UsageError(`<run-id> is a run's id (a UUID, as \`assay run\` prints it), got "${runId}"`);
  const res = await ctx.api.raw("GET", `/runs/${runId}/export`, { query: { format: opts.format } });
  await writeReport(new Uint8Array(await res.arrayBuffer()), opts.output);
  return EXIT.passed;
}
