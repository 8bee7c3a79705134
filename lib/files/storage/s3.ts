import "server-only";
import type { FileStorage } from "./index";

/** OWNER helper B: the S3-compatible backend for ASSAY_FILE_STORE=s3://bucket[/prefix]?endpoint=…&region=… */
export function s3Storage(spec: string): FileStorage {
  throw new Error(`The S3 file store is not available yet (${spec.split("?")[0]})`);
}
