/**
 * What a file really is, from its bytes (never the client's name or content type).
 * OWNER: helper A replaces this stub with file-type based detection.
 */
import type { FileType } from "@/lib/files/schemas";

export type Sniffed = {
  /** A MIME type (application/pdf, image/png, text/csv, ...; application/octet-stream when unknown). */
  contentType: string;
  /** The spec 000 type the content can be read as (null: none Assay reads). */
  kind: FileType | null;
};

export async function sniffFile(bytes: Uint8Array, name: string): Promise<Sniffed> {
  void bytes;
  return /\.csv$/i.test(name) ? { contentType: "text/csv", kind: "csv" } : { contentType: "text/plain", kind: "text" };
}

/** Whether a case may declare `declared` for content sniffed as `sniffed` (text and csv are interchangeable). */
export function typeMatches(declared: FileType, sniffed: FileType | null): boolean {
  if (sniffed === null) return false;
  if (declared === sniffed) return true;
  return (declared === "text" || declared === "csv") && (sniffed === "text" || sniffed === "csv");
}
