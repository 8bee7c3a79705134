import "server-only";
import { db } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import type { FileStorage } from "./index";

/** The default store: bytes in the `FileBlob` table (bytea), so the embedded install needs nothing else. */
export const postgresStorage: FileStorage = {
  backend: "postgres",
  async put(workspaceId, key, data) {
    await db.fileBlob.upsert({
      where: { key },
      create: { key, workspaceId, data: new Uint8Array(data) },
      update: {},
    });
  },
  async get(workspaceId, key) {
    const row = await db.fileBlob.findFirst({ where: { key, workspaceId }, select: { data: true } });
    if (!row) throw new NotFoundError("File content");
    return Buffer.from(row.data);
  },
  async delete(workspaceId, key) {
    await db.fileBlob.deleteMany({ where: { key, workspaceId } });
  },
};
