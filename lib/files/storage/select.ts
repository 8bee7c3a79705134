import "server-only";
import { env } from "@/lib/env";
import type { FileStorage } from "./index";
import { postgresStorage } from "./postgres";

let selected: FileStorage | null = null;

/** The instance's file store, chosen by ASSAY_FILE_STORE (default: PostgreSQL). */
export async function fileStorage(): Promise<FileStorage> {
  if (selected) return selected;
  const spec = env.ASSAY_FILE_STORE;
  let storage: FileStorage = postgresStorage;
  if (spec && spec !== "postgres") {
    // Loaded only when chosen: the AWS SDK is large, and an instance on PostgreSQL never needs it.
    // (Not a cycle: ./s3 imports nothing of this module.)
    const { s3Storage } = await import("./s3");
    storage = s3Storage(spec);
  }
  selected = storage;
  return storage;
}

/** Tests: use this store (null: back to the one ASSAY_FILE_STORE selects). */
export function useFileStorage(storage: FileStorage | null) {
  selected = storage;
}
