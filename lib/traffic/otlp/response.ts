/**
 * The two protobuf messages the receiver answers with, written with protobufjs's Writer (they
 * are two fields each): ExportTraceServiceResponse {1: partial_success {1: rejected_spans int64,
 * 2: error_message string}} and google.rpc.Status {1: code int32, 2: message string}.
 */
import protobuf from "protobufjs";

export function encodeExportResponse(partial: { rejectedSpans: number; errorMessage: string } | null): Uint8Array {
  const writer = protobuf.Writer.create();
  if (partial) {
    writer.uint32((1 << 3) | 2).fork();
    writer.uint32((1 << 3) | 0).int64(partial.rejectedSpans);
    if (partial.errorMessage) writer.uint32((2 << 3) | 2).string(partial.errorMessage);
    writer.ldelim();
  }
  return writer.finish();
}

export function encodeStatus(code: number, message: string): Uint8Array {
  const writer = protobuf.Writer.create();
  writer.uint32((1 << 3) | 0).int32(code);
  if (message) writer.uint32((2 << 3) | 2).string(message);
  return writer.finish();
}
