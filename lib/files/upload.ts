/**
 * Reading an upload from a request: `multipart/form-data` with one field `file`, at most
 * MAX_FILE_BYTES of content. The size is enforced before the body is read in full: from
 * Content-Length when the client sends one, else by counting the streamed bytes, so an
 * oversized upload is never buffered whole. Every refusal is a domain error (413, 415, 400).
 */
import "server-only";
import { DomainError, PayloadTooLargeError, ValidationError, type IssueList } from "@/lib/errors";
import { MAX_FILE_BYTES } from "@/lib/files/schemas";
import { readBodyBytes } from "@/lib/api/handler";
import { cleanFileName } from "@/lib/files/names";

/** Room for the multipart envelope (boundaries, part headers) around a file of MAX_FILE_BYTES. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

export class UnsupportedMediaTypeError extends DomainError {
  override readonly status = 415;
  override readonly code = "unsupported_media_type";
  constructor(message: string, issues: IssueList = []) {
    super(message, issues);
  }
}

const FIELD_MESSAGE = "Send the file as multipart/form-data in the field `file`";

/** The `file` field of a multipart upload: its (cleaned) name and bytes. */
export async function readUpload(req: Request): Promise<{ name: string; bytes: Buffer }> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;.*boundary=/i.test(type)) {
    throw new UnsupportedMediaTypeError(`Uploads must be multipart/form-data (got ${type.split(";")[0]?.trim() || "no Content-Type"})`, [
      { path: "file", message: FIELD_MESSAGE },
    ]);
  }
  const raw = await readBodyBytes(req, MAX_FILE_BYTES + MULTIPART_OVERHEAD_BYTES, MAX_FILE_BYTES);
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(raw), { headers: { "content-type": type } }).formData();
  } catch {
    throw new ValidationError("The multipart body could not be read", [{ path: "file", message: FIELD_MESSAGE }]);
  }
  const parts = form.getAll("file");
  const file = parts[0];
  if (parts.length === 0 || typeof file === "string" || file === undefined) {
    throw new ValidationError("Missing file", [{ path: "file", message: FIELD_MESSAGE }]);
  }
  if (parts.length > 1) throw new ValidationError("One file per upload", [{ path: "file", message: "Send one file per request" }]);
  if (file.size === 0) throw new ValidationError("The file is empty", [{ path: "file", message: "The file is empty" }]);
  if (file.size > MAX_FILE_BYTES) throw new PayloadTooLargeError(MAX_FILE_BYTES);
  return { name: cleanFileName(file.name), bytes: Buffer.from(await file.arrayBuffer()) };
}
