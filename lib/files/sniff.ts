/**
 * What a file really is, from its bytes (never the client's name or content type): file-type reads
 * the magic numbers (and the part names inside Office zip archives); content without a signature
 * is text when it decodes as UTF-8.
 */
import { fileTypeFromBuffer } from "file-type";
import { decodeUtf8Text } from "@/lib/files/extract/text";
import type { FileType } from "@/lib/files/schemas";

export type Sniffed = {
  /** A MIME type (application/pdf, image/png, text/csv, ...; application/octet-stream when unknown). */
  contentType: string;
  /** The execution model type the content can be read as (null: none Assay reads). */
  kind: FileType | null;
};

const KINDS: Record<string, FileType> = {
  "application/pdf": "pdf",
  "image/png": "image",
  "image/jpeg": "image",
  "image/gif": "image",
  "image/webp": "image",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "word",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "excel",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": "powerpoint",
};

/**
 * Legacy Office files all share one container signature (MS-CFB), so file-type cannot tell them
 * apart; the name's extension does, for a message that says "save it as .docx". Assay reads none.
 */
const LEGACY_OFFICE: Record<string, string> = {
  doc: "application/msword",
  xls: "application/vnd.ms-excel",
  ppt: "application/vnd.ms-powerpoint",
};

export async function sniffFile(bytes: Uint8Array, name: string): Promise<Sniffed> {
  const detected = await fileTypeFromBuffer(bytes);
  if (detected?.mime === "application/x-cfb") {
    return { contentType: LEGACY_OFFICE[extensionOf(name)] ?? detected.mime, kind: null };
  }
  // file-type recognises XML by its declaration; it is still text an agent can read.
  if (detected && detected.mime !== "application/xml") return { contentType: detected.mime, kind: KINDS[detected.mime] ?? null };
  if (decodeUtf8Text(bytes) === null) return { contentType: detected?.mime ?? "application/octet-stream", kind: null };
  if (detected) return { contentType: detected.mime, kind: "text" };
  const ext = extensionOf(name);
  if (ext === "csv") return { contentType: "text/csv", kind: "csv" };
  return { contentType: ext === "md" || ext === "markdown" ? "text/markdown" : "text/plain", kind: "text" };
}

function extensionOf(name: string): string {
  return /\.([^./\\]+)$/.exec(name)?.[1]?.toLowerCase() ?? "";
}

/** Whether a case may declare `declared` for content sniffed as `sniffed` (text and csv are interchangeable). */
export function typeMatches(declared: FileType, sniffed: FileType | null): boolean {
  if (sniffed === null) return false;
  if (declared === sniffed) return true;
  return (declared === "text" || declared === "csv") && (sniffed === "text" || sniffed === "csv");
}
