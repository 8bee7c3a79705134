import type { z } from "zod";
import { paginationQuery } from "@/lib/api/query";
import { jsonSchema, type JsonSchema } from "@/lib/api/openapi-kit";

/**
 * The parts every feature's paths are built from (`lib/<feature>/openapi.ts`): parameters,
 * responses and the shared error responses, and the operations of a plain CRUD resource. The
 * schemas and components they refer to are built with ./openapi-kit.ts.
 */

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Query schema → OpenAPI parameters (one per property, `in: query`). */
export function queryParameters(schema: z.ZodType, descriptions: Record<string, string> = {}) {
  const js = jsonSchema(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(js.properties ?? {}).map(([name, s]) => ({
    name,
    in: "query",
    required: js.required?.includes(name) && !("default" in s) ? true : false,
    schema: s,
    ...(descriptions[name] ? { description: descriptions[name] } : {}),
  }));
}

export const idParam = { name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } };
const listQueryDocs = {
  cursor: "Opaque cursor from the previous page's next_cursor",
  limit: "Page size (1–200, default 50)",
};

/** A list route's query parameters: the page fields described as `listQueryDocs` says, unless `descriptions` says otherwise. */
export function listParameters(schema: z.ZodType, descriptions: Record<string, string> = {}) {
  return queryParameters(schema, { ...listQueryDocs, ...descriptions });
}

export const errorResponse = (description: string) => ({ description, content: { "application/json": { schema: ref("Error") } } });
export const errors = {
  "400": errorResponse("Invalid input: `issues` lists every invalid field with its path"),
  "401": errorResponse("Missing, malformed, unknown, expired or revoked API key"),
  "403": errorResponse("The key's role does not allow this"),
  "404": errorResponse("Not found, or outside the key's workspace (never revealed)"),
};
export const conflict = { "409": errorResponse("Conflicts with existing data (e.g. a duplicate name)") };
export const tooLarge = (limit = "1 MB") => ({
  "413": errorResponse(`The body is larger than ${limit}; refused before it is read in full (code payload_too_large)`),
});
export const json = (schema: JsonSchema) => ({ content: { "application/json": { schema } } });
export const ok = (description: string, schema: JsonSchema) => ({ description, ...json(schema) });
export const list = (item: string) =>
  ok(`A page of ${item} objects`, {
    type: "object",
    required: ["data", "next_cursor"],
    properties: {
      data: { type: "array", items: ref(item) },
      next_cursor: { type: ["string", "null"], description: "Pass as ?cursor= for the next page; null on the last page" },
    },
  });
export const body = (name: string) => ({ $ref: `#/components/requestBodies/${name}` });
export const noContent = { "204": { description: "Done; no body" } };

/**
 * `item` names the components (`${item}`, `${item}Input`, `${item}Patch`) and, with `plural`, the
 * operationIds a client generator turns into method names (listSuites, createSuite, getSuite…).
 */
export type Crud = {
  tag: string;
  item: string;
  plural: string;
  listParams?: unknown[];
  deleteParams?: unknown[];
  deleteNote: string;
  writeRole?: string;
};

export function collection({ tag, item, plural, listParams = listParameters(paginationQuery), writeRole = "editor" }: Crud) {
  return {
    get: {
      operationId: `list${plural}`,
      tags: [tag],
      summary: `List ${tag.toLowerCase()}`,
      description: "Role: viewer.",
      parameters: listParams,
      responses: { "200": list(item), ...errors },
    },
    post: {
      operationId: `create${item}`,
      tags: [tag],
      summary: `Create a ${item}`,
      description: `Role: ${writeRole}.`,
      requestBody: body(`${item}Input`),
      responses: { "201": ok(`The created ${item}`, ref(item)), ...errors, ...conflict, ...tooLarge() },
    },
  };
}

export function single({ tag, item, deleteNote, deleteParams, writeRole = "editor" }: Crud) {
  return {
    parameters: [idParam],
    get: {
      operationId: `get${item}`,
      tags: [tag],
      summary: `Get a ${item}`,
      description: "Role: viewer.",
      responses: { "200": ok(item, ref(item)), ...errors },
    },
    patch: {
      operationId: `update${item}`,
      tags: [tag],
      summary: `Update a ${item}`,
      description: `Role: ${writeRole}. Send only the fields to change; the merged result is validated like a create.`,
      requestBody: body(`${item}Patch`),
      responses: { "200": ok(`The updated ${item}`, ref(item)), ...errors, ...conflict, ...tooLarge() },
    },
    delete: {
      operationId: `delete${item}`,
      tags: [tag],
      summary: `Delete a ${item}`,
      description: `Role: ${writeRole}. ${deleteNote}`.trim(),
      ...(deleteParams ? { parameters: deleteParams } : {}),
      responses: { ...noContent, ...errors, ...conflict },
    },
  };
}
