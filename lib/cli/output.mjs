// @ts-check
/** Where the CLI's results go: a report to --output or stdout, messages to stderr. */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * Writes a report to `file` (creating its folder) or to stdout.
 * @param {string | Uint8Array} content
 * @param {string | undefined} file
 */
export async function writeReport(content, file) {
  if (!file || file === "-") {
    await new Promise((resolve, reject) => process.stdout.write(content, (err) => (err ? reject(err) : resolve(undefined))));
    return;
  }
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  await writeFile(file, content);
  note(`Wrote ${file}`);
}

/**
 * A line for the person or CI log reading stderr.
 * @param {string} line
 */
export function note(line) {
  process.stderr.write(`${line}\n`);
}

/**
 * Fixed-width columns for a terminal table.
 * @param {string[]} header
 * @param {string[][]} rows
 */
export function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (/** @type {string[]} */ cells) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n") + "\n";
}
