/**
 * The OTLP trace protobuf schema (opentelemetry-proto: collector/trace/v1, trace/v1, common/v1,
 * resource/v1), written out as the subset ingestion reads, and compiled once with protobufjs.
 * Field numbers are the spec's; fields Assay ignores (links, dropped counts, trace state) are kept
 * so a decoded message stays faithful, deprecated ones are left out (protobuf skips unknown fields).
 */
import protobuf from "protobufjs";

const OTLP_TRACE_PROTO = `
syntax = "proto3";
package opentelemetry.proto;

message AnyValue {
  oneof value {
    string string_value = 1;
    bool bool_value = 2;
    int64 int_value = 3;
    double double_value = 4;
    ArrayValue array_value = 5;
    KeyValueList kvlist_value = 6;
    bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
message KeyValue { string key = 1; AnyValue value = 2; }
message InstrumentationScope {
  string name = 1;
  string version = 2;
  repeated KeyValue attributes = 3;
  uint32 dropped_attributes_count = 4;
}
message Resource { repeated KeyValue attributes = 1; uint32 dropped_attributes_count = 2; }

message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ExportTraceServiceResponse { ExportTracePartialSuccess partial_success = 1; }
message ExportTracePartialSuccess { int64 rejected_spans = 1; string error_message = 2; }

message ResourceSpans {
  Resource resource = 1;
  repeated ScopeSpans scope_spans = 2;
  string schema_url = 3;
}
message ScopeSpans {
  InstrumentationScope scope = 1;
  repeated Span spans = 2;
  string schema_url = 3;
}
message Span {
  bytes trace_id = 1;
  bytes span_id = 2;
  string trace_state = 3;
  bytes parent_span_id = 4;
  fixed32 flags = 16;
  string name = 5;
  SpanKind kind = 6;
  fixed64 start_time_unix_nano = 7;
  fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9;
  uint32 dropped_attributes_count = 10;
  repeated Event events = 11;
  uint32 dropped_events_count = 12;
  repeated Link links = 13;
  uint32 dropped_links_count = 14;
  Status status = 15;

  enum SpanKind {
    SPAN_KIND_UNSPECIFIED = 0;
    SPAN_KIND_INTERNAL = 1;
    SPAN_KIND_SERVER = 2;
    SPAN_KIND_CLIENT = 3;
    SPAN_KIND_PRODUCER = 4;
    SPAN_KIND_CONSUMER = 5;
  }
  message Event {
    fixed64 time_unix_nano = 1;
    string name = 2;
    repeated KeyValue attributes = 3;
    uint32 dropped_attributes_count = 4;
  }
  message Link {
    bytes trace_id = 1;
    bytes span_id = 2;
    string trace_state = 3;
    repeated KeyValue attributes = 4;
    uint32 dropped_attributes_count = 5;
    fixed32 flags = 6;
  }
}
message Status {
  reserved 1;
  string message = 2;
  StatusCode code = 3;
  enum StatusCode {
    STATUS_CODE_UNSET = 0;
    STATUS_CODE_OK = 1;
    STATUS_CODE_ERROR = 2;
  }
}
`;

const root = protobuf.parse(OTLP_TRACE_PROTO).root;

export const ExportTraceServiceRequest = root.lookupType("opentelemetry.proto.ExportTraceServiceRequest");
export const ExportTraceServiceResponse = root.lookupType("opentelemetry.proto.ExportTraceServiceResponse");

/** What an export answer says about spans that were not accepted (OTLP `partial_success`). */
export type PartialSuccess = { rejectedSpans: number; errorMessage: string };

/**
 * The `ExportTraceServiceResponse` body in the request's encoding: empty when every span was
 * accepted, else `partial_success` with the count and the reason.
 */
export function encodeTraceResponse(partial: PartialSuccess | null, format: "protobuf" | "json"): Uint8Array | string {
  const accepted = partial === null || partial.rejectedSpans === 0;
  if (format === "json") {
    // OTLP/JSON writes int64 as a decimal string.
    return JSON.stringify(
      accepted
        ? {}
        : {
            partialSuccess: { rejectedSpans: String(partial.rejectedSpans), errorMessage: partial.errorMessage },
          },
    );
  }
  const message = ExportTraceServiceResponse.fromObject(accepted ? {} : { partialSuccess: partial });
  return ExportTraceServiceResponse.encode(message).finish();
}
