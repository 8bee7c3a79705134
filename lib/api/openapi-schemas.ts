import { z } from "zod";
import { modelConfigInput, modelConfigPatch } from "@/lib/model-configs/schemas";
import { agentInput, agentPatch } from "@/lib/agents/schemas";
import { startRunInput } from "@/lib/runs/schemas";
import { suiteInput, suitePatch } from "@/lib/suites/schemas";
import { testCaseInput, testCasePatch } from "@/lib/test-cases/schemas";

/**
 * `components.schemas` of the OpenAPI document (lib/api/openapi.ts holds the paths), generated
 * from the zod schemas in `lib/<feature>/schemas.ts` in two views of one schema:
 * - requests (bodies, query parameters): `io: "input"`, what a client may send, so a field with a
 *   server default (`schedule_type`, `tags`, `concurrency`…) is optional;
 * - responses: `io: "output"`, what the server returns after parsing, so those fields are
 *   required. Our transforms only normalise values (`"" → null`, dedupe tags), so a transform's
 *   output is described by its input schema (zod cannot see through a function).
 */

export type JsonSchema = Record<string, unknown>;
type Io = "input" | "output";

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
function openObjects(node: unknown): void {
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
function resource(schema: z.ZodType, extra: z.ZodObject, opts: { omit?: string[]; description?: string } = {}): JsonSchema {
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
function patchBody(schema: z.ZodType): JsonSchema {
  const out = jsonSchema(schema, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
  for (const prop of Object.values(out.properties ?? {})) delete prop.default;
  delete out.required;
  return out;
}

// Server-set fields every single resource carries.
const serverFields = z.object({
  id: z.uuid(),
  created_at: z.iso.datetime().describe("Set by the server on creation"),
  updated_at: z.iso.datetime().describe("Set by the server on every update"),
});

const modelConfigResource = z.object({
  id: z.uuid(),
  name: z.string(),
  base_url: z.string(),
  model: z.string(),
  embedding_model: z.string().nullable(),
  api_key_hint: z.string().nullable().describe("A masked hint such as ••••abcd; the key itself is write-only and never returned"),
  temperature: z.number().nullable(),
  max_tokens: z.number().int().nullable(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});

const errorCodes = ["invalid_input", "unauthorized", "forbidden", "not_found", "conflict", "internal_error"] as const;
const errorEnvelope = z.object({
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

const importResult = z
  .looseObject({
    imported: z.number().int().describe("Number of cases written"),
    skipped: z.number().int().describe("Invalid cases left out (valid_only=true)"),
    errors: z
      .array(z.object({ index: z.number().int(), path: z.string(), message: z.string() }))
      .describe("Issues of the skipped cases: the case index and the field path within that case"),
  })
  .describe("Outcome of an import");

const runResource = {
  type: "object",
  description: "A run. Totals update live while it executes; summary (spec 000 ReportSummary + execution stats) is set when it ends.",
  properties: {
    id: { type: "string", format: "uuid" },
    suite_id: { type: "string", format: "uuid" },
    status: { enum: ["pending", "running", "completed", "failed", "cancelled"] },
    triggered_by: { enum: ["manual", "schedule", "api"] },
    total_cases: { type: "integer" },
    passed_cases: { type: "integer" },
    failed_cases: { type: "integer" },
    skipped_cases: { type: "integer" },
    error_cases: { type: "integer" },
    pass_rate: { type: "number", description: "passed / (total - skipped) × 100" },
    started_at: { type: ["string", "null"], format: "date-time" },
    completed_at: { type: ["string", "null"], format: "date-time" },
    error_message: { type: ["string", "null"] },
    summary: { type: ["object", "null"] },
    agent_snapshot: { type: "object", description: "The agent as it was when the run started" },
    resolved_variables: { type: "object", description: "Spec 004: {values, sources}" },
  },
};
const caseResultResource = {
  type: "object",
  properties: {
    id: { type: "string", format: "uuid" },
    test_case_id: { type: ["string", "null"], format: "uuid" },
    status: { enum: ["pending", "running", "passed", "failed", "skipped", "error"] },
    transcript: {
      type: "array",
      items: {
        type: "object",
        properties: {
          role: { type: "string" },
          content: { type: ["string", "null"] },
          tool_calls: { type: "array" },
          tool_call_id: { type: "string" },
        },
      },
    },
    actual_response: { type: ["string", "null"] },
    check_results: { type: "array" },
    tool_call_results: { type: ["object", "null"] },
    outcome_results: { type: "array" },
    metric_results: { type: "array" },
    prompt_tokens: { type: "integer" },
    completion_tokens: { type: "integer" },
    latency_ms: { type: ["integer", "null"] },
    duration_ms: { type: ["integer", "null"] },
    retry_count: { type: "integer" },
    error_message: { type: ["string", "null"] },
    error_type: { type: ["string", "null"], description: "agent, simulator, timeout, judge, cancelled, config, worker_lost" },
  },
};

const suiteServerFields = serverFields.extend({
  deleted_at: z.iso.datetime().nullable().describe("Set while the suite is in the trash"),
});
const testCaseServerFields = serverFields.extend({
  suite_id: z.uuid(),
  sort_order: z.number().int().describe("Position in the suite, set by the server"),
});

/**
 * Requests: what a client sends (input view). They are published under
 * `components.requestBodies`, not `components.schemas`: generators such as openapi-typescript
 * make a property with a `default` required in a schema component (a response, in their view)
 * but never inside a request body, so defaulted fields stay optional in generated clients.
 */
export const requestSchemas = {
  ModelConfigInput: jsonSchema(modelConfigInput),
  ModelConfigPatch: patchBody(modelConfigPatch),
  AgentInput: jsonSchema(agentInput),
  AgentPatch: patchBody(agentPatch),
  SuiteInput: jsonSchema(suiteInput),
  SuitePatch: patchBody(suitePatch),
  TestCaseInput: jsonSchema(testCaseInput),
  TestCasePatch: patchBody(testCasePatch),
  RunStartInput: jsonSchema(startRunInput),
} satisfies Record<string, JsonSchema>;
export type RequestSchemaName = keyof typeof requestSchemas;

/** Only on an update that moved the endpoint to another origin: the stored secrets it dropped. */
const secretWarnings = z
  .array(z.string())
  .optional()
  .describe(
    'Set when an update moved the URL to another origin and stored secrets were cleared, e.g. "api_key cleared because base_url changed origin"',
  );

export const componentSchemas: Record<string, JsonSchema> = {
  // Responses: what the server returns (output view).
  ModelConfig: resource(modelConfigResource, z.object({ warnings: secretWarnings })),
  Agent: resource(agentInput, serverFields.extend({ warnings: secretWarnings }), {
    description: "An agent; HTTP header values are masked (••••1234)",
  }),
  Suite: resource(suiteInput, suiteServerFields),
  TestCase: resource(testCaseInput, testCaseServerFields),
  TestCaseDocument: resource(testCaseInput, z.object({}), {
    omit: ["sort_order"],
    description: "One case as export writes it (spec 001 fields plus checks, mode and ground_truth); import accepts it back",
  }),
  // Hand-written (the run DTOs have no zod schema); every listed field is always sent.
  Run: { ...runResource, required: Object.keys(runResource.properties) },
  CaseResult: { ...caseResultResource, required: Object.keys(caseResultResource.properties) },
  ImportResult: jsonSchema(importResult, "output"),
  ServerFields: resource(serverFields, z.object({})),
  Error: jsonSchema(errorEnvelope, "output"),
};
