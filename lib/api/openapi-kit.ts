import { z } from "zod";

/**
 * The parts every feature's OpenAPI description is built from (`lib/<feature>/openapi.ts`), and
 * the shared components (errors, server-set fields). Schemas are generated from zod in two views
 * of one schema:
 * - requests (bodies, query parameters): `io: "input"`, what a client may send, so a field with a
 *   server default (`schedule_type`, `tags`, `concurrency`…) is optional;
 * - responses: `io: "output"`, what the server returns after parsing, so those fields are
 *   required. Our transforms only normalise values (`"" → null`, dedupe tags), so a transform's
 *   output is described by its input schema (zod cannot see through a function).
 * A response resource is declared once, as a zod schema in `lib/<feature>/schemas.ts`; its DTO
 * type is `z.output` of it (`lib/<feature>/dto.ts`). The parts of the paths (parameters,
 * responses, errors, CRUD operations) are in ./openapi-paths.ts.
 */

export type JsonSchema = Record<string, unknown>;
type Io = "input" | "output";

/** One feature's share of the document: its paths, response components and request bodies. */
export type OpenApiPart = {
  tags: { name: string; description: string }[];
  paths: Record<string, unknown>;
  schemas?: Record<string, JsonSchema>;
  /** Request body schemas, published as `components.requestBodies` (see lib/api/openapi.ts). */
  requests?: Record<string, JsonSchema>;
  /** Request bodies that are not one JSON schema (multipart uploads). */
  requestBodies?: Record<string, unknown>;
};

/** A feature's part of the document under its one tag: the tag with its description, then the paths and components. */
export function featurePart(tag: string, description: string, part: Omit<OpenApiPart, "tags">): OpenApiPart {
  return { tags: [{ name: tag, description }], ...part };
}

/** A zod schema as JSON Schema 2020-12 (the OpenAPI 3.1 dialect), in the input or output view. */
export function jsonSchema(schema: z.core.$ZodType, io: Io = "input"): JsonSchema {
  const out = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    target: "draft-2020-12",
    override: ({ zodSchema, jsonSchema: node }) => {
      const def = zodSchema._zod.def;
      if (io === "output" && def.type === "pipe" && def.out._zod.def.type === "transform") {
        const inner = jsonSchema(def.in, "output");
        for (const key of Object.keys(node)) delete (node as JsonSchema)[key];
        Object.assign(node, inner);
      }
    },
  }) as JsonSchema;
  delete out.$schema;
  return out;
}

/** Drops `additionalProperties: false` everywhere: responses may gain fields; clients must not reject them. */
export function openObjects(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(openObjects);
  if (!node || typeof node !== "object") return;
  const obj = node as JsonSchema;
  if (obj.additionalProperties === false) delete obj.additionalProperties;
  Object.values(obj).forEach(openObjects);
}

/**
 * A response resource: the output view of `schema` plus the server-set fields, as one object
 * (not `allOf`, so generated clients get one flat type).
 */
export function resource(schema: z.ZodType, extra: z.ZodObject, opts: { omit?: string[]; description?: string } = {}): JsonSchema {
  const base = jsonSchema(schema, "output") as { properties?: Record<string, JsonSchema>; required?: string[] };
  const more = jsonSchema(extra, "output") as { properties?: Record<string, JsonSchema>; required?: string[] };
  const properties: Record<string, JsonSchema> = { ...base.properties, ...more.properties };
  for (const key of opts.omit ?? []) delete properties[key];
  const required = [...new Set([...(base.required ?? []), ...(more.required ?? [])])].filter((k) => k in properties);
  const out: JsonSchema = { type: "object", ...(opts.description ? { description: opts.description } : {}), properties, required };
  openObjects(out);
  return out;
}

/** A PATCH body: the fields of a create, none required, and no `default` (an omitted field keeps its stored value). */
export function patchBody(schema: z.ZodType): JsonSchema {
  const out = jsonSchema(schema, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
  for (const prop of Object.values(out.properties ?? {})) delete prop.default;
  delete out.required;
  return out;
}

// Server-set fields every single resource carries.
export const serverFields = z.object({
  id: z.uuid(),
  created_at: z.iso.datetime().describe("Set by the server on creation"),
  updated_at: z.iso.datetime().describe("Set by the server on every update"),
});

/**
 * Response components that reference each other: every schema named in `named` becomes
 * `#/components/schemas/<name>` and the others refer to it by `$ref`.
 */
export function namedComponents(named: Record<string, z.ZodType>): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    io: "output",
    target: "draft-2020-12",
    unrepresentable: "any",
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonSchema> };
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
    openObjects(schema);
  }
  return schemas;
}

/** A response schema: its output view, open to added fields. */
export function responseSchema(schema: z.ZodType): JsonSchema {
  const out = jsonSchema(schema, "output");
  openObjects(out);
  return out;
}

/** Response components without cross-references. */
export function outputComponents(named: Record<string, z.ZodType>): Record<string, JsonSchema> {
  return Object.fromEntries(Object.entries(named).map(([name, schema]) => [name, responseSchema(schema)]));
}

const errorCodes = [
  "invalid_input",
  "unauthorized",
  "forbidden",
  "not_found",
  "conflict",
  "payload_too_large",
  "unsupported_media_type",
  "internal_error",
] as const;
export const errorEnvelope = z.object({
  error: z.object({
    code: z.enum(errorCodes),
    message: z.string(),
    issues: z
      .array(
        z.object({
          path: z.string().describe("Dotted field path, e.g. checks.0.threshold (imports: <case index>.<field>)"),
          message: z.string(),
        }),
      )
      .describe("One entry per invalid field; empty for errors that are not about a field"),
  }),
});

/** Only on an update that moved the endpoint to another origin: the stored secrets it dropped. */
export const secretWarnings = z
  .array(z.string())
  .optional()
  .describe(
    'Set when an update moved the URL to another origin and stored secrets were cleared, e.g. "api_key cleared because base_url changed origin"',
  );
