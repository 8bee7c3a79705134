/** Plain text files: UTF-8 as-is. */
import { FileProcessingError } from "./errors";
import type { Extracted } from "./types";

/** Shown instead of an empty string, so "the document is empty" is visible to the agent and in previews. */
export const NO_TEXT = "_(no text content)_";

/**
 * The text of UTF-8 bytes without a BOM, or null for content that is not text: invalid UTF-8 or a
 * NUL byte (binary formats are full of them; real text never has one).
 */
export function decodeUtf8Text(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return null;
  }
}

/** The decoded text, or a FileProcessingError naming the file. */
export function readText(bytes: Uint8Array, name: string): string {
  const text = decodeUtf8Text(bytes);
  if (text === null) {
    throw new FileProcessingError(`${name} is not a text file: it is not UTF-8 text (binary content or another encoding)`);
  }
  return text;
}

export function extractText(bytes: Uint8Array, name: string): Extracted {
  const text = readText(bytes, name);
  return {
    markdown: text.trim() === "" ? NO_TEXT : text,
    metadata: { size_bytes: bytes.byteLength, format: "text", characters: text.length },
  };
}
