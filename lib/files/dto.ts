/**
 * The public (snake_case) shape of a stored file: what upload, list and metadata return. The
 * storage key and workspace stay server-side.
 */
import type { z } from "zod";
import type { FileType } from "@/lib/files/schemas";
import type { fileReference, storedFileDetail, storedFileResource } from "./openapi";

/** A `StoredFile` row as the file service selects it (`storedFileSelect` in ./service.ts). */
export type StoredFileRow = {
  id: string;
  workspaceId: string;
  name: string;
  sizeBytes: number;
  contentType: string;
  kind: FileType | null;
  sha256: string;
  storageKey: string;
  origin: string;
  createdAt: Date;
};

export type StoredFileDto = z.output<typeof storedFileResource>;
/** A live test case that references a stored file (`files[].path = "file:<id>"`). */
export type FileReferenceDto = z.output<typeof fileReference>;
export type StoredFileDetailDto = z.output<typeof storedFileDetail>;

export function toStoredFileDto(row: StoredFileRow): StoredFileDto {
  return {
    id: row.id,
    name: row.name,
    size_bytes: row.sizeBytes,
    content_type: row.contentType,
    type: row.kind,
    sha256: row.sha256,
    // The column is text; the file service only ever writes "upload" or "url".
    origin: row.origin as StoredFileDto["origin"],
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * `attachment` with the name twice: an ASCII fallback (`filename=`, quotes and anything
 * outside printable ASCII replaced) and the exact UTF-8 name (`filename*=`, RFC 6266/5987).
 */
export function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, "_").trim() || "download";
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** Headers of a file download: the sniffed type, never rendered inline, never re-sniffed by the browser. */
export function downloadHeaders(file: StoredFileRow): HeadersInit {
  return {
    "content-type": file.contentType,
    "content-length": String(file.sizeBytes),
    "content-disposition": contentDisposition(file.name),
    "x-content-type-options": "nosniff",
    "cache-control": "private, no-store",
  };
}
