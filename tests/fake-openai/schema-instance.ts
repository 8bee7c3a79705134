// Generates a minimal, deterministic instance that validates against a JSON schema (the subset
// that OpenAI structured outputs and zod's JSON-schema export produce): objects get their
// required properties, strings "fake", booleans true, enums their first value, numbers their
// minimum (0 when allowed, else the nearest bound), arrays one item. A simulated-user shape ({message, should_end, ...}) gets a
// polite closing turn so multi-turn conversations end by themselves.

type Schema = Record<string, unknown>;

const SIMULATOR_MESSAGE = "Thanks, that answers my question.";
const MAX_DEPTH = 12;

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function resolveRef(ref: string, root: Schema): Schema | undefined {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isSchema(node)) return undefined;
    node = node[key];
  }
  return isSchema(node) ? node : undefined;
}

function typeOf(schema: Schema): string | undefined {
  const t = schema.type;
  if (typeof t === "string") return t;
  if (Array.isArray(t)) {
    const first = t.find((x) => x !== "null") ?? t[0];
    return typeof first === "string" ? first : undefined;
  }
  if (isSchema(schema.properties)) return "object";
  if (schema.items !== undefined || schema.prefixItems !== undefined) return "array";
  return undefined;
}

function fakeString(schema: Schema): string {
  const format = schema.format;
  let s = "fake";
  if (format === "date-time") s = "2024-01-01T00:00:00.000Z";
  else if (format === "date") s = "2024-01-01";
  else if (format === "time") s = "00:00:00";
  else if (format === "email") s = "fake@example.com";
  else if (format === "uri" || format === "url") s = "https://example.com/";
  else if (format === "uuid") s = "00000000-0000-4000-8000-000000000000";
  else if (format === "ipv4") s = "127.0.0.1";
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : Infinity;
  while (s.length < min) s += "x";
  if (s.length > max) s = s.slice(0, max);
  return s;
}

/** 0 when the bounds allow it, else the nearest allowed value (zod's int bounds are huge). */
function fakeNumber(schema: Schema, integer: boolean): number {
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
  const step = integer ? 1 : 0.5;
  let lo = num(schema.minimum);
  const exMin = num(schema.exclusiveMinimum);
  if (exMin !== undefined && (lo === undefined || exMin >= lo)) lo = integer ? Math.floor(exMin) + 1 : exMin + step;
  let hi = num(schema.maximum);
  const exMax = num(schema.exclusiveMaximum);
  if (exMax !== undefined && (hi === undefined || exMax <= hi)) hi = integer ? Math.ceil(exMax) - 1 : exMax - step;
  if (integer) {
    if (lo !== undefined) lo = Math.ceil(lo);
    if (hi !== undefined) hi = Math.floor(hi);
  }
  let value = 0;
  if (lo !== undefined && value < lo) value = lo;
  if (hi !== undefined && value > hi) value = hi;
  if (exMin !== undefined && exMax !== undefined && (value <= exMin || value >= exMax)) value = (exMin + exMax) / 2;
  return value;
}

function mergeAllOf(schema: Schema, root: Schema): Schema {
  const parts = Array.isArray(schema.allOf) ? schema.allOf.filter(isSchema) : [];
  const merged: Schema = { ...schema };
  delete merged.allOf;
  const properties: Schema = isSchema(schema.properties) ? { ...schema.properties } : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  for (const raw of parts) {
    const part = typeof raw.$ref === "string" ? (resolveRef(raw.$ref, root) ?? raw) : raw;
    if (isSchema(part.properties)) Object.assign(properties, part.properties);
    if (Array.isArray(part.required)) for (const r of part.required) required.add(String(r));
    if (typeof part.type === "string" && merged.type === undefined) merged.type = part.type;
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.size > 0) merged.required = [...required];
  return merged;
}

function simulatorTurn(schema: Schema, root: Schema, depth: number): Record<string, unknown> {
  const properties = schema.properties as Schema;
  const out: Record<string, unknown> = {};
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  for (const key of Object.keys(properties)) {
    const prop = properties[key];
    if (!isSchema(prop)) continue;
    if (key === "message") out.message = SIMULATOR_MESSAGE;
    else if (key === "should_end") out.should_end = true;
    else if (key === "end_reason") out.end_reason = endReason(prop, root);
    else if (required.includes(key)) out[key] = instanceOf(prop, root, depth + 1);
  }
  return out;
}

function endReason(prop: Schema, root: Schema): unknown {
  const schema = typeof prop.$ref === "string" ? (resolveRef(prop.$ref, root) ?? prop) : prop;
  const options = [
    ...(Array.isArray(schema.enum) ? schema.enum : []),
    ...(Array.isArray(schema.anyOf) ? schema.anyOf.flatMap((s) => (isSchema(s) && Array.isArray(s.enum) ? s.enum : [])) : []),
  ];
  if (options.length === 0) return typeOf(schema) === "string" || schema.type === undefined ? "satisfied" : instanceOf(schema, root, 1);
  return options.includes("satisfied") ? "satisfied" : (options.find((o) => o !== null) ?? options[0]);
}

function instanceOf(input: Schema, root: Schema, depth: number): unknown {
  if (depth > MAX_DEPTH) return null;
  let schema = input;
  if (typeof schema.$ref === "string") {
    const target = resolveRef(schema.$ref, root);
    if (!target) return null;
    schema = { ...target, ...schema, $ref: undefined };
  }
  if (Array.isArray(schema.allOf)) schema = mergeAllOf(schema, root);
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) {
      const nonNull = options.filter(isSchema).find((o) => o.type !== "null") ?? options[0];
      return isSchema(nonNull) ? instanceOf(nonNull, root, depth + 1) : null;
    }
  }
  switch (typeOf(schema)) {
    case "object": {
      const properties = isSchema(schema.properties) ? schema.properties : {};
      if ("message" in properties && "should_end" in properties) return simulatorTurn(schema, root, depth);
      const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
      const out: Record<string, unknown> = {};
      for (const key of required) {
        const prop = properties[key];
        out[key] = isSchema(prop) ? instanceOf(prop, root, depth + 1) : "fake";
      }
      return out;
    }
    case "array": {
      if (Array.isArray(schema.prefixItems)) {
        return schema.prefixItems.map((s) => (isSchema(s) ? instanceOf(s, root, depth + 1) : null));
      }
      const items = isSchema(schema.items) ? schema.items : {};
      const min = typeof schema.minItems === "number" ? schema.minItems : 1;
      const max = typeof schema.maxItems === "number" ? schema.maxItems : Infinity;
      const count = Math.min(Math.max(1, min), max);
      return Array.from({ length: count }, () => instanceOf(items, root, depth + 1));
    }
    case "string":
      return fakeString(schema);
    case "integer":
      return fakeNumber(schema, true);
    case "number":
      return fakeNumber(schema, false);
    case "boolean":
      return true;
    case "null":
      return null;
    default:
      return "fake";
  }
}

/** A minimal valid instance of `schema` (deterministic). */
export function schemaInstance(schema: unknown): unknown {
  if (!isSchema(schema)) return {};
  return instanceOf(schema, schema, 0);
}
