/**
 * The S3-compatible file store (AWS S3, MinIO, R2, Ceph…), selected by
 * `ASSAY_FILE_STORE=s3://bucket[/prefix]?endpoint=http://…&region=…&force_path_style=true`.
 * Credentials come only from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (optionally
 * AWS_SESSION_TOKEN), never from the URL, so the store's secret never lands in logs or configs
 * that print it. Region and credentials are always passed explicitly: the SDK then never walks
 * its provider chain, which would ask the instance metadata endpoint (169.254.169.254).
 */
import "server-only";
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from "@aws-sdk/client-s3";
import { env } from "@/lib/env";
import { NotFoundError } from "@/lib/errors";
import type { FileStorage } from "./index";

export type S3Credentials = { accessKeyId: string; secretAccessKey: string; sessionToken?: string };

export type S3StoreConfig = { bucket: string; prefix: string; endpoint?: string; region: string; forcePathStyle: boolean };

const ALLOWED_PARAMS = new Set(["endpoint", "region", "force_path_style"]);
const SECRET_PARAMS = new Set(["access_key_id", "secret_access_key", "session_token", "accesskeyid", "secretaccesskey"]);

/** The error a bad ASSAY_FILE_STORE gets: what is wrong, never the secret. */
export class FileStoreConfigError extends Error {
  constructor(message: string) {
    super(`ASSAY_FILE_STORE: ${message}`);
    this.name = "FileStoreConfigError";
  }
}

/** Parses `s3://bucket[/prefix]?endpoint=…&region=…&force_path_style=true`. */
export function parseS3Spec(spec: string): S3StoreConfig {
  let url: URL;
  try {
    url = new URL(spec);
  } catch {
    throw new FileStoreConfigError('use "s3://bucket[/prefix]?endpoint=…&region=…"');
  }
  if (url.protocol !== "s3:" || !url.hostname) throw new FileStoreConfigError('use "s3://bucket[/prefix]?endpoint=…&region=…"');
  if (url.username || url.password) {
    throw new FileStoreConfigError("credentials do not belong in the URL; set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY");
  }
  for (const name of url.searchParams.keys()) {
    if (SECRET_PARAMS.has(name.toLowerCase())) {
      throw new FileStoreConfigError(
        `"${name}" is not accepted: keep secrets out of URLs and set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`,
      );
    }
    if (!ALLOWED_PARAMS.has(name)) throw new FileStoreConfigError(`unknown parameter "${name}" (use endpoint, region, force_path_style)`);
  }
  const endpoint = url.searchParams.get("endpoint") ?? undefined;
  if (endpoint !== undefined && !(/^https?:\/\//i.test(endpoint) && URL.canParse(endpoint))) {
    throw new FileStoreConfigError("endpoint must be an http(s) URL");
  }
  const pathStyle = url.searchParams.get("force_path_style");
  if (pathStyle !== null && !["true", "false", "1", "0"].includes(pathStyle)) {
    throw new FileStoreConfigError("force_path_style must be true or false");
  }
  return {
    bucket: url.hostname,
    prefix: decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, ""),
    endpoint,
    region: url.searchParams.get("region") || "us-east-1",
    forcePathStyle: pathStyle === "true" || pathStyle === "1",
  };
}

function envCredentials(): Partial<S3Credentials> {
  return { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY, sessionToken: env.AWS_SESSION_TOKEN };
}

export function s3Storage(spec: string, credentials: Partial<S3Credentials> = envCredentials()): FileStorage {
  const config = parseS3Spec(spec);
  if (!credentials.accessKeyId || !credentials.secretAccessKey) {
    throw new FileStoreConfigError("the S3 file store needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment");
  }
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials: {
      accessKeyId: credentials.accessKeyId,
      secretAccessKey: credentials.secretAccessKey,
      ...(credentials.sessionToken ? { sessionToken: credentials.sessionToken } : {}),
    },
    // "standard", not "auto": auto-detection may ask the instance metadata endpoint where it runs.
    defaultsMode: "standard",
    // Many S3-compatible stores reject the SDK's default CRC32 trailers; send checksums only where S3 requires them.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    maxAttempts: 3,
  });
  const objectKey = (key: string) => (config.prefix ? `${config.prefix}/${key}` : key);

  return {
    backend: "s3",
    async put(_workspaceId, key, data) {
      await client.send(
        new PutObjectCommand({
          Bucket: config.bucket,
          Key: objectKey(key),
          Body: data,
          ContentLength: data.byteLength,
          ContentType: "application/octet-stream",
        }),
      );
    },
    async get(_workspaceId, key) {
      try {
        const out = await client.send(new GetObjectCommand({ Bucket: config.bucket, Key: objectKey(key) }));
        if (!out.Body) throw new NotFoundError("File content");
        return Buffer.from(await out.Body.transformToByteArray());
      } catch (err) {
        if (isMissing(err)) throw new NotFoundError("File content");
        throw err;
      }
    },
    async delete(_workspaceId, key) {
      try {
        await client.send(new DeleteObjectCommand({ Bucket: config.bucket, Key: objectKey(key) }));
      } catch (err) {
        if (!isMissing(err)) throw err;
      }
    },
  };
}

function isMissing(err: unknown): boolean {
  return err instanceof S3ServiceException && (err.name === "NoSuchKey" || err.name === "NotFound" || err.$metadata.httpStatusCode === 404);
}
