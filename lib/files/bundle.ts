/**
 * The zip a suite's test cases are exported to with their uploaded files
 * (GET /api/v1/suites/{id}/test-cases/export?format=zip), and read back by the import:
 *
 *   test-cases.yaml      the cases, as the YAML export writes them, except that every uploaded
 *                        file is referenced by its place in the zip: `path: files/report.pdf`
 *   files/<name>         each referenced file's bytes, once, under its stored name (made unique
 *                        with the file id's first 8 characters when two files share a name)
 *
 * The import stores each bundled file in the target workspace (deduplicated by content) and
 * rewrites the `files/…` paths to the new `file:<id>` references. Reading is bounded: the zip's
 * declared sizes are checked before anything is inflated (a file at most MAX_FILE_BYTES, the
 * document at most MAX_IMPORT_BYTES, everything at most MAX_BUNDLE_BYTES), and fflate inflates
 * into buffers of exactly the declared size, so a lying archive cannot grow past them.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from "fflate";
import { ValidationError } from "@/lib/errors";
import { fileRef, MAX_FILE_BYTES } from "@/lib/files/schemas";
import { sniffFile } from "@/lib/files/sniff";
import type { FileFacts } from "@/lib/files/service";
import { MAX_IMPORT_BYTES } from "@/lib/validation/limits";

/** Largest zip the import accepts (compressed, and once expanded). */
export const MAX_BUNDLE_BYTES = 100 * 1024 * 1024;
export const BUNDLE_DOCUMENT = "test-cases.yaml";
export const BUNDLE_FILES_DIR = "files/";
const DOCUMENT_NAMES = [BUNDLE_DOCUMENT, "test-cases.yml", "test-cases.json"];

export type BundledFile = { path: string; bytes: Uint8Array; compress: boolean };

/** A zip of the document and the files (already-compressed formats are stored, text is deflated). */
export function writeCasesBundle(document: string, files: BundledFile[]): Uint8Array {
  const entries: Zippable = { [BUNDLE_DOCUMENT]: [strToU8(document), { level: 6 }] };
  for (const f of files) entries[f.path] = [f.bytes, { level: f.compress ? 6 : 0 }];
  return zipSync(entries);
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
export function readCasesBundle(zip: Uint8Array): { document: string; format: "yaml" | "json"; files: Map<string, Uint8Array> } {
  let total = 0;
  let tooLarge: string | null = null;
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(zip, {
      filter: (f) => {
        const wanted = DOCUMENT_NAMES.includes(f.name) || (f.name.startsWith(BUNDLE_FILES_DIR) && !f.name.endsWith("/"));
        if (!wanted) return false;
        const limit = DOCUMENT_NAMES.includes(f.name) ? MAX_IMPORT_BYTES : MAX_FILE_BYTES;
        total += f.originalSize;
        if (f.originalSize > limit) tooLarge ??= `${f.name} is larger than ${limit / (1024 * 1024)} MB`;
        else if (total > MAX_BUNDLE_BYTES) tooLarge ??= `The zip expands to more than ${MAX_BUNDLE_BYTES / (1024 * 1024)} MB`;
        return tooLarge === null;
      },
    });
  } catch (err) {
    throw invalid(`The zip could not be read: ${(err as Error).message}`);
  }
  if (tooLarge) throw invalid(tooLarge);
  const docName = DOCUMENT_NAMES.find((n) => n in entries);
  if (!docName) throw invalid(`The zip has no ${BUNDLE_DOCUMENT}`);
  const files = new Map<string, Uint8Array>();
  for (const [name, bytes] of Object.entries(entries)) if (name.startsWith(BUNDLE_FILES_DIR)) files.set(name, bytes);
  return { document: strFromU8(entries[docName]!), format: docName.endsWith(".json") ? "json" : "yaml", files };
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
        const name = entry.slice(BUNDLE_FILES_DIR.length).split("/").pop() || "file";
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
