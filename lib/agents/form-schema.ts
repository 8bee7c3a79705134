import { z } from "zod";
import { agentInput, type AgentInput, type VariableValue, VARIABLE_DATA_TYPES, VARIABLE_VALUE_SOURCES } from "./schemas";
import { headerIssues } from "./rules";
import { RATE_LIMIT_LABELS } from "@/lib/rate-limits/schemas";

/**
 * The agent form edits text (JSON in textareas, numbers in inputs, header rows); this schema
 * turns the text into `agentInput` input and validates it with `agentInput` plus the header
 * rules, reporting every problem at its field. Invalid JSON is a field error — the text stays.
 */
const toolRow = z.object({ name: z.string(), description: z.string(), parameters: z.string(), mock_response: z.string() });
const headerRow = z.object({ name: z.string(), value: z.string() });
const possibleValueRow = z.object({ value: z.string(), label: z.string(), description: z.string() });
const variableRow = z.object({
  name: z.string(),
  display_name: z.string(),
  description: z.string(),
  data_type: z.enum(VARIABLE_DATA_TYPES),
  value_source: z.enum(VARIABLE_VALUE_SOURCES),
  possible_values: z.array(possibleValueRow),
  default_value: z.string(),
  required: z.boolean(),
});

const formFields = z.object({
  name: z.string(),
  description: z.string(),
  kind: z.enum(["chat", "http"]),
  system_prompt: z.string(),
  model_config_id: z.string(),
  tools: z.array(toolRow),
  http: z.object({
    url: z.string(),
    headers: z.array(headerRow),
    timeout_ms: z.string(),
    rpm: z.string().default(""),
    tpm: z.string().default(""),
    max_concurrency: z.string().default(""),
  }),
  variables_schema: z.array(variableRow),
  otel_service_name: z.string(),
});

export type AgentFormValues = z.input<typeof formFields>;
export type ToolFormRow = z.input<typeof toolRow>;
export type VariableFormRow = z.input<typeof variableRow>;
type Path = (string | number)[];

function coerceValue(dataType: (typeof VARIABLE_DATA_TYPES)[number], text: string): VariableValue {
  const t = text.trim();
  if (dataType === "number" && t !== "" && !Number.isNaN(Number(t))) return Number(t);
  if (dataType === "boolean" && (t === "true" || t === "false")) return t === "true";
  return dataType === "string" ? text : t;
}

export const agentFormSchema = formFields.transform((v, ctx): AgentInput => {
  const issue = (path: Path, message: string) => ctx.addIssue({ code: "custom", path, message });
  const failed = new Set<string>();

  const tools = v.tools.map((t, i) => {
    let parameters: Record<string, unknown> | undefined;
    if (t.parameters.trim() !== "") {
      try {
        const parsed: unknown = JSON.parse(t.parameters);
        if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) parameters = parsed as Record<string, unknown>;
        else issue(["tools", i, "parameters"], "Parameters must be a JSON object (a JSON schema)");
      } catch (err) {
        issue(["tools", i, "parameters"], `Parameters must be valid JSON: ${(err as Error).message}`);
      }
      if (!parameters) failed.add(`tools.${i}.parameters`);
    }
    let mock: unknown = null;
    const text = t.mock_response.trim();
    if (/^[[{]/.test(text)) {
      try {
        mock = JSON.parse(text);
      } catch (err) {
        issue(["tools", i, "mock_response"], `This looks like JSON but does not parse: ${(err as Error).message}`);
        failed.add(`tools.${i}.mock_response`);
      }
    } else if (text !== "") {
      mock = t.mock_response;
    }
    return { name: t.name, description: t.description, parameters, mock_response: mock };
  });

  const headers: Record<string, string> = {};
  v.http.headers.forEach((h, i) => {
    if (h.name.trim() === "" && h.value === "") return;
    if (h.name.trim() === "") issue(["http", "headers", i, "name"], "Header name is required");
    else headers[h.name.trim()] = h.value;
  });

  let timeout: number | undefined;
  if (v.http.timeout_ms.trim() !== "") {
    timeout = Number(v.http.timeout_ms.trim());
    if (!Number.isInteger(timeout)) {
      issue(["http", "timeout_ms"], "Timeout must be a whole number of milliseconds");
      failed.add("http.timeout_ms");
      timeout = undefined;
    }
  }

  // The declared provider limits: blank is none; what is not a number is reported here, the rest by agentInput.
  const limits = Object.fromEntries(
    (["rpm", "tpm", "max_concurrency"] as const).map((key) => {
      const text = v.http[key].trim();
      if (text === "") return [key, null];
      const n = Number(text);
      if (Number.isNaN(n)) {
        issue(["http", key], `${RATE_LIMIT_LABELS[key]} must be a whole number`);
        failed.add(`http.${key}`);
        return [key, null];
      }
      return [key, n];
    }),
  ) as Record<"rpm" | "tpm" | "max_concurrency", number | null>;

  const variables = v.variables_schema.map((row) => ({
    name: row.name,
    display_name: row.display_name,
    description: row.description,
    data_type: row.data_type,
    value_source: row.value_source,
    possible_values:
      row.value_source === "static"
        ? row.possible_values.map((p) => ({ value: coerceValue(row.data_type, p.value), label: p.label, description: p.description }))
        : [],
    default_value: row.default_value.trim() === "" ? null : coerceValue(row.data_type, row.default_value),
    required: row.required,
  }));

  const candidate: AgentInput =
    v.kind === "chat"
      ? {
          name: v.name,
          description: v.description,
          kind: "chat",
          system_prompt: v.system_prompt,
          model_config_id: v.model_config_id || null,
          tools,
          http: null,
          variables_schema: variables,
          otel_service_name: v.otel_service_name,
        }
      : {
          name: v.name,
          description: v.description,
          kind: "http",
          system_prompt: null,
          model_config_id: null,
          tools: [],
          http: v.http.url.trim() === "" ? null : { url: v.http.url, headers, timeout_ms: timeout, ...limits },
          variables_schema: variables,
          otel_service_name: v.otel_service_name,
        };

  const parsed = agentInput.safeParse(candidate);
  if (!parsed.success) {
    for (const i of parsed.error.issues) {
      const path = i.path.map((p) => (typeof p === "symbol" ? String(p) : p));
      // Record-key problems (header names) belong to the header list as a whole.
      const target = path[0] === "http" && path[1] === "headers" ? ["http", "headers"] : path;
      if (!failed.has(target.join("."))) issue(target, i.message);
    }
  }
  if (v.kind === "http") for (const h of headerIssues(headers)) issue(["http", "headers"], h.message);
  return candidate;
});

const stringify = (value: unknown) =>
  value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value, null, 2);

/** Form values for a new agent or from an agent's public JSON (header values arrive masked). */
export function agentFormDefaults(agent?: {
  name: string;
  description: string | null;
  kind: "chat" | "http";
  system_prompt: string | null;
  model_config_id: string | null;
  tools: { name: string; description: string; parameters: Record<string, unknown>; mock_response: unknown }[];
  http: {
    url: string;
    headers: Record<string, string>;
    timeout_ms: number;
    rpm?: number | null;
    tpm?: number | null;
    max_concurrency?: number | null;
  } | null;
  variables_schema: {
    name: string;
    display_name: string;
    description: string | null;
    data_type: (typeof VARIABLE_DATA_TYPES)[number];
    value_source: (typeof VARIABLE_VALUE_SOURCES)[number];
    possible_values: { value: VariableValue; label: string | null; description: string | null }[];
    default_value: VariableValue | null;
    required: boolean;
  }[];
  otel_service_name?: string | null;
}): AgentFormValues {
  return {
    name: agent?.name ?? "",
    description: agent?.description ?? "",
    kind: agent?.kind ?? "chat",
    system_prompt: agent?.system_prompt ?? "",
    model_config_id: agent?.model_config_id ?? "",
    tools: (agent?.tools ?? []).map((t) => ({
      name: t.name,
      description: t.description,
      parameters: JSON.stringify(t.parameters, null, 2),
      mock_response: stringify(t.mock_response),
    })),
    http: {
      url: agent?.http?.url ?? "",
      headers: Object.entries(agent?.http?.headers ?? {}).map(([name, value]) => ({ name, value })),
      timeout_ms: String(agent?.http?.timeout_ms ?? 30_000),
      rpm: agent?.http?.rpm == null ? "" : String(agent.http.rpm),
      tpm: agent?.http?.tpm == null ? "" : String(agent.http.tpm),
      max_concurrency: agent?.http?.max_concurrency == null ? "" : String(agent.http.max_concurrency),
    },
    variables_schema: (agent?.variables_schema ?? []).map((v) => ({
      name: v.name,
      display_name: v.display_name,
      description: v.description ?? "",
      data_type: v.data_type,
      value_source: v.value_source,
      possible_values: v.possible_values.map((p) => ({ value: String(p.value), label: p.label ?? "", description: p.description ?? "" })),
      default_value: v.default_value === null ? "" : String(v.default_value),
      required: v.required,
    })),
    otel_service_name: agent?.otel_service_name ?? "",
  };
}

export const emptyTool: ToolFormRow = {
  name: "",
  description: "",
  parameters: '{\n  "type": "object",\n  "properties": {}\n}',
  mock_response: "",
};
export const emptyVariable: VariableFormRow = {
  name: "",
  display_name: "",
  description: "",
  data_type: "string",
  value_source: "freeform",
  possible_values: [],
  default_value: "",
  required: false,
};

/** Server issue paths → form field paths (header record keys map to the header list). */
export function formIssuePath(path: string): string {
  return path.startsWith("http.headers.") ? "http.headers" : path;
}
