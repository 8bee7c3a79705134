/**
 * Office Open XML files (docx, xlsx, pptx) are zip archives; a small archive can declare gigabytes
 * of content (a zip bomb). Every OOXML extractor checks the declared sizes first.
 */
import { unzipSync } from "fflate";
import { FileProcessingError } from "./errors";

/** Declared uncompressed total above which an archive is refused (real office files are far smaller). */
export const MAX_UNZIPPED_BYTES = 200 * 1024 * 1024;

/**
 * The entries `wanted` selects, decompressed. Throws before decompressing past MAX_UNZIPPED_BYTES of
 * declared content; fflate sizes each entry's output buffer from that declared size, so a lying
 * header cannot make it grow beyond it either.
 */
export function readZipEntries(
  bytes: Uint8Array,
  what: { name: string; document: string },
  wanted: (path: string) => boolean,
): Record<string, Uint8Array> {
  let declared = 0;
  try {
    return unzipSync(bytes, {
      filter(entry) {
        declared += entry.originalSize;
        if (declared > MAX_UNZIPPED_BYTES) throw new FileProcessingError(tooLarge(what.name));
        return wanted(entry.name);
      },
    });
  } catch (err) {
    if (err instanceof FileProcessingError) throw err;
    throw new FileProcessingError(`${what.name} is not a readable ${what.document}: it is not a valid zip archive (corrupt or truncated)`);
  }
}

/** Checks the declared sizes only (for extractors whose library unzips by itself). */
export function assertZipWithinLimit(bytes: Uint8Array, what: { name: string; document: string }): void {
  readZipEntries(bytes, what, () => false);
}

function tooLarge(name: string): string {
  return `${name} is refused: its archive unpacks to more than ${MAX_UNZIPPED_BYTES / 1024 / 1024} MB`;
}
