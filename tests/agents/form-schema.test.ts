import { describe, expect, it } from "vitest";
import {
  agentFormDefaults,
  agentFormSchema,
  emptyTool,
  emptyVariable,
  formIssuePath,
  type AgentFormValues,
} from "@/lib/agents/form-schema";
import { agentInput } from "@/lib/agents/schemas";

const CONFIG = "6f1c2d3e-4a5b-4c6d-8e7f-001122334455";
const base = (): AgentFormValues => ({ ...agentFormDefaults(), name: "Bot", model_config_id: CONFIG });
const issues = (values: AgentFormValues) => {
  const r = agentFormSchema.safeParse(values);
  return r.success ? [] : r.error.issues.map((i) => [i.path.join("."), i.message]);
};

describe("agent form schema", () => {
  it("turns tool text into JSON: parameters default, mock response as JSON or plain text", () => {
    const values = base();
    values.tools = [
      { name: "a", description: "d", parameters: "", mock_response: "" },
      {
        name: "b",
        description: "",
        parameters: '{"type":"object","properties":{"q":{"type":"string"}}}',
        mock_response: '[1, {"x": true}]',
      },
      { name: "c", description: "", parameters: '{"type":"object"}', mock_response: "It is 21 °C" },
    ];
    const out = agentInput.parse(agentFormSchema.parse(values));
    expect(out.tools.map((t) => [t.parameters, t.mock_response])).toEqual([
      [{ type: "object", properties: {} }, null],
      [{ type: "object", properties: { q: { type: "string" } } }, [1, { x: true }]],
      [{ type: "object" }, "It is 21 °C"],
    ]);
  });

  it("reports invalid JSON at the textarea instead of dropping it, together with other field errors", () => {
    const values = { ...base(), name: "" };
    values.tools = [
      { ...emptyTool, name: "a", parameters: '{"type": "object"' },
      { ...emptyTool, name: "b", parameters: "[1]", mock_response: "{nope" },
    ];
    const found = issues(values);
    expect(found).toEqual(
      expect.arrayContaining([
        ["name", "Name is required"],
        ["tools.0.parameters", expect.stringContaining("Parameters must be valid JSON")],
        ["tools.1.parameters", "Parameters must be a JSON object (a JSON schema)"],
        ["tools.1.mock_response", expect.stringContaining("looks like JSON but does not parse")],
      ]),
    );
    // One message per broken textarea (no second "expected record" issue from the schema).
    expect(found.filter(([p]) => p === "tools.0.parameters")).toHaveLength(1);
    expect(values.tools[0]!.parameters).toBe('{"type": "object"');
  });

  it("sends only the fields of the chosen kind", () => {
    const chat = agentFormSchema.parse({
      ...base(),
      tools: [{ ...emptyTool, name: "t" }],
      http: { url: "http://x.test/a", headers: [], timeout_ms: "100" },
    });
    expect(chat.http).toBeNull();
    expect(chat.tools).toHaveLength(1);
    const http = agentFormSchema.parse({
      ...base(),
      kind: "http",
      system_prompt: "ignored",
      tools: [{ ...emptyTool, name: "t" }],
      http: {
        url: "http://localhost:8080/chat",
        headers: [
          { name: "X-Key", value: "v" },
          { name: "", value: "" },
        ],
        timeout_ms: "",
      },
    });
    expect(http).toMatchObject({
      kind: "http",
      system_prompt: null,
      model_config_id: null,
      tools: [],
      http: { url: "http://localhost:8080/chat", headers: { "X-Key": "v" } },
    });
    expect(agentInput.parse(http).http?.timeout_ms).toBe(30_000);
  });

  it("validates HTTP fields and header rows", () => {
    const values: AgentFormValues = { ...base(), kind: "http", http: { url: "", headers: [], timeout_ms: "30000" } };
    expect(issues(values)).toEqual([["http.url", "An HTTP agent needs a URL"]]);
    values.http = {
      url: "http://localhost/x",
      headers: [
        { name: "", value: "secret" },
        { name: "X A", value: "1" },
        { name: "x-b", value: "1" },
        { name: "X-B", value: "2" },
      ],
      timeout_ms: "1.5s",
    };
    expect(issues(values)).toEqual(
      expect.arrayContaining([
        ["http.headers.0.name", "Header name is required"],
        ["http.timeout_ms", "Timeout must be a whole number of milliseconds"],
        ["http.headers", expect.stringContaining('"X A" may only contain')],
        ["http.headers", 'Header "X-B" is listed twice'],
      ]),
    );
  });

  it("coerces variable values by data type and reports type errors at the value", () => {
    const values = base();
    values.variables_schema = [
      {
        ...emptyVariable,
        name: "n",
        display_name: "N",
        data_type: "number",
        value_source: "static",
        possible_values: [
          { value: "1", label: "", description: "" },
          { value: "2.5", label: "Two and a half", description: "" },
        ],
        default_value: "2.5",
      },
      { ...emptyVariable, name: "b", display_name: "B", data_type: "boolean", default_value: "true", required: true },
      { ...emptyVariable, name: "s", display_name: "S", possible_values: [{ value: "ignored for freeform", label: "", description: "" }] },
    ];
    const out = agentInput.parse(agentFormSchema.parse(values));
    expect(out.variables_schema.map((v) => [v.default_value, v.possible_values.map((p) => p.value)])).toEqual([
      [2.5, [1, 2.5]],
      [true, []],
      [null, []],
    ]);
    values.variables_schema[0]!.possible_values[1]!.value = "many";
    values.variables_schema[1]!.default_value = "yes";
    expect(issues(values)).toEqual(
      expect.arrayContaining([
        ["variables_schema.0.possible_values.1.value", "Value must be a number"],
        ["variables_schema.1.default_value", "Value must be true or false"],
      ]),
    );
  });

  it("round-trips an agent's public JSON through the form", () => {
    const agent = {
      name: "Round trip",
      description: null,
      kind: "chat" as const,
      system_prompt: "Hi",
      model_config_id: CONFIG,
      tools: [{ name: "t", description: "d", parameters: { type: "object", properties: {} }, mock_response: { ok: true } }],
      http: null,
      variables_schema: [
        {
          name: "v",
          display_name: "V",
          description: null,
          data_type: "number" as const,
          value_source: "static" as const,
          possible_values: [{ value: 3, label: null, description: null }],
          default_value: 3,
          required: false,
        },
      ],
    };
    expect(agentInput.parse(agentFormSchema.parse(agentFormDefaults(agent)))).toEqual(agentInput.parse(agent));
    expect(formIssuePath("http.headers.X-Key")).toBe("http.headers");
    expect(formIssuePath("tools.0.name")).toBe("tools.0.name");
  });

  it("reads an HTTP agent's rate limits: blank is none, what is not a number is named at its field", () => {
    const values: AgentFormValues = { ...base(), kind: "http", model_config_id: "" };
    values.http = { ...values.http, url: "https://agent.example.com/chat", rpm: "120", tpm: "", max_concurrency: "3" };
    expect(agentInput.parse(agentFormSchema.parse(values)).http).toMatchObject({ rpm: 120, tpm: null, max_concurrency: 3 });
    values.http = { ...values.http, rpm: "fast", max_concurrency: "-1" };
    expect(issues(values)).toEqual(
      expect.arrayContaining([
        ["http.rpm", "Requests per minute must be a whole number"],
        ["http.max_concurrency", "Max concurrency must be at least 1"],
      ]),
    );
  });
});
