import "server-only";
import YAML from "yaml";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ValidationError, zodIssues, type IssueList } from "@/lib/errors";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import { testCaseInput, type TestCaseData } from "@/lib/test-cases/schemas";
import { testCaseSelect, toColumns, toTestCaseDocument, toTestCaseDto } from "@/lib/test-cases/dto";
import { lockLiveSuite, nextSortOrder, requireLiveSuite, workspaceTurnCap } from "@/lib/test-cases/suite-guards";
import { turnCapIssue } from "@/lib/test-cases/turn-cap";
import { formatFromContentType, parseStructuredDocument, type CasesFormat } from "@/lib/test-cases/document";
import { findInvalidText } from "@/lib/validation/text";
import type { VariableDefinition } from "@/lib/agents/schemas";
import { caseAgentIssues } from "@/lib/test-cases/variables";
import { suiteVariableDefinitions } from "@/lib/test-cases/variable-guards";
import { caseFileIssues, loadStoredFileBytes, storedFileSelect, storeFileBytes } from "@/lib/files/service";
import type { StoredFileRow } from "@/lib/files/dto";
import { fileIdOf, fileRef } from "@/lib/files/schemas";
import { bundlePath, casesBundleStream, readCasesBundle, resolveBundledPaths, type BundledFile } from "@/lib/files/bundle";
import { withWorkspaceScope } from "@/lib/tenant-scope";
import { textStream } from "@/lib/api/stream";
import type { ImportSource } from "@/lib/test-cases/formats/types";

export type { CasesFormat };
export { formatFromContentType };
export type ImportIssue = { index: number; path: string; message: string };

export const MAX_IMPORT_CASES = 5000;
const SHAPE_MESSAGE = "Expected a list of test cases, or an object with a test_cases list";

/**
 * Parses a YAML or JSON document of test cases (a top-level list or `{test_cases: [...]}`), with
 * the limits of ./document.ts.
 */
export function parseCasesDocument(text: string, format?: CasesFormat): unknown {
  return casesList(parseStructuredDocument(text, format, SHAPE_MESSAGE));
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
 * With the suite agent's variable definitions, also the variables model test-level rules and placeholders;
 * with the workspace's turn cap, `max_turns` against it.
 */
export function validateImport(
  raw: unknown,
  definitions?: readonly VariableDefinition[],
  turnCap?: number,
  unconvertible?: ReadonlyMap<number, string>,
): { valid: { index: number; data: TestCaseData }[]; errors: ImportIssue[] } {
  const list = casesList(raw);
  if (list.length > MAX_IMPORT_CASES) {
    throw new ValidationError(`At most ${MAX_IMPORT_CASES} test cases per import`, [{ path: "", message: `Got ${list.length}` }]);
  }
  const valid: { index: number; data: TestCaseData }[] = [];
  const errors: ImportIssue[] = [];
  list.forEach((item, index) => {
    // An item of another tool's file that could not become a case at all (lib/test-cases/formats).
    const reason = unconvertible?.get(index);
    if (reason !== undefined) {
      errors.push({ index, path: "", message: reason });
      return;
    }
    // Text PostgreSQL cannot store (NUL, lone surrogates) or too deep nesting: named per case like any other issue.
    const invalidText = findInvalidText(item);
    if (invalidText.length > 0) {
      for (const issue of invalidText) errors.push({ index, ...issue });
      return;
    }
    const input = item && typeof item === "object" && !Array.isArray(item) ? { ...item, sort_order: undefined } : item;
    const parsed = testCaseInput.safeParse(input);
    const capIssue = parsed.success && turnCap !== undefined ? turnCapIssue(parsed.data.max_turns, turnCap) : null;
    const agentIssues = [
      ...(parsed.success && definitions ? caseAgentIssues(parsed.data, definitions) : []),
      ...(capIssue ? [capIssue] : []),
    ];
    if (parsed.success && agentIssues.length === 0) valid.push({ index, data: parsed.data });
    else if (parsed.success) for (const issue of agentIssues) errors.push({ index, ...issue });
    else for (const issue of zodIssues(parsed.error)) errors.push({ index, ...issue });
  });
  return { valid, errors };
}

export function importIssuePath(e: ImportIssue): string {
  return e.path ? `${e.index}.${e.path}` : String(e.index);
}

export type ImportOptions = {
  validOnly: boolean;
  /** Validate everything and report what would be created; write nothing. */
  dryRun?: boolean;
  /** A zip import's files by entry name. */
  bundle?: ReadonlyMap<string, Uint8Array>;
  /** Per item of the document, the `source` its case records (another tool's item). */
  sources?: readonly (ImportSource | null)[];
  /** Items (by index) that could not become a case, with why. */
  unconvertible?: ReadonlyMap<number, string>;
};

export type ImportOutcome = {
  imported: number;
  /** The cases an import with the same valid_only would write (on a refused import without valid_only: how many are valid). */
  would_import: number;
  skipped: number;
  errors: ImportIssue[];
  /** Dry run only: the valid cases as they would be created, in file order. */
  test_cases?: TestCaseData[];
};

/**
 * Imports cases after validating all of them, including their files against the workspace's file
 * store (each `file:<id>` exists, its content matches `type`). With invalid ones and !validOnly
 * nothing is written; otherwise (`skipped` = number of invalid cases) the valid ones are appended
 * after the suite's cases, in file order, in one transaction. With a `bundle` (a zip import's
 * files by entry name) `files/…` paths refer to bundled files, which are stored only once the
 * import is known to go ahead. A dry run stops before anything is stored and lists the cases.
 */
export async function importTestCases(ctx: WorkspaceContext, suiteId: string, raw: unknown, opts: ImportOptions): Promise<ImportOutcome> {
  requireRole(ctx, "editor");
  await requireLiveSuite(ctx, suiteId);
  const bundled = opts.bundle ? await resolveBundledPaths(casesList(raw), opts.bundle) : null;
  const validated = validateImport(
    bundled?.list ?? raw,
    await suiteVariableDefinitions(ctx, suiteId),
    await workspaceTurnCap(ctx),
    opts.unconvertible,
  );
  // A `files/…` path missing from the zip is reported once, not again as a malformed path.
  const flagged = new Set(bundled?.issues.map((e) => `${e.index}:${e.path}`));
  const errors = [...validated.errors.filter((e) => !flagged.has(`${e.index}:${e.path}`)), ...(bundled?.issues ?? [])];
  const known = new Map([...(bundled?.files ?? new Map())].map(([id, f]) => [id, f.facts]));
  const fileIssues = await caseFileIssues(
    ctx.workspaceId,
    validated.valid.map((v) => v.data.files),
    db,
    known,
  );
  validated.valid.forEach((v, k) => fileIssues[k]!.forEach((issue) => errors.push({ index: v.index, ...issue })));
  errors.sort((a, b) => a.index - b.index);
  const invalidIndexes = new Set(errors.map((e) => e.index));
  const valid = validated.valid.filter((v) => !invalidIndexes.has(v.index));
  const invalid = invalidIndexes.size;
  if (opts.dryRun) {
    return { imported: 0, would_import: valid.length, skipped: invalid, errors, test_cases: valid.map((v) => v.data) };
  }
  if (errors.length > 0 && !opts.validOnly) {
    const total = valid.length + invalid;
    const issues: IssueList = errors.map((e) => ({ path: importIssuePath(e), message: e.message }));
    throw new ValidationError(`${invalid} of ${total} test cases are invalid; nothing was imported`, issues);
  }
  if (valid.length === 0) return { imported: 0, would_import: 0, skipped: invalid, errors };
  if (bundled) await storeBundledFiles(ctx, valid, bundled.files);
  const imported = await db.$transaction(async (tx) => {
    await lockLiveSuite(tx, ctx, suiteId);
    // Again inside the transaction: locks the referenced files so none is deleted before the cases exist.
    const recheck = await caseFileIssues(
      ctx.workspaceId,
      valid.map((v) => v.data.files),
      tx,
    );
    const gone = recheck.flatMap((list, k) => list.map((e) => ({ path: `${valid[k]!.index}.${e.path}`, message: e.message })));
    if (gone.length > 0) throw new ValidationError("Files changed during the import; nothing was imported", gone);
    const start = await nextSortOrder(tx, ctx, suiteId);
    const { count } = await tx.testCase.createMany({
      data: valid.map((v, i) => ({
        ...toColumns(v.data),
        ...sourceColumn(opts.sources?.[v.index]),
        workspaceId: ctx.workspaceId,
        suiteId,
        sortOrder: start + i,
      })),
    });
    return count;
  });
  return { imported, would_import: imported, skipped: invalid, errors };
}

function sourceColumn(source: ImportSource | null | undefined) {
  return source ? { source: source as Prisma.InputJsonValue } : {};
}

/** Stores the bundled files the valid cases use (deduplicated by content) and points their paths at the stored files. */
async function storeBundledFiles(
  ctx: WorkspaceContext,
  valid: { data: TestCaseData }[],
  files: Awaited<ReturnType<typeof resolveBundledPaths>>["files"],
) {
  const stored = new Map<string, string>();
  for (const v of valid) {
    for (const f of v.data.files ?? []) {
      const placeholder = fileIdOf(f.path);
      const bundled = placeholder ? files.get(placeholder) : undefined;
      if (!placeholder || !bundled) continue;
      let id = stored.get(placeholder);
      if (!id) {
        const { file } = await storeFileBytes(ctx.workspaceId, {
          name: bundled.name,
          bytes: Buffer.from(bundled.bytes),
          origin: "upload",
          createdById: ctx.userId,
        });
        id = file.id;
        stored.set(placeholder, id);
      }
      f.path = fileRef(id);
    }
  }
}

/** POST …/import with Content-Type application/zip: the zip's document and files (see lib/files/bundle.ts). */
export async function importTestCasesBundle(
  ctx: WorkspaceContext,
  suiteId: string,
  zip: Uint8Array,
  opts: Omit<ImportOptions, "bundle">,
): Promise<ImportOutcome> {
  requireRole(ctx, "editor");
  const { document, format, files } = await readCasesBundle(zip);
  return importTestCases(ctx, suiteId, parseCasesDocument(document, format), { ...opts, bundle: files });
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

export function slug(name: string): string {
  const s = name
    .normalize("NFKD")
    .replace(/[^\w\s-]/g, "")
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return s.slice(0, 80) || "suite";
}

type TestCaseRow = Prisma.TestCaseGetPayload<{ select: typeof testCaseSelect }>;

/** Test cases per query while an export streams. */
const EXPORT_PAGE_SIZE = 200;

/**
 * A suite's live cases as test case format documents, EXPORT_PAGE_SIZE per query, keyset on the
 * (suiteId, sortOrder, id) index; the next page is read when the stream's reader wants it, after
 * the route handler returned, so each page re-enters the workspace scope (lib/tenant-scope.ts).
 */
export async function* caseDocumentPages(ctx: WorkspaceContext, suiteId: string) {
  type Key = { sortOrder: number; id: string };
  let last: Key | null = null;
  for (;;) {
    const after: Key | null = last;
    const rows: TestCaseRow[] = await withWorkspaceScope(ctx.workspaceId, () =>
      db.testCase.findMany({
        where: {
          suiteId,
          workspaceId: ctx.workspaceId,
          deletedAt: null,
          ...(after ? { OR: [{ sortOrder: { gt: after.sortOrder } }, { sortOrder: after.sortOrder, id: { gt: after.id } }] } : {}),
        },
        orderBy: [{ sortOrder: "asc" }, { id: "asc" }],
        take: EXPORT_PAGE_SIZE,
        select: testCaseSelect,
      }),
    );
    if (rows.length === 0) return;
    yield rows.map((r) => toTestCaseDocument(toTestCaseDto(r)));
    if (rows.length < EXPORT_PAGE_SIZE) return;
    const end = rows[rows.length - 1]!;
    last = { sortOrder: end.sortOrder, id: end.id };
  }
}

/** `JSON.stringify(docs, null, 2)` plus a newline, written page by page. */
async function* jsonDocument(pages: AsyncIterable<unknown[]>) {
  let written = 0;
  yield "[";
  for await (const page of pages) {
    yield page.map((d) => `${written++ > 0 ? "," : ""}\n  ${JSON.stringify(d, null, 2).replace(/\n/g, "\n  ")}`).join("");
  }
  yield written > 0 ? "\n]\n" : "]\n";
}

/** A YAML block sequence, written page by page: each item is the text `toYaml([item])` writes, `[]` when empty. */
async function* yamlDocument(pages: AsyncIterable<unknown[]>) {
  let written = 0;
  for await (const page of pages) {
    written += page.length;
    yield page.map((d) => toYaml([d])).join("");
  }
  if (written === 0) yield toYaml([]);
}

/** An export as its route sends it: the file, streamed, with its name and type. */
type CasesDownload = { body: ReadableStream<Uint8Array>; filename: string; content_type: string };

/** A viewer may export a live suite's cases; the file is named after the suite (`<suite>-test-cases`). */
async function exportName(ctx: WorkspaceContext, suiteId: string): Promise<string> {
  requireRole(ctx, "viewer");
  const suite = await requireLiveSuite(ctx, suiteId);
  return `${slug(suite.name)}-test-cases`;
}

/**
 * A suite's live cases in sort order, as a test case format document (no ids, timestamps or sort orders),
 * streamed: the same bytes as the document built whole, one page of cases in memory at a time.
 */
export async function exportTestCases(ctx: WorkspaceContext, suiteId: string, format: CasesFormat): Promise<CasesDownload> {
  const base = await exportName(ctx, suiteId);
  const pages = caseDocumentPages(ctx, suiteId);
  if (format === "json") {
    return {
      body: textStream(jsonDocument(pages), { suiteId }),
      filename: `${base}.json`,
      content_type: "application/json; charset=utf-8",
    };
  }
  return { body: textStream(yamlDocument(pages), { suiteId }), filename: `${base}.yaml`, content_type: "application/yaml; charset=utf-8" };
}

/** Formats whose content is already compressed: stored in the zip as they are. */
const COMPRESSED_KINDS = new Set(["image", "pdf", "excel", "word", "powerpoint"]);

/**
 * The YAML export plus the uploaded files the cases reference, as one zip (layout in
 * lib/files/bundle.ts): `test-cases.yaml` refers to them as `files/<name>`. Streamed like the
 * other exports: a first pass over the cases (page by page) finds the files and their names in
 * the zip, then the document is written page by page and each file is loaded from the store only
 * when the reader has taken the previous one, so one page and one file are in memory at a time.
 */
export async function exportTestCasesBundle(ctx: WorkspaceContext, suiteId: string): Promise<CasesDownload> {
  const base = await exportName(ctx, suiteId);
  const ids = new Set<string>();
  for await (const page of caseDocumentPages(ctx, suiteId)) {
    for (const d of page) for (const f of d.files ?? []) if (fileIdOf(f.path)) ids.add(fileIdOf(f.path)!);
  }
  const found = (await db.storedFile.findMany({
    where: { workspaceId: ctx.workspaceId, id: { in: [...ids] } },
    select: storedFileSelect,
  })) as StoredFileRow[];
  // In order of first use by the cases: the first file with a name keeps it, a later namesake gets its id's prefix.
  const rank = new Map([...ids].map((id, i) => [id, i]));
  const rows = found.sort((a, b) => rank.get(a.id)! - rank.get(b.id)!);
  const used = new Set<string>();
  const pathOf = new Map(rows.map((r) => [r.id, bundlePath(r.name, r.id, used)]));

  async function* bundledPages() {
    for await (const page of caseDocumentPages(ctx, suiteId)) {
      for (const d of page) {
        for (const f of d.files ?? []) {
          const bundled = pathOf.get(fileIdOf(f.path) ?? "");
          if (bundled) f.path = bundled;
        }
      }
      yield page;
    }
  }
  async function* files(): AsyncGenerator<BundledFile> {
    for (const row of rows) {
      // Read when the stream wants it, after the route handler returned: re-enter the workspace scope.
      const { bytes } = await withWorkspaceScope(ctx.workspaceId, () => loadStoredFileBytes(ctx.workspaceId, row.id));
      yield { path: pathOf.get(row.id)!, bytes, compress: !COMPRESSED_KINDS.has(row.kind ?? "") };
    }
  }
  return {
    body: casesBundleStream(yamlDocument(bundledPages()), files(), { suiteId }),
    filename: `${base}.zip`,
    content_type: "application/zip",
  };
}
