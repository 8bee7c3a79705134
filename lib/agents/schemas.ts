import { z } from "zod";
import { rateLimitFields } from "@/lib/rate-limits/schemas";
import { TEXT_LIMITS } from "@/lib/validation/limits";
import { httpUrlInput } from "@/lib/validation/fields";
import { JSON_TOO_LARGE_MESSAGE, jsonFits } from "@/lib/validation/text";
import { unknownPlaceholderIssues } from "@/lib/agents/placeholders";

/** The variables model "test type" level: the variables an agent's tests may use. */
export const VARIABLE_DATA_TYPES = ["string", "number", "boolean", "date"] as const;
export const VARIABLE_VALUE_SOURCES = ["static", "freeform"] as const;

export type VariableValue = string | number | boolean;
/** One value of the variables model: an agent's default, a suite's, run's or comparison arm's value, a matrix axis value. */
export const variableValue = z.union([z.string().max(TEXT_LIMITS.description), z.number(), z.boolean()]);
/** Variable values by name (a suite's, a run's, a comparison arm's); the service checks them against the agent's definitions. */
export const variableValues = z.record(z.string().max(TEXT_LIMITS.identifier), variableValue);

export const variableDefinitionSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, "Variable name is required")
      .max(TEXT_LIMITS.identifier)
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "Use letters, digits and _ (not starting with a digit)"),
    display_name: z.string().trim().min(1, "Display name is required").max(100),
    description: z
      .string()
      .trim()
      .max(1000)
      .nullish()
      .transform((v) => v || null),
    data_type: z.enum(VARIABLE_DATA_TYPES, { error: "Data type must be string, number, boolean or date" }),
    value_source: z.enum(VARIABLE_VALUE_SOURCES, { error: "Value source must be static or freeform" }),
    possible_values: z
      .array(
        z.object({
          value: variableValue,
          label: z
            .string()
            .trim()
            .max(100)
            .nullish()
            .transform((v) => v || null),
          description: z
            .string()
            .trim()
            .max(500)
            .nullish()
            .transform((v) => v || null),
        }),
      )
      .default([]),
    default_value: variableValue.nullish().transform((v) => v ?? null),
    required: z.boolean().default(false),
  })
  .superRefine((v, ctx) => {
    for (const [i, pv] of v.possible_values.entries()) {
      const problem = checkVariableType(v.data_type, pv.value);
      if (problem) ctx.addIssue({ code: "custom", path: ["possible_values", i, "value"], message: problem });
    }
    if (v.value_source === "static" && v.possible_values.length === 0) {
      ctx.addIssue({ code: "custom", path: ["possible_values"], message: "A static variable needs at least one possible value" });
    }
    if (v.default_value !== null) {
      const problem = checkVariableType(v.data_type, v.default_value);
      if (problem) ctx.addIssue({ code: "custom", path: ["default_value"], message: problem });
      else if (v.value_source === "static" && !v.possible_values.some((pv) => pv.value === v.default_value)) {
        ctx.addIssue({ code: "custom", path: ["default_value"], message: "Default value must be one of the possible values" });
      }
    }
  });
export type VariableDefinition = z.output<typeof variableDefinitionSchema>;

/** Returns a message when `value` does not fit `dataType`, else null. */
export function checkVariableType(dataType: (typeof VARIABLE_DATA_TYPES)[number], value: VariableValue): string | null {
  switch (dataType) {
    case "string":
      return typeof value === "string" ? null : "Value must be a string";
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? null : "Value must be a number";
    case "boolean":
      return typeof value === "boolean" ? null : "Value must be true or false";
    case "date":
      return typeof value === "string" &&
        /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/.test(value) &&
        !Number.isNaN(Date.parse(value))
        ? null
        : "Value must be an ISO date (YYYY-MM-DD)";
  }
}

export const toolSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Tool name is required")
    .max(TEXT_LIMITS.identifier)
    .regex(/^[a-zA-Z0-9_-]+$/, "Use letters, digits, _ and - only"),
  description: z.string().trim().max(TEXT_LIMITS.shortDescription).default(""),
  parameters: z
    .record(z.string(), z.unknown())
    .default({ type: "object", properties: {} })
    .refine((p) => p.type === undefined || p.type === "object", { message: 'Parameters must be a JSON schema with "type": "object"' })
    .refine((p) => jsonFits(p), JSON_TOO_LARGE_MESSAGE),
  /** What the platform answers when the agent calls this tool: a string or any JSON value. */
  mock_response: z
    .unknown()
    .refine((v) => jsonFits(v), JSON_TOO_LARGE_MESSAGE)
    .optional()
    .transform((v) => (v === undefined ? null : v)),
});
export type Tool = z.output<typeof toolSchema>;

export const httpConfigSchema = z.object({
  url: httpUrlInput,
  headers: z.record(z.string().trim().min(1).max(TEXT_LIMITS.headerName), z.string().max(TEXT_LIMITS.headerValue)).default({}),
  timeout_ms: z
    .number()
    .int("Timeout must be a whole number of milliseconds")
    .min(100, "Timeout must be at least 100 ms")
    .max(600_000, "Timeout must be at most 600000 ms")
    .default(30_000),
  ...rateLimitFields,
});
export type HttpConfig = z.output<typeof httpConfigSchema>;

export const agentFields = z.object({
  name: z.string().trim().min(1, "Name is required").max(TEXT_LIMITS.shortName, `Use at most ${TEXT_LIMITS.shortName} characters`),
  description: z
    .string()
    .trim()
    .max(TEXT_LIMITS.shortDescription)
    .nullish()
    .transform((v) => v || null),
  kind: z.enum(["chat", "http"], { error: "Kind must be chat or http" }),
  system_prompt: z
    .string()
    .max(TEXT_LIMITS.prompt, `Use at most ${TEXT_LIMITS.prompt.toLocaleString("en-US")} characters`)
    .nullish()
    .transform((v) => (v && v.trim() ? v : null)),
  model_config_id: z
    .uuid("Choose a model configuration")
    .nullish()
    .transform((v) => v ?? null),
  tools: z.array(toolSchema).max(128).default([]),
  http: httpConfigSchema.nullish().transform((v) => v ?? null),
  variables_schema: z.array(variableDefinitionSchema).max(100).default([]),
  /** The OpenTelemetry service.name this agent's traffic arrives under: its conversations link to the agent. */
  otel_service_name: z
    .string()
    .trim()
    .max(TEXT_LIMITS.shortName, `Use at most ${TEXT_LIMITS.shortName} characters`)
    .nullish()
    .transform((v) => v || null)
    .describe("The OpenTelemetry service.name of this agent's traffic (its conversations on the Traffic page link here)"),
});

function refineAgent(a: z.output<typeof agentFields>, ctx: z.RefinementCtx) {
  if (a.kind === "chat" && !a.model_config_id) {
    ctx.addIssue({ code: "custom", path: ["model_config_id"], message: "A chat agent needs a model configuration" });
  }
  if (a.kind === "http" && !a.http) {
    ctx.addIssue({ code: "custom", path: ["http", "url"], message: "An HTTP agent needs a URL" });
  }
  const seen = new Set<string>();
  a.tools.forEach((t, i) => {
    if (seen.has(t.name)) ctx.addIssue({ code: "custom", path: ["tools", i, "name"], message: `Duplicate tool name "${t.name}"` });
    seen.add(t.name);
  });
  const vars = new Set<string>();
  a.variables_schema.forEach((v, i) => {
    if (vars.has(v.name))
      ctx.addIssue({ code: "custom", path: ["variables_schema", i, "name"], message: `Duplicate variable "${v.name}"` });
    vars.add(v.name);
  });
  // The variables model: a {{Name}} the agent does not declare would reach the model as a literal; refuse it at save time.
  for (const issue of unknownPlaceholderIssues(a.system_prompt, [...vars], "system_prompt")) {
    ctx.addIssue({ code: "custom", path: ["system_prompt"], message: issue.message });
  }
}

export const agentInput = agentFields.superRefine(refineAgent);
export type AgentInput = z.input<typeof agentInput>;
export type AgentData = z.output<typeof agentInput>;
export const agentPatch = agentFields.partial();

/**
 * PATCH /api/v1/agents/{id} as the route parses it: any JSON object (an empty body is `{}`).
 * The service merges it over the stored agent and validates the result with `agentInput`;
 * `agentPatch` describes the fields for the OpenAPI document.
 */
export const agentPatchBody = z.record(z.string(), z.unknown(), { error: "The body must be a JSON object" }).default({});
