/**
 * Content extraction per the execution model file type: bytes in, markdown (plus metadata, and the resized
 * image for images) out. Each format uses a library made for it (one module per format here);
 * every failure is a FileProcessingError whose message names the file and what is wrong with it.
 */
import { sniffFile, typeMatches } from "@/lib/files/sniff";
import { extractCsv } from "./csv";
import { FileProcessingError } from "./errors";
import { extractExcel } from "./excel";
import { extractImage } from "./image";
import { extractPdf } from "./pdf";
import { extractPowerpoint } from "./powerpoint";
import { extractText } from "./text";
import { extractWord } from "./word";
import type { Extracted, ExtractOptions } from "./types";

export { FileProcessingError } from "./errors";
export type { Extracted, ExtractOptions } from "./types";

/** Bumped whenever extraction output changes, so cached results from older code are not reused. */
export const EXTRACTOR_VERSION = "2";

export async function extractFile(bytes: Uint8Array, opts: ExtractOptions): Promise<Extracted> {
  await assertDeclaredType(bytes, opts);
  switch (opts.type) {
    case "pdf":
      return extractPdf(bytes, opts);
    case "word":
      return extractWord(bytes, opts.name);
    case "excel":
      return extractExcel(bytes, opts);
    case "powerpoint":
      return extractPowerpoint(bytes, opts);
    case "csv":
      return extractCsv(bytes, opts);
    case "text":
      return extractText(bytes, opts.name);
    case "image":
      return extractImage(bytes, opts);
  }
}

/**
 * Binary formats are checked against their signature first, so "a PNG declared as pdf" reads as
 * that rather than as a parser's complaint. Text and CSV have no signature: their decoder decides.
 */
async function assertDeclaredType(bytes: Uint8Array, opts: ExtractOptions): Promise<void> {
  if (opts.type === "text" || opts.type === "csv") return;
  if (bytes.byteLength === 0) throw new FileProcessingError(`${opts.name} is empty (0 bytes)`);
  const sniffed = await sniffFile(bytes, opts.name);
  if (!typeMatches(opts.type, sniffed.kind)) {
    throw new FileProcessingError(`${opts.name} was declared as ${opts.type} but its content is ${sniffed.contentType}`);
  }
}
