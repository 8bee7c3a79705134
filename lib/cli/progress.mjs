// @ts-check
/**
 * `--wait`: polls a run, comparison or matrix until it finishes, showing progress on stderr
 * (stdout stays free for the report): a bar redrawn in place on a terminal, one plain line per
 * change otherwise (CI logs).
 */

import { note, writeReport } from "./output.mjs";

export const FINISHED = new Set(["completed", "failed", "cancelled"]);

/**
 * @param {number} done
 * @param {number} total
 * @param {number} width
 */
export function progressBar(done, total, width = 30) {
  const ratio = total > 0 ? Math.min(1, done / total) : 0;
  const filled = Math.round(ratio * width);
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${String(Math.round(ratio * 100)).padStart(3)}%`;
}

/**
 * @template T
 * @param {{
 *   fetch: () => Promise<T>,
 *   status: (value: T) => string,
 *   progress: (value: T) => {done: number, total: number, detail: string},
 *   pollMs: number,
 *   stream?: NodeJS.WriteStream,
 *   label: string,
 * }} opts
 * @returns {Promise<T>} the finished resource
 */
export async function waitUntilFinished({ fetch, status, progress, pollMs, stream = process.stderr, label }) {
  const tty = Boolean(stream.isTTY);
  let last = "";
  for (;;) {
    const value = await fetch();
    const state = status(value);
    const { done, total, detail } = progress(value);
    if (tty) {
      stream.write(`\r${label} ${progressBar(done, total)} ${done}/${total} ${detail}\x1b[K`);
    } else {
      const line = `${label}: ${state}, ${done}/${total} ${detail}`;
      if (line !== last) stream.write(`${line}\n`);
      last = line;
    }
    if (FINISHED.has(state)) {
      if (tty) stream.write("\n");
      return value;
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/**
 * What a command does once it started a run, comparison or matrix: notes the metadata line;
 * without --wait it prints only the id on stdout (the whole object with --json), so
 * `ID=$(assay …)` works in scripts, and returns null; with --wait it follows `${path}/{id}` until
 * it finishes and returns the finished resource.
 * @param {import("./run.mjs").Context} ctx
 * @param {any} started the created resource
 * @param {{metaLine?: string | null, wait?: boolean, json?: boolean}} opts
 * @param {{label: string, path: string, progress: (value: any) => {done: number, total: number, detail: string}}} follow
 * @returns {Promise<any>}
 */
export async function followStarted(ctx, started, opts, follow) {
  if (opts.metaLine) note(opts.metaLine);
  if (!opts.wait) {
    if (opts.json) await writeReport(`${JSON.stringify(started, null, 2)}\n`, undefined);
    else process.stdout.write(`${started.id}\n`);
    return null;
  }
  return waitUntilFinished({
    label: follow.label,
    pollMs: ctx.pollMs,
    fetch: () => ctx.api.get(`${follow.path}/${started.id}`),
    status: (value) => value.status,
    progress: follow.progress,
  });
}
