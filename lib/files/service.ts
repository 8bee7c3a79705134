/**
 * The workspace file store's records: uploads (deduplicated by sha256 per workspace), metadata,
 * content, deletion, and the checks a test case's `files` need. Bytes go through ./storage;
 * a record is written only after its bytes are stored, so it never points at missing content.
 * Every query is scoped by `workspaceId`: another workspace's file id is a 404.
 */
import "server-only";
import { createHash } from "node:crypto";
import { db, type Tx } from "@/lib/db";
import { ConflictError, NotFoundError, ValidationError, type IssueList } from "@/lib/errors";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import { isUuid } from "@/lib/ids";
import { newestFirst } from "@/lib/serialize";
import { fileStorage } from "@/lib/files/storage/select";
import { sniffFile, typeMatches } from "@/lib/files/sniff";
import { fileIdOf, fileRef, type FileInput, type FileType } from "@/lib/files/schemas";
import { toStoredFileDto, type FileReferenceDto, type StoredFileDetailDto, type StoredFileDto, type StoredFileRow } from "@/lib/files/dto";

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

/** POST /api/v1/files: stores an upload (editor); the same content again returns the existing record. */
export async function uploadFile(
  ctx: WorkspaceContext,
  input: { name: string; bytes: Buffer },
): Promise<{ file: StoredFileDto; created: boolean }> {
  requireRole(ctx, "editor");
  const { file, created } = await storeFileBytes(ctx.workspaceId, { ...input, origin: "upload", createdById: ctx.userId });
  return { file: toStoredFileDto(file), created };
}

/** The workspace's files, newest first (keyset pagination). */
export async function listFiles(
  ctx: WorkspaceContext,
  q: { cursor?: string; limit: number },
): Promise<{ data: StoredFileDto[]; next_cursor: string | null }> {
  requireRole(ctx, "viewer");
  const rows = await db.storedFile.findMany({
    where: { workspaceId: ctx.workspaceId, ...newestFirst.where(q.cursor) },
    orderBy: newestFirst.orderBy,
    take: q.limit + 1,
    select: storedFileSelect,
  });
  const { page, next_cursor } = newestFirst.page(rows as StoredFileRow[], q.limit);
  return { data: page.map(toStoredFileDto), next_cursor };
}

/** How many referencing cases GET /api/v1/files/{id} lists (the count covers all of them). */
export const MAX_LISTED_REFERENCES = 20;

/** Metadata plus the live test cases that reference the file. */
export async function getFile(ctx: WorkspaceContext, id: string): Promise<StoredFileDetailDto> {
  requireRole(ctx, "viewer");
  const file = await loadStoredFile(ctx.workspaceId, checkedId(id));
  const [referencedBy, count] = await Promise.all([
    referencingCases(db, ctx.workspaceId, file.id, MAX_LISTED_REFERENCES),
    countReferencingCases(ctx.workspaceId, file.id),
  ]);
  return { ...toStoredFileDto(file), reference_count: count, referenced_by: referencedBy };
}

/** The record and bytes for a download (viewer). */
export async function getFileContent(ctx: WorkspaceContext, id: string): Promise<{ file: StoredFileRow; bytes: Buffer }> {
  requireRole(ctx, "viewer");
  return loadStoredFileBytes(ctx.workspaceId, checkedId(id));
}

const SHOWN_IN_CONFLICT = 5;

/**
 * Deletes a file (editor): 409 naming the cases while a live test case references it. The row is
 * locked while the references are checked, and case writes lock the files they reference
 * (lockCaseFiles), so a case cannot start referencing a file that is being deleted. The bytes
 * go after the row: a failure there leaves an unreferenced blob, never a record without content.
 */
export async function deleteFile(ctx: WorkspaceContext, id: string): Promise<void> {
  requireRole(ctx, "editor");
  const fileId = checkedId(id);
  const storageKey = await db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ storageKey: string }[]>`
      SELECT "storageKey" FROM "StoredFile"
      WHERE "id" = ${fileId}::uuid AND "workspaceId" = ${ctx.workspaceId}::uuid
      FOR UPDATE`;
    const row = rows[0];
    if (!row) throw new NotFoundError("File");
    const refs = await referencingCases(tx, ctx.workspaceId, fileId, SHOWN_IN_CONFLICT + 1);
    if (refs.length > 0) {
      const names = refs.slice(0, SHOWN_IN_CONFLICT).map((r) => `"${r.name}"`);
      const more = refs.length > SHOWN_IN_CONFLICT ? " and more" : "";
      const message = `The file is used by test case${refs.length > 1 ? "s" : ""} ${names.join(", ")}${more}; remove it from them (or delete them) first`;
      throw new ConflictError(message, [{ path: "id", message }]);
    }
    await tx.storedFile.deleteMany({ where: { id: fileId, workspaceId: ctx.workspaceId } });
    return row.storageKey;
  });
  await (await fileStorage()).delete(ctx.workspaceId, storageKey);
}

function checkedId(id: string): string {
  if (!isUuid(id)) throw new NotFoundError("File");
  return id.toLowerCase();
}

/** Live (not deleted) test cases whose `files` reference the stored file; uses the GIN index on "files". */
async function referencingCases(client: Tx | typeof db, workspaceId: string, fileId: string, limit: number): Promise<FileReferenceDto[]> {
  const probe = JSON.stringify([{ path: fileRef(fileId) }]);
  const rows = await client.$queryRaw<{ id: string; name: string; suiteId: string }[]>`
    SELECT "id", "name", "suiteId" FROM "TestCase"
    WHERE "workspaceId" = ${workspaceId}::uuid AND "deletedAt" IS NULL AND "files" @> ${probe}::jsonb
    ORDER BY "name", "id"
    LIMIT ${limit}`;
  return rows.map((r) => ({ id: r.id, name: r.name, suite_id: r.suiteId }));
}

async function countReferencingCases(workspaceId: string, fileId: string): Promise<number> {
  const probe = JSON.stringify([{ path: fileRef(fileId) }]);
  const rows = await db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS "n" FROM "TestCase"
    WHERE "workspaceId" = ${workspaceId}::uuid AND "deletedAt" IS NULL AND "files" @> ${probe}::jsonb`;
  return rows[0]?.n ?? 0;
}

/** What the case checks need to know about a stored (or about to be stored) file. */
export type FileFacts = { name: string; contentType: string; kind: FileType | null };

/**
 * The stored files a case write references, locked FOR KEY SHARE until the transaction ends so
 * deleteFile (FOR UPDATE) waits for it, and then sees the new reference.
 */
async function lockCaseFiles(client: Tx | typeof db, workspaceId: string, ids: string[]): Promise<Map<string, FileFacts>> {
  if (ids.length === 0) return new Map();
  const rows = await client.$queryRaw<{ id: string; name: string; contentType: string; kind: string | null }[]>`
    SELECT "id", "name", "contentType", "kind" FROM "StoredFile"
    WHERE "workspaceId" = ${workspaceId}::uuid AND "id" = ANY(${ids}::uuid[])
    FOR KEY SHARE`;
  return new Map(rows.map((r) => [r.id, { name: r.name, contentType: r.contentType, kind: r.kind as FileType | null }]));
}

/**
 * Per case, the issues of its `files` that need the store: each `file:<id>` must exist in the
 * workspace (`files.N.path`) and its sniffed content must match the declared type
 * (`files.N.type`). `known` answers for files not stored yet (a zip import's bundled files).
 * URL files are checked when they are fetched.
 */
export async function caseFileIssues(
  workspaceId: string,
  cases: readonly (readonly FileInput[] | null | undefined)[],
  client: Tx | typeof db = db,
  known: ReadonlyMap<string, FileFacts> = new Map(),
): Promise<IssueList[]> {
  const ids = new Set<string>();
  for (const files of cases)
    for (const f of files ?? []) {
      const id = fileIdOf(f.path);
      if (id && !known.has(id)) ids.add(id);
    }
  const stored = await lockCaseFiles(client, workspaceId, [...ids]);
  return cases.map((files) =>
    (files ?? []).flatMap((f, i) => {
      const id = fileIdOf(f.path);
      if (!id) return [];
      const facts = known.get(id) ?? stored.get(id);
      if (!facts) {
        return [
          { path: `files.${i}.path`, message: `No file ${f.path} in this workspace; upload it with POST /api/v1/files and use its id` },
        ];
      }
      if (typeMatches(f.type, facts.kind)) return [];
      return [{ path: `files.${i}.type`, message: mismatchMessage(facts, f.type) }];
    }),
  );
}

function mismatchMessage(facts: FileFacts, declared: FileType): string {
  const what = facts.kind ? `${facts.kind} content (${facts.contentType})` : `${facts.contentType} content, which Assay cannot read`;
  return `file "${facts.name}" is ${what}, not ${declared}`;
}

/** A case's `files` against the store (400 with `files.N.path` / `files.N.type` issues); run it inside the write's transaction. */
export async function assertCaseFiles(ctx: WorkspaceContext, files: readonly FileInput[] | null | undefined, client: Tx | typeof db = db) {
  if (!files?.length) return;
  const [issues] = await caseFileIssues(ctx.workspaceId, [files], client);
  if (issues && issues.length > 0) throw new ValidationError("Please fix the highlighted fields", issues);
}
