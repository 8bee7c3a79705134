/**
 * The public (snake_case) shape of a stored file: what upload, list and metadata return. The
 * storage key and workspace stay server-side.
 */
import type { FileType } from "@/lib/files/schemas";

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

export type StoredFileDto = {
  id: string;
  name: string;
  size_bytes: number;
  /** Sniffed from the content, never the client's claim. */
  content_type: string;
  /** The spec 000 type the content can be read as (null: none Assay reads). */
  type: FileType | null;
  sha256: string;
  /** upload | url */
  origin: string;
  created_at: string;
};

/** A live test case that references a stored file (`files[].path = "file:<id>"`). */
export type FileReferenceDto = { id: string; name: string; suite_id: string };

export type StoredFileDetailDto = StoredFileDto & {
  /** How many live test cases reference the file; while > 0 it cannot be deleted. */
  reference_count: number;
  /** The first of those cases (at most MAX_LISTED_REFERENCES). */
  referenced_by: FileReferenceDto[];
};

export function toStoredFileDto(row: StoredFileRow): StoredFileDto {
  return {
    id: row.id,
    name: row.name,
    size_bytes: row.sizeBytes,
    content_type: row.contentType,
    type: row.kind,
    sha256: row.sha256,
    origin: row.origin,
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
