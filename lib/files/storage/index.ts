/**
 * The file store behind uploads and URL downloads: PostgreSQL (`FileBlob`, the default, so the
 * embedded install needs nothing else) or an S3-compatible bucket (`ASSAY_FILE_STORE=s3://…`).
 * OWNER: helper B implements the backends.
 */
export interface FileStorage {
  readonly backend: "postgres" | "s3";
  put(workspaceId: string, key: string, data: Buffer): Promise<void>;
  /** Throws NotFoundError when the key is absent. */
  get(workspaceId: string, key: string): Promise<Buffer>;
  delete(workspaceId: string, key: string): Promise<void>;
}
