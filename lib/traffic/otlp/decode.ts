/**
 * Decodes an OTLP/HTTP `ExportTraceServiceRequest` (protobuf or OTLP/JSON) into `ReceivedSpan`s.
 *
 * Both encodings are walked by one normalizer: protobuf is decoded with protobufjs into the same
 * object shape OTLP/JSON has (camelCase fields, int64 as decimal strings), except that ids are bytes
 * there and hex strings in JSON. OTLP/JSON is read as the spec allows it: lowerCamelCase or
 * snake_case field names, int64 as string or number, enums as integers (or their names).
 *
 * A malformed body or a string attribute over the limit fails the whole request (400), as does
 * a request with more spans than allowed (413); a span whose trace or span id is invalid is only
 * skipped and counted, so the route can answer `partial_success`. Gzip and the body size cap are
 * the route's business.
 */
import type { AttributeValue, Attributes, ReceivedSpan } from "@/lib/traffic/types";
import { ExportTraceServiceRequest } from "@/lib/traffic/otlp/proto";

export type OtlpLimits = {
  /** Spans in one request (413 above). */
  maxSpans: number;
  /** Characters of one string attribute value (400 above). */
  maxAttributeLength: number;
};

export const DEFAULT_OTLP_LIMITS: OtlpLimits = { maxSpans: 5_000, maxAttributeLength: 256 * 1024 };

export type DecodedTraceRequest = {
  spans: ReceivedSpan[];
  /** Spans skipped for invalid ids. */
  rejectedSpans: number;
  /** One line per rejected span, naming it and why. */
  rejectedReasons: string[];
};

/** A request Assay cannot accept; `message` names where in the request the problem is. */
export class OtlpDecodeError extends Error {
  readonly status: 400 | 413;
  constructor(status: 400 | 413, message: string) {
    super(message);
    this.name = "OtlpDecodeError";
    this.status = status;
  }
}

const MAX_UINT64 = 2n ** 64n - 1n;

type Json = unknown;
type Obj = Record<string, Json>;

export function decodeTraceRequest(body: Uint8Array, format: "protobuf" | "json", limits: Partial<OtlpLimits> = {}): DecodedTraceRequest {
  const effective: OtlpLimits = { ...DEFAULT_OTLP_LIMITS, ...limits };
  const request = format === "protobuf" ? parseProtobuf(body) : parseJson(body);
  return new Normalizer(effective).request(request);
}

function parseProtobuf(body: Uint8Array): Obj {
  try {
    const message = ExportTraceServiceRequest.decode(body);
    // Bytes stay bytes (ids are converted to hex, bytes values to base64 by the normalizer).
    return ExportTraceServiceRequest.toObject(message, { longs: String, enums: Number }) as Obj;
  } catch (error) {
    throw new OtlpDecodeError(400, `body: not a valid protobuf ExportTraceServiceRequest (${errorText(error)})`);
  }
}

function parseJson(body: Uint8Array): Obj {
  let parsed: Json;
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch (error) {
    throw new OtlpDecodeError(400, `body: not valid JSON (${errorText(error)})`);
  }
  if (!isObject(parsed)) throw new OtlpDecodeError(400, "body: must be a JSON object (ExportTraceServiceRequest)");
  return parsed;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isObject(value: Json): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

/** `startTimeUnixNano` → `start_time_unix_nano` (OTLP/JSON receivers accept both). */
function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

function field(object: Obj, name: string): Json {
  const value = object[name];
  return value === undefined ? object[snakeCase(name)] : value;
}

/** An id that makes its span unusable (caught per span, never seen by callers). */
class InvalidId extends Error {}

const SPAN_KINDS = ["UNSPECIFIED", "INTERNAL", "SERVER", "CLIENT", "PRODUCER", "CONSUMER"];
const STATUS_CODES = ["UNSET", "OK", "ERROR"];

class Normalizer {
  private readonly rejectedReasons: string[] = [];

  constructor(private readonly limits: OtlpLimits) {}

  request(request: Obj): DecodedTraceRequest {
    const resourceSpans = this.list(request, "resourceSpans", "");
    this.countSpans(resourceSpans);
    const spans: ReceivedSpan[] = [];
    resourceSpans.forEach((entry, r) => {
      const path = `resourceSpans[${r}]`;
      const resourceSpan = this.object(entry, path);
      const resource = field(resourceSpan, "resource");
      const resourceAttributes = isObject(resource) ? this.attributes(field(resource, "attributes"), `${path}.resource.attributes`) : {};
      const serviceName = typeof resourceAttributes["service.name"] === "string" ? resourceAttributes["service.name"] : null;
      this.list(resourceSpan, "scopeSpans", path).forEach((scopeEntry, s) => {
        const scopePath = `${path}.scopeSpans[${s}]`;
        const scopeSpans = this.object(scopeEntry, scopePath);
        const scope = field(scopeSpans, "scope");
        const scopeName = isObject(scope) ? this.optionalString(field(scope, "name"), `${scopePath}.scope.name`) : null;
        this.list(scopeSpans, "spans", scopePath).forEach((spanEntry, i) => {
          const span = this.span(spanEntry, `${scopePath}.spans[${i}]`, { serviceName, resourceAttributes, scopeName });
          if (span) spans.push(span);
        });
      });
    });
    return { spans, rejectedSpans: this.rejectedReasons.length, rejectedReasons: this.rejectedReasons };
  }

  /** Counted before anything else is normalized, so an oversized request is refused cheaply. */
  private countSpans(resourceSpans: Json[]): void {
    let count = 0;
    for (const resourceSpan of resourceSpans) {
      if (!isObject(resourceSpan)) continue;
      const scopes = field(resourceSpan, "scopeSpans");
      if (!Array.isArray(scopes)) continue;
      for (const scope of scopes) {
        const spans = isObject(scope) ? field(scope, "spans") : undefined;
        if (Array.isArray(spans)) count += spans.length;
      }
    }
    if (count > this.limits.maxSpans) {
      throw new OtlpDecodeError(413, `resourceSpans: ${count} spans, more than the ${this.limits.maxSpans} allowed per request`);
    }
  }

  private span(
    entry: Json,
    path: string,
    context: { serviceName: string | null; resourceAttributes: Attributes; scopeName: string | null },
  ): ReceivedSpan | null {
    const span = this.object(entry, path);
    const name = this.optionalString(field(span, "name"), `${path}.name`) ?? "";
    const ids = this.ids(span, path);
    if ("invalid" in ids) {
      this.rejectedReasons.push(`${path} (${name || "unnamed"}): ${ids.invalid}`);
      return null;
    }
    const events = this.list(span, "events", path).map((eventEntry, e) => {
      const eventPath = `${path}.events[${e}]`;
      const event = this.object(eventEntry, eventPath);
      return {
        name: this.optionalString(field(event, "name"), `${eventPath}.name`) ?? "",
        timeUnixNano: this.uint64(field(event, "timeUnixNano"), `${eventPath}.timeUnixNano`),
        attributes: this.attributes(field(event, "attributes"), `${eventPath}.attributes`),
      };
    });
    const status = field(span, "status");
    return {
      ...ids,
      name,
      kind: this.enumValue(field(span, "kind"), SPAN_KINDS, `${path}.kind`),
      startTimeUnixNano: this.uint64(field(span, "startTimeUnixNano"), `${path}.startTimeUnixNano`),
      endTimeUnixNano: this.uint64(field(span, "endTimeUnixNano"), `${path}.endTimeUnixNano`),
      serviceName: context.serviceName,
      status: isObject(status)
        ? {
            code: this.enumValue(field(status, "code"), STATUS_CODES, `${path}.status.code`),
            message: this.optionalString(field(status, "message"), `${path}.status.message`) || null,
          }
        : { code: 0, message: null },
      attributes: this.attributes(field(span, "attributes"), `${path}.attributes`),
      resourceAttributes: context.resourceAttributes,
      events,
      scope: context.scopeName,
    };
  }

  /** The span's ids as lowercase hex, or why they are not valid (the span is then skipped, not the request). */
  private ids(span: Obj, path: string): Pick<ReceivedSpan, "traceId" | "spanId" | "parentSpanId"> | { invalid: string } {
    try {
      const traceId = this.hexId(field(span, "traceId"), 16, `${path}.traceId`);
      const spanId = this.hexId(field(span, "spanId"), 8, `${path}.spanId`);
      const parent = field(span, "parentSpanId");
      const empty = parent === undefined || parent === null || parent === "" || (parent instanceof Uint8Array && parent.length === 0);
      const parentSpanId = empty ? null : this.hexId(parent, 8, `${path}.parentSpanId`, { zeroAllowed: true });
      // An all-zero parent is how some SDKs write "no parent".
      return { traceId, spanId, parentSpanId: parentSpanId === null || /^0+$/.test(parentSpanId) ? null : parentSpanId };
    } catch (error) {
      if (error instanceof InvalidId) return { invalid: error.message };
      throw error;
    }
  }

  private hexId(value: Json, bytes: number, path: string, options: { zeroAllowed?: boolean } = {}): string {
    let hex: string;
    if (value instanceof Uint8Array) hex = Buffer.from(value).toString("hex");
    else if (typeof value === "string") hex = value.toLowerCase();
    else if (value === undefined || value === null) hex = "";
    else throw new OtlpDecodeError(400, `${path}: must be a hex string`);
    if (!/^[0-9a-f]*$/.test(hex)) throw new InvalidId(`${path} is not hexadecimal`);
    if (hex.length !== bytes * 2) throw new InvalidId(`${path} must be ${bytes * 2} hex digits (${bytes} bytes), got ${hex.length}`);
    if (!options.zeroAllowed && /^0+$/.test(hex)) throw new InvalidId(`${path} is all zeros`);
    return hex;
  }

  private attributes(value: Json, path: string): Attributes {
    if (value === undefined || value === null) return {};
    if (!Array.isArray(value)) throw new OtlpDecodeError(400, `${path}: must be an array of key-value pairs`);
    const attributes: Attributes = {};
    value.forEach((entry, i) => {
      const keyValue = this.object(entry, `${path}[${i}]`);
      const key = field(keyValue, "key");
      if (typeof key !== "string") throw new OtlpDecodeError(400, `${path}[${i}].key: must be a string`);
      attributes[key] = this.anyValue(field(keyValue, "value"), `${path}[${JSON.stringify(key)}]`);
    });
    return attributes;
  }

  private anyValue(value: Json, path: string): AttributeValue {
    if (value === undefined || value === null) return null;
    const any = this.object(value, path);
    const stringValue = field(any, "stringValue");
    if (stringValue !== undefined) return this.string(stringValue, path);
    const boolValue = field(any, "boolValue");
    if (boolValue !== undefined) {
      if (typeof boolValue !== "boolean") throw new OtlpDecodeError(400, `${path}.boolValue: must be a boolean`);
      return boolValue;
    }
    const intValue = field(any, "intValue");
    if (intValue !== undefined) return this.int64(intValue, `${path}.intValue`);
    const doubleValue = field(any, "doubleValue");
    if (doubleValue !== undefined) return this.double(doubleValue, `${path}.doubleValue`);
    const arrayValue = field(any, "arrayValue");
    if (arrayValue !== undefined) {
      const values = isObject(arrayValue) ? this.list(arrayValue, "values", `${path}.arrayValue`) : [];
      return values.map((item, i) => this.anyValue(item, `${path}[${i}]`));
    }
    const kvlistValue = field(any, "kvlistValue");
    if (kvlistValue !== undefined) {
      return isObject(kvlistValue) ? this.attributes(field(kvlistValue, "values"), path) : {};
    }
    const bytesValue = field(any, "bytesValue");
    if (bytesValue !== undefined) {
      if (bytesValue instanceof Uint8Array) return this.string(Buffer.from(bytesValue).toString("base64"), path);
      return this.string(bytesValue, path);
    }
    return null;
  }

  private string(value: Json, path: string): string {
    if (typeof value !== "string") throw new OtlpDecodeError(400, `${path}: must be a string`);
    if (value.length > this.limits.maxAttributeLength) {
      throw new OtlpDecodeError(400, `${path}: longer than ${this.limits.maxAttributeLength} characters`);
    }
    return value;
  }

  private optionalString(value: Json, path: string): string | null {
    if (value === undefined || value === null) return null;
    if (typeof value !== "string") throw new OtlpDecodeError(400, `${path}: must be a string`);
    return value;
  }

  /** An int64 attribute: a number when it fits a double exactly, else its decimal string. */
  private int64(value: Json, path: string): number | string {
    const text = typeof value === "number" ? String(value) : value;
    if (typeof text !== "string" || !/^-?\d+$/.test(text)) throw new OtlpDecodeError(400, `${path}: must be an integer`);
    const number = Number(text);
    return Number.isSafeInteger(number) ? number : text;
  }

  private double(value: Json, path: string): number | string {
    if (typeof value === "number") return value;
    // OTLP/JSON writes the non-finite doubles as strings.
    if (value === "NaN" || value === "Infinity" || value === "-Infinity") return value;
    throw new OtlpDecodeError(400, `${path}: must be a number`);
  }

  /** A fixed64 timestamp as a decimal string (nanoseconds do not fit a double). */
  private uint64(value: Json, path: string): string {
    if (value === undefined || value === null) return "0";
    let n: bigint | null = null;
    if (typeof value === "number" && Number.isInteger(value) && value >= 0) n = BigInt(value);
    else if (typeof value === "string" && /^\d{1,20}$/.test(value)) n = BigInt(value);
    // Past 2^64 - 1 it is no uint64 (and no time a Date can hold).
    if (n === null || n > MAX_UINT64)
      throw new OtlpDecodeError(400, `${path}: must be an unsigned 64-bit integer (number or decimal string)`);
    return n.toString();
  }

  private enumValue(value: Json, names: string[], path: string): number {
    if (value === undefined || value === null) return 0;
    if (typeof value === "number" && Number.isInteger(value) && value >= 0) return value;
    if (typeof value === "string") {
      const index = names.findIndex((name) => value.endsWith(`_${name}`) || value === name);
      if (index >= 0) return index;
    }
    throw new OtlpDecodeError(400, `${path}: must be one of ${names.map((_, i) => i).join(", ")}`);
  }

  private object(value: Json, path: string): Obj {
    if (!isObject(value)) throw new OtlpDecodeError(400, `${path}: must be an object`);
    return value;
  }

  private list(object: Obj, name: string, parentPath: string): Json[] {
    const value = field(object, name);
    const path = parentPath ? `${parentPath}.${name}` : name;
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) throw new OtlpDecodeError(400, `${path}: must be an array`);
    return value;
  }
}
