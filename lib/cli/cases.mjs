// @ts-check
/**
 * `assay list` and `assay cases export|import`: a suite's test cases from the command line, moved
 * in and out as files in Assay's format or another tool's (promptfoo, Langfuse, DeepEval, OpenAI
 * chat JSONL, Inspect); the server converts, this module sends the file and prints its report.
 */
import { readFile } from "node:fs/promises";
import { ApiError, EXIT, UsageError } from "./errors.mjs";
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
 * @typedef {{index: number, path: string, message: string}} ImportIssue
 * @typedef {{index: number, label: string, mapped: string[], dropped: {field: string, reason: string}[], error: string | null}} ImportItem
 * @typedef {{
 *   format?: string, dry_run?: boolean, imported: number, would_import?: number, skipped: number,
 *   errors?: ImportIssue[], items?: ImportItem[], notes?: string[],
 * }} ImportReport the import endpoint's answer; an older server sends neither format, dry_run, items nor notes
 */

/** `--format` of `assay cases import`: Assay's own documents (YAML, JSON or its zip), or another tool's file. */
export const IMPORT_FORMATS = ["assay", "promptfoo", "langfuse", "deepeval", "openai-jsonl", "inspect"];

/** `--format` of `assay cases export`: Assay's YAML, JSON or zip (with the uploaded files), or another tool's format. */
export const CASE_EXPORT_FORMATS = ["yaml", "json", "zip", "promptfoo", "deepeval", "langfuse"];

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

/**
 * @param {number} n
 * @param {string} one
 */
const plural = (n, one) => `${n} ${one}${n === 1 ? "" : "s"}`;

/**
 * The Content-Type the import endpoint reads a file as. A zip (Assay's bundle, a promptfoo config
 * with its files) by its name or its first bytes; YAML, JSON Lines and JSON by name; any other name
 * by its content, as the CLI always did: a document that does not open with `[` or `{` is YAML.
 * @param {string} file
 * @param {Uint8Array} bytes
 */
export function importContentType(file, bytes) {
  if (/\.zip$/i.test(file) || ZIP_MAGIC.every((b, i) => bytes[i] === b)) return "application/zip";
  if (/\.ya?ml$/i.test(file)) return "application/yaml";
  if (/\.(jsonl|ndjson)$/i.test(file)) return "application/x-ndjson";
  if (/\.json$/i.test(file)) return "application/json";
  const start = new TextDecoder().decode(bytes.subarray(0, 256));
  return /^\uFEFF?\s*[[{]/.test(start) ? "application/json" : "application/yaml";
}

/** @param {ImportIssue} e */
const issueText = (e) => (e.path ? `${e.path}: ${e.message}` : e.message);

/**
 * The report for a terminal or a CI log. Per source item of another tool's file: ✓ or ✗ and its
 * label, then why it cannot be imported, what was mapped (one line) and every field that was not
 * carried over with why. Assay's own documents have no items: then one line per invalid case.
 * @param {ImportReport} report
 * @returns {string[]}
 */
export function importReportLines(report) {
  const errors = report.errors ?? [];
  const items = report.items ?? [];
  if (items.length === 0) return errors.map((e) => `✗ case ${e.index}${e.path ? `.${e.path}` : ""}: ${e.message}`);
  return items.flatMap((item) => {
    const issues = errors.filter((e) => e.index === item.index);
    const failed = item.error !== null || issues.length > 0;
    return [
      `${failed ? "✗" : "✓"} ${item.label}`,
      // The server repeats a conversion error among the errors: say it once.
      ...(item.error !== null ? [item.error] : issues.map(issueText)).map((m) => `    error: ${m}`),
      ...(item.mapped.length > 0 ? [`    mapped: ${item.mapped.join(" · ")}`] : []),
      ...item.dropped.map((d) => `    dropped: ${d.field} — ${d.reason}`),
    ];
  });
}

/**
 * The closing line: what was (in a dry run: would be) imported, what was left out, and how many
 * fields of the source were not carried over.
 * @param {ImportReport} report
 * @param {string} suiteName
 */
export function importSummary(report, suiteName) {
  const dropped = (report.items ?? []).reduce((n, item) => n + item.dropped.length, 0);
  const item = (report.items ?? []).length > 0 ? "item" : "case";
  const rest = [
    report.skipped > 0 ? `${plural(report.skipped, item)} cannot be imported` : "",
    dropped > 0 ? `${plural(dropped, "field")} not carried over` : "",
  ]
    .filter(Boolean)
    .map((part) => `; ${part}`)
    .join("");
  if (report.dry_run) {
    return `Dry run: ${plural(report.would_import ?? 0, "test case")} would be imported into "${suiteName}"${rest}; nothing was written`;
  }
  return `Imported ${plural(report.imported, "test case")} into "${suiteName}"${rest}`;
}

/**
 * @param {string} file
 * @returns {Promise<Uint8Array<ArrayBuffer>>}
 */
async function readImportFile(file) {
  try {
    return new Uint8Array(await readFile(file));
  } catch (err) {
    throw new UsageError(`Cannot read ${file}: ${/** @type {Error} */ (err).message}`);
  }
}

/**
 * A refused import (some cases invalid, no --valid-only) with the two ways on: see each item's
 * fate first, or import the valid ones.
 * @param {unknown} err
 */
function withImportHint(err) {
  if (!(err instanceof ApiError) || err.status !== 400 || !err.issues.some((i) => /^\d+(\.|$)/.test(i.path))) return err;
  const hint = "--dry-run shows what each item becomes; --valid-only imports the valid ones";
  return new ApiError(err.status, err.code, `${err.message} (${hint})`, err.issues);
}

/**
 * `assay cases import`: the file as it is (bytes: a zip stays a zip) with its Content-Type; the
 * server converts another tool's file and answers with a per-item report. A dry run exits as the
 * import would: 2 when invalid items would refuse it (without --valid-only).
 * @param {import("./run.mjs").Context} ctx
 * @param {string} suiteRef
 * @param {string} file
 * @param {{format?: string, dryRun?: boolean, validOnly?: boolean, json?: boolean}} opts
 */
export async function importCommand(ctx, suiteRef, file, opts) {
  const bytes = await readImportFile(file);
  const suite = await resolveSuite(ctx.api, suiteRef);
  /** @type {ImportReport} */
  let report;
  try {
    report = await ctx.api.json("POST", `/suites/${suite.id}/test-cases/import`, {
      body: bytes,
      contentType: importContentType(file, bytes),
      // Assay's own format is the default: not naming it keeps older servers, which know no `format`, working.
      query: {
        format: opts.format && opts.format !== "assay" ? opts.format : undefined,
        dry_run: opts.dryRun ? "true" : undefined,
        valid_only: opts.validOnly ? "true" : undefined,
      },
    });
  } catch (err) {
    throw withImportHint(err);
  }
  if (opts.json) await writeReport(`${JSON.stringify(report, null, 2)}\n`, undefined);
  else {
    const lines = importReportLines(report);
    if (lines.length > 0) await writeReport(`${lines.join("\n")}\n`, undefined);
  }
  for (const text of report.notes ?? []) note(`Note: ${text}`);
  if (opts.dryRun && report.dry_run !== true) {
    note(`This server does not know dry runs (an older Assay version?): the file was imported.`);
  }
  note(importSummary(report, suite.name));
  if (report.dry_run && !opts.validOnly && report.skipped > 0) {
    note("The import would be refused: nothing is imported while any item is invalid, unless --valid-only");
    return EXIT.usage;
  }
  return EXIT.passed;
}

/**
 * `assay cases export`: the suite's cases as a file, in Assay's format or another tool's. The
 * server counts the cases another tool's format cannot hold in full (X-Assay-Not-Exported).
 * @param {import("./run.mjs").Context} ctx
 * @param {string} suiteRef
 * @param {{format: string, output?: string}} opts
 */
export async function exportCommand(ctx, suiteRef, opts) {
  if (opts.format === "zip" && !opts.output && process.stdout.isTTY) {
    throw new UsageError("--format zip is a binary file: write it with --output FILE (or redirect stdout)");
  }
  const suite = await resolveSuite(ctx.api, suiteRef);
  const res = await ctx.api.raw("GET", `/suites/${suite.id}/test-cases/export`, { query: { format: opts.format } });
  await writeReport(new Uint8Array(await res.arrayBuffer()), opts.output);
  const partial = Number(res.headers.get("x-assay-not-exported") ?? 0);
  if (partial > 0)
    note(`${plural(partial, "case")} of "${suite.name}" not exported in full: ${opts.format} cannot hold some of their fields`);
  return EXIT.passed;
}
