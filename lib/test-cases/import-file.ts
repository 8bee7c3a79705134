import "server-only";
import { ValidationError } from "@/lib/errors";
import { readBodyBytes } from "@/lib/api/handler";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import { MAX_IMPORT_BYTES } from "@/lib/validation/limits";
import { formatSize, inflateZip, ZipError } from "@/lib/files/extract/zip";
import { MAX_BUNDLE_BYTES } from "@/lib/files/bundle";
import { checkDocumentText, formatFromContentType, TOO_LARGE } from "@/lib/test-cases/document";
import { importTestCases, importTestCasesBundle, parseCasesDocument, type ImportOutcome } from "@/lib/test-cases/import-export";
import { FOREIGN_IMPORTERS } from "@/lib/test-cases/formats";
import type { ForeignFormat, ImportItemReport, ImportInput } from "@/lib/test-cases/formats/types";
import type { ImportFormat } from "@/lib/test-cases/schemas";

/**
 * One uploaded file → test cases, whatever tool wrote it: the API route, the browser's import
 * route and the CLI all come here. Assay's own documents (YAML, JSON, or the zip with files) go
 * straight to the importer; another tool's file is converted first (./formats), then validated,
 * limited and written exactly like Assay's own, with the converter's per-item report beside the
 * outcome. A dry run does everything but write.
 */

export type ImportReport = ImportOutcome & {
  format: ImportFormat;
  dry_run: boolean;
  /** Per source item (another tool's formats): what it became, what was mapped, what was dropped, or why it could not be used. */
  items: (ImportItemReport & { error: string | null })[];
  /** Document-level notes (other prompts, providers as possible model configurations, …). */
  notes: string[];
};

/**
 * An import request (the API route and the dialog's session route alike): the body read within
 * its limit, the file imported as the query says; 200 for a dry run, 201 for an import.
 */
export async function importFromRequest(
  req: Request,
  ctx: WorkspaceContext,
  suiteId: string,
  query: { format: ImportFormat; dry_run: boolean; valid_only: boolean },
) {
  const contentType = req.headers.get("content-type");
  const bytes = await readBodyBytes(req, importUploadLimit(contentType));
  const report = await importCasesFile(
    ctx,
    suiteId,
    { bytes, contentType },
    {
      format: query.format,
      validOnly: query.valid_only,
      dryRun: query.dry_run,
    },
  );
  return { status: query.dry_run ? 200 : 201, json: report };
}

export type UploadedFile = { bytes: Uint8Array; contentType: string | null };

/** Bytes a request may send: a zip up to MAX_BUNDLE_BYTES (it may carry uploaded files), any other document MAX_IMPORT_BYTES. */
function importUploadLimit(contentType: string | null): number {
  return /^application\/(x-)?zip(-compressed)?\b/i.test(contentType ?? "") ? MAX_BUNDLE_BYTES : MAX_IMPORT_BYTES;
}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

function isZip(file: UploadedFile): boolean {
  if (/^application\/(x-)?zip(-compressed)?\b/i.test(file.contentType ?? "")) return true;
  return ZIP_MAGIC.every((b, i) => file.bytes[i] === b);
}

function decode(bytes: Uint8Array): string {
  if (bytes.byteLength > MAX_IMPORT_BYTES) throw new ValidationError("The document is too large", [{ path: "", message: TOO_LARGE }]);
  // A byte-order mark (Windows editors write one) is not part of the document.
  return new TextDecoder().decode(bytes).replace(/^\uFEFF/, "");
}

export async function importCasesFile(
  ctx: WorkspaceContext,
  suiteId: string,
  file: UploadedFile,
  opts: { format: ImportFormat; validOnly: boolean; dryRun: boolean },
): Promise<ImportReport> {
  requireRole(ctx, "editor");
  const common = { format: opts.format, dry_run: opts.dryRun, items: [], notes: [] };
  const options = { validOnly: opts.validOnly, dryRun: opts.dryRun };
  if (opts.format === "assay") {
    const outcome = isZip(file)
      ? await importTestCasesBundle(ctx, suiteId, file.bytes, options)
      : await importTestCases(ctx, suiteId, parseCasesDocument(decode(file.bytes), formatFromContentType(file.contentType)), options);
    return { ...outcome, ...common };
  }
  const input = isZip(file) ? await unzipForeign(file.bytes, opts.format) : { text: decode(file.bytes) };
  checkDocumentText(input.text, "Expected a file in the chosen format");
  const conversion = FOREIGN_IMPORTERS[opts.format](input);
  if (conversion.items.length === 0) {
    const message = "The file has no items to import";
    throw new ValidationError(message, [{ path: "", message: conversion.notes.join(" ") || message }]);
  }
  const unconvertible = new Map<number, string>();
  conversion.items.forEach((item, index) => {
    if (!item.case) unconvertible.set(index, item.error ?? "This item cannot become a test case");
  });
  const outcome = await importTestCases(
    ctx,
    suiteId,
    conversion.items.map((item) => item.case ?? {}),
    { ...options, unconvertible, sources: conversion.items.map((item) => item.source) },
  );
  return {
    ...outcome,
    ...common,
    items: conversion.items.map((item) => ({ ...item.report, error: item.error })),
    notes: conversion.notes,
  };
}

/** Text entries a bundle of another tool's files may hold: configs, test lists, prompts. */
const TEXT_ENTRY = /\.(ya?ml|json|jsonl|csv|txt|md|j2|njk|prompt)$/i;

/** The document of a foreign bundle: promptfoo's config by its usual names, else the one document at the top. */
const DOCUMENT_NAMES = ["promptfooconfig.yaml", "promptfooconfig.yml", "promptfooconfig.json"];

/**
 * A zip of another tool's files (a promptfoo config with the test files it references): its text
 * entries, at most MAX_IMPORT_BYTES inflated in all (counted as they inflate, whatever sizes the
 * zip declares). The config is the entry with promptfoo's usual name (at the top, or in the one
 * folder everything sits in), else the only YAML/JSON/JSONL entry at that level.
 */
async function unzipForeign(zip: Uint8Array, format: ForeignFormat): Promise<ImportInput> {
  let entries: Map<string, Uint8Array>;
  try {
    entries = await inflateZip(
      zip,
      { name: "The zip", document: `${format} bundle` },
      { only: (path) => TEXT_ENTRY.test(path) && !path.startsWith("__MACOSX/"), keep: () => true, maxTotalBytes: MAX_IMPORT_BYTES },
    );
  } catch (err) {
    if (!(err instanceof ZipError)) throw err;
    const message =
      err.limit?.kind === "total"
        ? `The zip's text files expand to more than ${formatSize(err.limit.bytes)}`
        : `The zip could not be read: ${err.reason}`;
    throw new ValidationError(message, [{ path: "", message }]);
  }
  const paths = [...entries.keys()];
  const prefix = commonFolder(paths);
  const top = paths.filter((p) => !p.slice(prefix.length).includes("/"));
  const named = DOCUMENT_NAMES.map((n) => prefix + n).find((p) => entries.has(p));
  const documents = top.filter((p) => /\.(ya?ml|json|jsonl)$/i.test(p));
  const document = named ?? (documents.length === 1 ? documents[0] : undefined);
  if (!document) {
    const message =
      documents.length === 0
        ? "The zip has no YAML or JSON document at its top level"
        : `The zip has several documents at its top level (${documents.slice(0, 5).join(", ")}); name the config promptfooconfig.yaml`;
    throw new ValidationError(message, [{ path: "", message }]);
  }
  const files = new Map<string, Uint8Array>();
  for (const [path, bytes] of entries) if (path !== document) files.set(path.slice(prefix.length), bytes);
  return { text: decode(entries.get(document)!), files };
}

/** "bundle/" when every entry sits in that one folder (a zipped folder), else "". */
function commonFolder(paths: string[]): string {
  const first = paths[0]?.split("/")[0];
  if (!first || paths.some((p) => !p.startsWith(`${first}/`))) return "";
  return `${first}/`;
}
