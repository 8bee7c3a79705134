/**
 * The workspace file store's records: uploads (deduplicated by sha256 per workspace), metadata,
 * content, deletion, and the checks a test case's `files` need. Bytes go through ./storage.
 * OWNER: helper B adds upload/list/get/delete for the API and the case validation.
 */
import "server-only";
import { createHash } from "node:crypto";
import { db } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import { fileStorage } from "@/lib/files/storage/select";
import { sniffFile } from "@/lib/files/sniff";
import type { FileType } from "@/lib/files/schemas";

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

export const storedFileSelect = {
  id: true,
  workspaceId: true,
  name: true,
  sizeBytes: true,
  contentType: true,
  kind: true,
  sha256: true,
  storageKey: true,
  origin: true,
  createdAt: true,
} as const;

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * Stores bytes in the workspace's file store, once per content: identical bytes return the
 * existing record (its first name kept). The type is sniffed from the content.
 */
export async function storeFileBytes(
  workspaceId: string,
  input: { name: string; bytes: Buffer; origin: "upload" | "url"; createdById?: string | null },
): Promise<{ file: StoredFileRow; created: boolean }> {
  const sha256 = sha256Hex(input.bytes);
  const existing = await db.storedFile.findUnique({ where: { workspaceId_sha256: { workspaceId, sha256 } }, select: storedFileSelect });
  if (existing) return { file: existing as StoredFileRow, created: false };
  const sniffed = await sniffFile(input.bytes, input.name);
  const storageKey = `${workspaceId}/${sha256}`;
  // Bytes first: a record never points at missing content (a failed insert leaves an orphan blob that the next upload of the same bytes reuses).
  await (await fileStorage()).put(workspaceId, storageKey, input.bytes);
  const file = await db.storedFile.upsert({
    where: { workspaceId_sha256: { workspaceId, sha256 } },
    create: {
      workspaceId,
      name: input.name.slice(0, 255),
      sizeBytes: input.bytes.byteLength,
      contentType: sniffed.contentType,
      kind: sniffed.kind,
      sha256,
      storageKey,
      origin: input.origin,
      createdById: input.createdById ?? null,
    },
    update: {},
    select: storedFileSelect,
  });
  return { file: file as StoredFileRow, created: true };
}

/** A stored file's record (workspace-scoped); NotFoundError when absent. */
export async function loadStoredFile(workspaceId: string, id: string): Promise<StoredFileRow> {
  const file = await db.storedFile.findFirst({ where: { id, workspaceId }, select: storedFileSelect });
  if (!file) throw new NotFoundError("File");
  return file as StoredFileRow;
}

/** A stored file's record and bytes. */
export async function loadStoredFileBytes(workspaceId: string, id: string): Promise<{ file: StoredFileRow; bytes: Buffer }> {
  const file = await loadStoredFile(workspaceId, id);
  const bytes = await (await fileStorage()).get(workspaceId, file.storageKey);
  return { file, bytes };
}
