/**
 * The zip a suite's test cases are exported to with their uploaded files
 * (GET /api/v1/suites/{id}/test-cases/export?format=zip), and read back by the import:
 *
 *   test-cases.yaml      the cases, as the YAML export writes them, except that every uploaded
 *                        file is referenced by its place in the zip: `path: files/report.pdf`
 *   files/<name>         each referenced file's bytes, once, under its stored name (made unique
 *                        with the file id's first 8 characters when two files share a name)
 *
 * Writing streams: the document page by page, then each file loaded from the store only when
 * the reader has taken the previous one, fed to the deflater in slices (one file of at most
 * 25 MB in memory, the event loop free between slices).
 *
 * The import stores each bundled file in the target workspace (deduplicated by content) and
 * rewrites the `files/…` paths to the new `file:<id>` references. Reading runs in a file worker
 * (./bundle-unpack.ts): every entry is inflated with its bytes counted, so whatever sizes the zip
 * declares, a file is at most MAX_FILE_BYTES, the document at most MAX_IMPORT_BYTES and everything
 * at most MAX_BUNDLE_BYTES, and the web process never inflates anything itself.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { Zip, ZipDeflate, ZipPassThrough } from "fflate";
import { ValidationError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { fileRef, MAX_FILE_BYTES } from "@/lib/files/schemas";
import { sniffFile } from "@/lib/files/sniff";
import type { FileFacts } from "@/lib/files/service";
import { FileProcessingError } from "@/lib/files/extract/errors";
import { filePool } from "@/lib/files/file-pool";
import { cleanFileName } from "@/lib/files/names";
import { BUNDLE_DOCUMENT, BUNDLE_FILES_DIR } from "@/lib/files/bundle-unpack";
import { MAX_IMPORT_BYTES } from "@/lib/validation/limits";

export { BUNDLE_DOCUMENT, BUNDLE_FILES_DIR } from "@/lib/files/bundle-unpack";

/** Largest zip the import accepts (compressed, and once expanded). */
export const MAX_BUNDLE_BYTES = 100 * 1024 * 1024;
/** Bytes of a file handed to the deflater at a time: a few milliseconds of work between two turns of the event loop. */
const WRITE_SLICE_BYTES = 256 * 1024;

export type BundledFile = { path: string; bytes: Uint8Array; compress: boolean };

/**
 * The zip of `document` (its text, in chunks) and `files` (loaded one at a time, when the reader
 * wants them), streamed. Already-compressed formats are stored, text is deflated. A failure after
 * the first byte aborts the stream (the client sees a truncated download, never a complete-looking one).
 */
export function casesBundleStream(
  document: AsyncIterable<string>,
  files: AsyncIterable<BundledFile>,
  context: Record<string, unknown> = {},
): ReadableStream<Uint8Array> {
  const iterator = bundleChunks(document, files)[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await iterator.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (err) {
          logger.error({ err, ...context }, "streamed zip export failed");
          controller.error(err);
        }
      },
      async cancel() {
        await iterator.return?.(undefined);
      },
    },
    { highWaterMark: 1 },
  );
}

/** The zip's bytes as fflate writes them, entry after entry, each input slice's output yielded before the next slice is read. */
async function* bundleChunks(document: AsyncIterable<string>, files: AsyncIterable<BundledFile>): AsyncGenerator<Uint8Array> {
  const out: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((err, chunk) => {
    if (err) failure = err;
    else if (chunk.byteLength > 0) out.push(chunk);
  });
  function* drain() {
    if (failure) throw failure;
    // One chunk per yield: the stream holds at most one chunk ahead of its reader.
    while (out.length > 0) yield out.shift()!;
  }
  const encoder = new TextEncoder();
  const doc = new ZipDeflate(BUNDLE_DOCUMENT, { level: 6 });
  zip.add(doc);
  for await (const text of document) {
    if (!text) continue;
    doc.push(encoder.encode(text));
    yield* drain();
  }
  doc.push(new Uint8Array(0), true);
  yield* drain();
  for await (const file of files) {
    const entry = file.compress ? new ZipDeflate(file.path, { level: 6 }) : new ZipPassThrough(file.path);
    zip.add(entry);
    for (let at = 0; at < file.bytes.byteLength || at === 0; at += WRITE_SLICE_BYTES) {
      const end = Math.min(file.bytes.byteLength, at + WRITE_SLICE_BYTES);
      entry.push(file.bytes.subarray(at, end), end === file.bytes.byteLength);
      yield* drain();
      if (end === file.bytes.byteLength) break;
    }
  }
  zip.end();
  yield* drain();
}

/** A zip entry name for a stored file: its name without path separators or control characters, unique in the bundle. */
export function bundlePath(name: string, id: string, used: Set<string>): string {
  // eslint-disable-next-line no-control-regex -- control characters have no place in a zip entry name
  const clean = name.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]/g, "_").replace(/^\.+/, "_") || "file";
  let path = `${BUNDLE_FILES_DIR}${clean}`;
  if (used.has(path)) {
    const dot = clean.lastIndexOf(".");
    const [stem, ext] = dot > 0 ? [clean.slice(0, dot), clean.slice(dot)] : [clean, ""];
    path = `${BUNDLE_FILES_DIR}${stem}-${id.slice(0, 8)}${ext}`;
  }
  used.add(path);
  return path;
}

/** A `files/…` reference of a bundled document (`./files/x` too), normalised; null for anything else. */
export function bundledPathOf(path: unknown): string | null {
  if (typeof path !== "string") return null;
  const p = path.trim().replace(/^\.\//, "");
  return p.startsWith(BUNDLE_FILES_DIR) && p.length > BUNDLE_FILES_DIR.length ? p : null;
}

const invalid = (message: string) => new ValidationError(message, [{ path: "", message }]);

/** The document's text and the bundled files by entry name; 400 for anything that is not such a zip or exceeds the limits. */
export async function readCasesBundle(
  zip: Uint8Array,
): Promise<{ document: string; format: "yaml" | "json"; files: Map<string, Uint8Array> }> {
  let unpacked;
  try {
    unpacked = await filePool().run(
      {
        kind: "bundle",
        bytes: zip,
        limits: { maxFileBytes: MAX_FILE_BYTES, maxDocumentBytes: MAX_IMPORT_BYTES, maxTotalBytes: MAX_BUNDLE_BYTES },
      },
      "The zip",
    );
  } catch (err) {
    if (err instanceof FileProcessingError) throw invalid(err.message);
    throw err;
  }
  if (!unpacked.document) throw invalid(`The zip has no ${BUNDLE_DOCUMENT}`);
  return {
    document: unpacked.document.text,
    format: unpacked.document.name.endsWith(".json") ? "json" : "yaml",
    files: new Map(unpacked.files),
  };
}

/** A bundled file a document references, under the placeholder id its `path` was rewritten to. */
export type ResolvedBundleFile = { entry: string; name: string; bytes: Uint8Array; facts: FileFacts };

/**
 * Rewrites each `files/…` path of a document's cases to `file:<placeholder id>` so the cases pass
 * the FileInput schema, and sniffs each referenced entry (the case checks compare its type).
 * A path missing from the zip is an issue at `files.N.path` (the path is left as written).
 */
export async function resolveBundledPaths(
  list: readonly unknown[],
  bundle: ReadonlyMap<string, Uint8Array>,
): Promise<{ list: unknown[]; issues: { index: number; path: string; message: string }[]; files: Map<string, ResolvedBundleFile> }> {
  const byEntry = new Map<string, string>();
  const files = new Map<string, ResolvedBundleFile>();
  const issues: { index: number; path: string; message: string }[] = [];
  const out: unknown[] = [];
  for (const [index, item] of list.entries()) {
    const caseFiles = item && typeof item === "object" && !Array.isArray(item) ? (item as { files?: unknown }).files : undefined;
    if (!Array.isArray(caseFiles)) {
      out.push(item);
      continue;
    }
    const rewritten: unknown[] = [];
    for (const [j, f] of caseFiles.entries()) {
      const entry = f && typeof f === "object" ? bundledPathOf((f as { path?: unknown }).path) : null;
      if (!entry) {
        rewritten.push(f);
        continue;
      }
      const bytes = bundle.get(entry);
      if (!bytes) {
        issues.push({ index, path: `files.${j}.path`, message: `${entry} is not in the zip` });
        rewritten.push(f);
        continue;
      }
      let id = byEntry.get(entry);
      if (!id) {
        id = randomUUID();
        // Cleaned like an upload's name: a NUL cannot be stored, a line break would write its own lines into the agent's message.
        const name = cleanFileName(entry.slice(BUNDLE_FILES_DIR.length), "file");
        const sniffed = await sniffFile(bytes, name);
        byEntry.set(entry, id);
        files.set(id, { entry, name, bytes, facts: { name, contentType: sniffed.contentType, kind: sniffed.kind } });
      }
      rewritten.push({ ...(f as object), path: fileRef(id) });
    }
    out.push({ ...(item as object), files: rewritten });
  }
  return { list: out, issues, files };
}
