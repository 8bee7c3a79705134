import { describe, expect, it } from "vitest";
import { GET } from "@/app/api/v1/openapi.json/route";

const ISSUE_2_ROUTES: Record<string, string[]> = {
  "/api/v1/model-configs": ["get", "post"],
  "/api/v1/model-configs/{id}": ["get", "patch", "delete"],
  "/api/v1/agents": ["get", "post"],
  "/api/v1/agents/{id}": ["get", "patch", "delete"],
  "/api/v1/suites": ["get", "post"],
  "/api/v1/suites/{id}": ["get", "patch", "delete"],
  "/api/v1/suites/{id}/restore": ["post"],
  "/api/v1/suites/{id}/test-cases": ["get", "post"],
  "/api/v1/suites/{id}/test-cases/import": ["post"],
  "/api/v1/suites/{id}/test-cases/export": ["get"],
  "/api/v1/test-cases/{id}": ["get", "patch", "delete"],
};

async function fetchDocument() {
  const res = await GET();
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/application\/json/);
  // Valid JSON (parse the raw text, not a pre-parsed object).
  return JSON.parse(await res.text());
}

type Operation = { parameters?: { name: string; in: string }[]; requestBody?: { content: Record<string, { schema: unknown }> }; responses: Record<string, unknown>; security?: unknown[] };

describe("GET /api/v1/openapi.json", () => {
  it("is a public OpenAPI 3.1 document with bearer security", async () => {
    const doc = await fetchDocument();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.components.securitySchemes.bearerAuth).toEqual(expect.objectContaining({ type: "http", scheme: "bearer" }));
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths["/api/v1/openapi.json"].get.security).toEqual([]);
  });

  it("lists every route of the API with its methods and the error responses", async () => {
    const doc = await fetchDocument();
    for (const [path, methods] of Object.entries(ISSUE_2_ROUTES)) {
      expect(doc.paths[path], path).toBeDefined();
      for (const method of methods) {
        const op = doc.paths[path][method] as Operation | undefined;
        expect(op, `${method.toUpperCase()} ${path}`).toBeDefined();
        for (const status of ["400", "401", "403", "404"]) {
          expect(op!.responses[status], `${method} ${path} ${status}`).toEqual({
            description: expect.any(String),
            content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
          });
        }
      }
    }
  });

  it("documents the query parameters of the list, import and export routes", async () => {
    const doc = await fetchDocument();
    const names = (path: string, method: string) => ((doc.paths[path][method] as Operation).parameters ?? []).map((p) => p.name);
    expect(names("/api/v1/suites/{id}/test-cases", "get")).toEqual(expect.arrayContaining(["tag", "status", "difficulty", "q", "cursor", "limit"]));
    expect(names("/api/v1/suites", "get")).toEqual(expect.arrayContaining(["agent_id", "deleted", "cursor", "limit"]));
    expect(names("/api/v1/suites/{id}/test-cases/import", "post")).toContain("valid_only");
    expect(names("/api/v1/suites/{id}/test-cases/export", "get")).toContain("format");
    expect(doc.paths["/api/v1/test-cases/{id}"].parameters).toEqual([expect.objectContaining({ name: "id", in: "path", required: true })]);
  });

  it("derives request bodies and envelopes from the zod schemas", async () => {
    const doc = await fetchDocument();
    const s = doc.components.schemas;
    // Field rules come from lib/test-cases/schemas.ts: name required and ≤ 255.
    expect(s.TestCaseInput.required).toEqual(["name"]);
    expect(s.TestCaseInput.properties.name).toMatchObject({ type: "string", maxLength: 255 });
    expect(s.TestCaseInput.properties.status.enum).toEqual(["draft", "active", "archived"]);
    expect(Object.keys(s.TestCaseInput.properties)).toEqual(
      expect.arrayContaining(["persona", "initial_message", "user_context", "max_turns", "expected_outcomes", "expected_tool_calls", "checks", "mode", "ground_truth"]),
    );
    expect(Object.keys(s.SuiteInput.properties)).toEqual(expect.arrayContaining(["agent_id", "schedule_type", "alert_threshold_percent", "variables"]));
    expect(Object.keys(s.AgentInput.properties)).toEqual(expect.arrayContaining(["kind", "system_prompt", "model_config_id", "tools", "http", "variables_schema"]));
    // The API key is write-only: accepted on input, never part of the resource.
    expect(s.ModelConfigInput.properties).toHaveProperty("api_key");
    expect(s.ModelConfig.properties).not.toHaveProperty("api_key");
    // Envelopes.
    expect(s.Error.properties.error.required).toEqual(["code", "message", "issues"]);
    expect(s.Error.properties.error.properties.issues.items.required).toEqual(["path", "message"]);
    const listSchema = doc.paths["/api/v1/agents"].get.responses["200"].content["application/json"].schema;
    expect(listSchema.required).toEqual(["data", "next_cursor"]);
    expect(doc.paths["/api/v1/suites/{id}/test-cases"].post.requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/TestCaseInput" });
    // Every $ref points at a defined component.
    const refs = JSON.stringify(doc).match(/#\/components\/schemas\/[A-Za-z]+/g) ?? [];
    for (const r of new Set(refs)) expect(s[r.split("/").pop()!], r).toBeDefined();
  });
});
