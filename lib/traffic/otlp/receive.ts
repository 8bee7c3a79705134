/**
 * The OTLP/HTTP traces receiver (`POST /api/v1/otlp/v1/traces`), as the OTLP specification
 * describes it: `application/x-protobuf` or `application/json` ExportTraceServiceRequest bodies,
 * gzip-encoded or not; the answer is an ExportTraceServiceResponse in the request's encoding,
 * with `partial_success` when spans were rejected (invalid ids), and a `google.rpc.Status` body
 * for a refused request (also in the request's encoding; the JSON one carries Assay's usual
 * `error` envelope as well). Limits: MAX_OTLP_BODY_BYTES as sent, MAX_OTLP_DECOMPRESSED_BYTES
 * once inflated (413 either way), and the decoder's spans-per-request and attribute limits.
 */
import "server-only";
import { gunzipSync } from "node:zlib";
import { NextResponse } from "next/server";
import { readBodyBytes } from "@/lib/api/handler";
import { DomainError, PayloadTooLargeError, ValidationError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { ingestSpans } from "../ingest";
import { assembleSoon } from "../assembler";
import { decodeTraceRequest, OtlpDecodeError } from "./decode";
import { encodeTraceResponse } from "./proto";
import { encodeStatus } from "./status";

export const MAX_OTLP_BODY_BYTES = 5 * 1024 * 1024;
export const MAX_OTLP_DECOMPRESSED_BYTES = 32 * 1024 * 1024;

const MAX_LISTED_REJECTIONS = 10;

export type OtlpFormat = "protobuf" | "json";

class UnsupportedMediaTypeError extends DomainError {
  override readonly status = 415;
  override readonly code = "unsupported_media_type";
}

/** The body's encoding from its Content-Type; null for anything else. */
export function otlpFormatOf(contentType: string | null): OtlpFormat | null {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/x-protobuf" || type === "application/protobuf") return "protobuf";
  if (type === "application/json") return "json";
  return null;
}

/** gRPC status codes of the Status body: INVALID_ARGUMENT for a bad request, RESOURCE_EXHAUSTED for a too large one. */
const grpcCode = (status: number) => (status === 413 ? 8 : status === 401 ? 16 : status === 403 ? 7 : status >= 500 ? 13 : 3);

function inflate(body: Buffer, encoding: string | null): Buffer {
  const value = (encoding ?? "identity").trim().toLowerCase();
  if (value === "" || value === "identity") return body;
  if (value !== "gzip") throw new UnsupportedMediaTypeError(`Content-Encoding ${value} is not supported (use gzip or none)`);
  try {
    return gunzipSync(body, { maxOutputLength: MAX_OTLP_DECOMPRESSED_BYTES });
  } catch (err) {
    if ((err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw new PayloadTooLargeError(MAX_OTLP_DECOMPRESSED_BYTES);
    throw new ValidationError("The body is not valid gzip", [{ path: "", message: "invalid gzip data" }]);
  }
}

/** Answers one export request for the workspace. */
export async function receiveTraces(req: Request, workspaceId: string): Promise<Response> {
  const format = otlpFormatOf(req.headers.get("content-type"));
  try {
    if (!format) {
      throw new UnsupportedMediaTypeError("Send application/x-protobuf or application/json (an OTLP ExportTraceServiceRequest)", [
        { path: "content-type", message: "must be application/x-protobuf or application/json" },
      ]);
    }
    const body = inflate(await readBodyBytes(req, MAX_OTLP_BODY_BYTES), req.headers.get("content-encoding"));
    let decoded;
    try {
      decoded = decodeTraceRequest(body, format);
    } catch (err) {
      if (!(err instanceof OtlpDecodeError)) throw err;
      if (err.status === 413) throw new PayloadTooLargeTooManySpans(err.message);
      // The decoder's message starts with where the problem is ("resourceSpans[0].scopeSpans[1].spans[3]…: …").
      const colon = err.message.indexOf(": ");
      throw new ValidationError(err.message, [{ path: colon > 0 ? err.message.slice(0, colon) : "body", message: err.message }]);
    }
    await ingestSpans(workspaceId, decoded.spans);
    // The conversations are rebuilt after the answer, off the export's path (../assembler.ts).
    if (decoded.spans.length > 0) assembleSoon(workspaceId);
    const partial =
      decoded.rejectedSpans > 0 ? { rejectedSpans: decoded.rejectedSpans, errorMessage: rejectionMessage(decoded.rejectedReasons) } : null;
    const answer = encodeTraceResponse(partial, format);
    return new Response(typeof answer === "string" ? answer : new Uint8Array(answer), {
      status: 200,
      headers: { "content-type": format === "protobuf" ? "application/x-protobuf" : "application/json" },
    });
  } catch (err) {
    if (!(err instanceof DomainError)) {
      logger.error({ err }, "OTLP export failed");
      return statusResponse(format, 500, "internal_error", "Something went wrong on our side", []);
    }
    return statusResponse(format, err.status, err.code, err.message, err.issues);
  }
}

/** The first reasons for rejected spans, and how many more: the answer stays small whatever the batch. */
function rejectionMessage(reasons: string[]): string {
  const shown = reasons.slice(0, MAX_LISTED_REJECTIONS).join("; ");
  return reasons.length > MAX_LISTED_REJECTIONS ? `${shown}; and ${reasons.length - MAX_LISTED_REJECTIONS} more` : shown;
}

class PayloadTooLargeTooManySpans extends DomainError {
  override readonly status = 413;
  override readonly code = "payload_too_large";
}

function statusResponse(format: OtlpFormat | null, status: number, code: string, message: string, issues: DomainError["issues"]) {
  if (format === "protobuf") {
    return new Response(new Uint8Array(encodeStatus(grpcCode(status), message)), {
      status,
      headers: { "content-type": "application/x-protobuf" },
    });
  }
  return NextResponse.json({ code: grpcCode(status), message, details: [], error: { code, message, issues } }, { status });
}
