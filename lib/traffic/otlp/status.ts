/**
 * The body of a refused OTLP/HTTP request in protobuf: a `google.rpc.Status` {1: code int32,
 * 2: message string}, written with protobufjs's Writer (two fields do not need a schema).
 */
import protobuf from "protobufjs";

export function encodeStatus(code: number, message: string): Uint8Array {
  const writer = protobuf.Writer.create();
  writer.uint32((1 << 3) | 0).int32(code);
  if (message) writer.uint32((2 << 3) | 2).string(message);
  return writer.finish();
}
