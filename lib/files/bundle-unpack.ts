/**
 * Unpacking a suite import bundle (the layout is in ./bundle.ts), run in a file worker
 * (./file-worker.ts) so a large or hostile zip never holds up the web process. Only the document
 * and the `files/…` entries are read, each inflated with its bytes counted (./extract/zip.ts):
 * a file at most MAX_FILE_BYTES, the document at most MAX_IMPORT_BYTES, everything at most
 * MAX_BUNDLE_BYTES, however small the sizes the zip declares. Every refusal is a
 * FileProcessingError whose message is meant for the importer.
 */
import { FileProcessingError } from "./extract/errors";
import { formatSize, inflateZip, ZipError } from "./extract/zip";

export const BUNDLE_DOCUMENT = "test-cases.yaml";
export const BUNDLE_FILES_DIR = "files/";
export const BUNDLE_DOCUMENT_NAMES = [BUNDLE_DOCUMENT, "test-cases.yml", "test-cases.json"];

export type BundleLimits = { maxFileBytes: number; maxDocumentBytes: number; maxTotalBytes: number };

export type UnpackedBundle = {
  /** The document's entry name and text (null when the zip has none). */
  document: { name: string; text: string } | null;
  /** The `files/…` entries' content by entry name. */
  files: [string, Uint8Array][];
};

const isDocument = (path: string) => BUNDLE_DOCUMENT_NAMES.includes(path);
const isBundledFile = (path: string) => path.startsWith(BUNDLE_FILES_DIR) && !path.endsWith("/");

export async function unpackBundle(zip: Uint8Array, limits: BundleLimits): Promise<UnpackedBundle> {
  let entries: Map<string, Uint8Array>;
  try {
    entries = await inflateZip(
      zip,
      { name: "The zip", document: "test case bundle" },
      {
        only: (path) => isDocument(path) || isBundledFile(path),
        keep: () => true,
        maxTotalBytes: limits.maxTotalBytes,
        maxEntryBytes: (path) => (isDocument(path) ? limits.maxDocumentBytes : limits.maxFileBytes),
      },
    );
  } catch (err) {
    if (!(err instanceof ZipError)) throw err;
    if (err.limit?.kind === "entry") throw new FileProcessingError(`${err.limit.entry} is larger than ${formatSize(err.limit.bytes)}`);
    if (err.limit?.kind === "total") throw new FileProcessingError(`The zip expands to more than ${formatSize(err.limit.bytes)}`);
    throw new FileProcessingError(`The zip could not be read: ${err.reason}`);
  }
  const documentName = BUNDLE_DOCUMENT_NAMES.find((name) => entries.has(name));
  return {
    document: documentName ? { name: documentName, text: new TextDecoder().decode(entries.get(documentName)) } : null,
    files: [...entries].filter(([path]) => isBundledFile(path)),
  };
}
