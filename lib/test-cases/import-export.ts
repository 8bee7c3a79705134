import "server-only";
import YAML from "yaml";
import { db } from "@/lib/db";
import { ValidationError, zodIssues, type IssueList } from "@/lib/errors";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { requireRole } from "@/lib/workspaces/service";
import { testCaseInput, type TestCaseData } from "@/lib/test-cases/schemas";
import { testCaseSelect, toColumns, toTestCaseDocument, toTestCaseDto } from "@/lib/test-cases/dto";
import { lockLiveSuite, nextSortOrder, requireLiveSuite } from "@/lib/test-cases/suite-guards";
import { MAX_IMPORT_BYTES, MAX_YAML_ALIASES } from "@/lib/validation/limits";
import { findInvalidText } from "@/lib/validation/text";
import type { VariableDefinition } from "@/lib/agents/schemas";
import { caseAgentIssues } from "@/lib/test-cases/variables";
import { suiteVariableDefinitions } from "@/lib/test-cases/variable-guards";

export type CasesFormat = "yaml" | "json";
export type ImportIssue = { index: number; path: string; message: string };

export const MAX_IMPORT_CASES = 5000;
const TOO_LARGE = `At most ${MAX_IMPORT_BYTES / (1024 * 1024)} MB`;
const SHAPE_MESSAGE = "Expected a list of test cases, or an object with a test_cases list";

function lineColumn(text: string, position: number) {
  const before = text.slice(0, position);
  const line = before.split("\n").length;
  return { line, column: position - before.lastIndexOf("\n") };
}

/** Content-Type → format; undefined when it says neither (the document is sniffed). */
export function formatFromContentType(contentType: string | null | undefined): CasesFormat | undefined {
  const type = (contentType ?? "").toLowerCase();
  if (/\b(yaml|yml)\b/.test(type)) return "yaml";
  if (/\bjson\b/.test(type)) return "json";
  return undefined;
}

/**
 * Parses a YAML or JSON document of test cases (a top-level list or `{test_cases: [...]}`).
 * Syntax errors → ValidationError with the line and column where known. The same limits for
 * the API and the UI's import dialog: at most MAX_IMPORT_BYTES of text, and — since a few
 * hundred bytes of YAML anchors can expand into gigabytes — at most MAX_YAML_ALIASES aliases
 * and at most MAX_IMPORT_BYTES once expanded, each refused with a 400 that says so.
 */
export function parseCasesDocument(text: string, format?: CasesFormat): unknown {
  if (Buffer.byteLength(text, "utf8") > MAX_IMPORT_BYTES)
    throw new ValidationError("The document is too large", [{ path: "", message: TOO_LARGE }]);
  if (text.trim() === "") throw new ValidationError("The document is empty", [{ path: "", message: SHAPE_MESSAGE }]);
  const fmt = format ?? (/^\s*[[{]/.test(text) ? "json" : "yaml");
  let value: unknown;
  if (fmt === "json") {
    try {
      value = JSON.parse(text);
    } catch (err) {
      const message = (err as Error).message;
      const pos = /at position (\d+)/.exec(message);
      const where = pos ? lineColumn(text, Number(pos[1])) : null;
      const detail = where ? `Line ${where.line}, column ${where.column}: ${message}` : message;
      throw new ValidationError(`The JSON document is invalid: ${detail}`, [{ path: "", message: detail }]);
    }
  } else {
    refuseManyAliases(text);
    const doc = YAML.parseDocument(text, { prettyErrors: true, uniqueKeys: true });
    if (doc.errors.length > 0) {
      const issues = doc.errors.map((e) => {
        const pos = e.linePos?.[0];
        const first = (e.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, "");
        return { path: "", message: pos ? `Line ${pos.line}, column ${pos.col}: ${first}` : first };
      });
      throw new ValidationError(`The YAML document is invalid: ${issues[0]!.message}`, issues);
    }
    try {
      value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
    } catch (err) {
      // yaml throws a ReferenceError for excessive aliasing; a RangeError for nesting deeper than the stack.
      const message =
        err instanceof RangeError
          ? "The document is nested too deeply"
          : `The document's YAML aliases expand too much (at most ${MAX_YAML_ALIASES} resolved aliases); write the values out instead`;
      if (err instanceof ReferenceError || err instanceof RangeError) throw new ValidationError(message, [{ path: "", message }]);
      throw err;
    }
    checkExpandedSize(value);
  }
  return casesList(value);
}

/**
 * Counts alias tokens (`*name`) with yaml's lexer before the document is composed: composing a
 * 1 MB alias bomb takes seconds even when toJS's maxAliasCount refuses it afterwards, while
 * lexing stops at the first alias over the limit (a plain scalar cannot start with `*`).
 */
function refuseManyAliases(text: string) {
  let aliases = 0;
  for (const token of new YAML.Lexer().lex(text)) {
    if (token.startsWith("*") && ++aliases > MAX_YAML_ALIASES) {
      const message = `The document uses more than ${MAX_YAML_ALIASES} YAML aliases; write the values out instead`;
      throw new ValidationError(message, [{ path: "", message }]);
    }
  }
}

/** Aliases within the count can still repeat large nodes: the expanded document must fit the same limit. */
function checkExpandedSize(value: unknown) {
  let size: number;
  try {
    size = JSON.stringify(value)?.length ?? 0;
  } catch {
    size = Infinity; // nested too deeply to serialise
  }
  if (size > MAX_IMPORT_BYTES) {
    throw new ValidationError("The document is too large once its YAML aliases are expanded", [{ path: "", message: TOO_LARGE }]);
  }
}

/** Accepts a list or `{test_cases: [...]}`. */
function casesList(raw: unknown): unknown[] {
  if (Array.isArray(raw)) return raw;
  if (raw && typeof raw === "object" && Array.isArray((raw as { test_cases?: unknown }).test_cases)) {
    return (raw as { test_cases: unknown[] }).test_cases;
  }
  throw new ValidationError(SHAPE_MESSAGE, [{ path: "", message: SHAPE_MESSAGE }]);
}

/**
 * Validates every case; `sort_order` in a document is ignored (imports append in file order).
 * With the suite agent's variable definitions, also the spec 004 test-level rules and placeholders.
 */
export function validateImport(
  raw: unknown,
  definitions?: readonly VariableDefinition[],
): { valid: { index: number; data: TestCaseData }[]; errors: ImportIssue[] } {
  const list = casesList(raw);
  if (list.length > MAX_IMPORT_CASES) {
    throw new ValidationError(`At most ${MAX_IMPORT_CASES} test cases per import`, [{ path: "", message: `Got ${list.length}` }]);
  }
  const valid: { index: number; data: TestCaseData }[] = [];
  const errors: ImportIssue[] = [];
  list.forEach((item, index) => {
    // Text PostgreSQL cannot store (NUL, lone surrogates) or too deep nesting: named per case like any other issue.
    const invalidText = findInvalidText(item);
    if (invalidText.length > 0) {
      for (const issue of invalidText) errors.push({ index, ...issue });
      return;
    }
    const input = item && typeof item === "object" && !Array.isArray(item) ? { ...item, sort_order: undefined } : item;
    const parsed = testCaseInput.safeParse(input);
    const agentIssues = parsed.success && definitions ? caseAgentIssues(parsed.data, definitions) : [];
    if (parsed.success && agentIssues.length === 0) valid.push({ index, data: parsed.data });
    else if (parsed.success) for (const issue of agentIssues) errors.push({ index, ...issue });
    else for (const issue of zodIssues(parsed.error)) errors.push({ index, ...issue });
  });
  return { valid, errors };
}

export function importIssuePath(e: ImportIssue): string {
  return e.path ? `${e.index}.${e.path}` : String(e.index);
}

/**
 * Imports cases after validating all of them. With invalid ones and !validOnly nothing is
 * written; otherwise (`skipped` = number of invalid cases) the valid ones are appended after the suite's cases, in file order, in
 * one transaction.
 */
export async function importTestCases(
  ctx: WorkspaceContext,
  suiteId: string,
  raw: unknown,
  opts: { validOnly: boolean },
): Promise<{ imported: number; skipped: number; errors: ImportIssue[] }> {
  requireRole(ctx, "editor");
  await requireLiveSuite(ctx, suiteId);
  const { valid, errors } = validateImport(raw, await suiteVariableDefinitions(ctx, suiteId));
  const invalid = new Set(errors.map((e) => e.index)).size;
  if (errors.length > 0 && !opts.validOnly) {
    const total = valid.length + invalid;
    const issues: IssueList = errors.map((e) => ({ path: importIssuePath(e), message: e.message }));
    throw new ValidationError(`${invalid} of ${total} test cases are invalid; nothing was imported`, issues);
  }
  if (valid.length === 0) return { imported: 0, skipped: invalid, errors };
  const imported = await db.$transaction(async (tx) => {
    await lockLiveSuite(tx, ctx, suiteId);
    const start = await nextSortOrder(tx, ctx, suiteId);
    const { count } = await tx.testCase.createMany({
      data: valid.map((v, i) => ({ ...toColumns(v.data), workspaceId: ctx.workspaceId, suiteId, sortOrder: start + i })),
    });
    return count;
  });
  return { imported, skipped: invalid, errors };
}

/**
 * YAML 1.2 text that YAML 1.1 readers (PyYAML, many CI tools) also read back unchanged: plain
 * strings that 1.1 would take for booleans, dates or numbers (`yes`, `on`, `2024-01-01`) are quoted.
 */
const MAYBE_NOT_A_STRING_IN_1_1 = /^(?:[-+.\d~=<]|(?:y|yes|n|no|true|false|on|off|null)$)/i;

function toYaml(value: unknown): string {
  const doc = new YAML.Document(value, { aliasDuplicateObjects: false });
  YAML.visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value !== "string" || node.value.includes("\n") || !MAYBE_NOT_A_STRING_IN_1_1.test(node.value)) return;
      let readBy11: unknown;
      try {
        readBy11 = YAML.parse(node.value, { version: "1.1" });
      } catch {
        return;
      }
      if (readBy11 !== node.value) node.type = "QUOTE_DOUBLE";
    },
  });
  return doc.toString({ lineWidth: 0 });
}

function slug(name: string): string {
  const s = name
    .normalize("NFKD")
    .replace(/[^\w\s-]/g, "")
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return s.slice(0, 80) || "suite";
}

/** A suite's live cases in sort order, as a spec 001 document (no ids, timestamps or sort orders). */
export async function exportTestCases(
  ctx: WorkspaceContext,
  suiteId: string,
  format: CasesFormat,
): Promise<{ body: string; filename: string; content_type: string }> {
  requireRole(ctx, "viewer");
  const suite = await requireLiveSuite(ctx, suiteId);
  const rows = await db.testCase.findMany({
    where: { suiteId, workspaceId: ctx.workspaceId, deletedAt: null },
    orderBy: [{ sortOrder: "asc" }, { id: "asc" }],
    select: testCaseSelect,
  });
  const docs = rows.map((r) => toTestCaseDocument(toTestCaseDto(r)));
  const base = `${slug(suite.name)}-test-cases`;
  if (format === "json") {
    return { body: `${JSON.stringify(docs, null, 2)}\n`, filename: `${base}.json`, content_type: "application/json; charset=utf-8" };
  }
  return { body: toYaml(docs), filename: `${base}.yaml`, content_type: "application/yaml; charset=utf-8" };
}
