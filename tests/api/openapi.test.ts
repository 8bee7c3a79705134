import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { GET } from "@/app/api/v1/openapi.json/route";
import { pairListQuery } from "@/lib/comparisons/schemas";
import { modelConfigDeleteQuery } from "@/lib/model-configs/schemas";
import { suiteListQuery } from "@/lib/suites/schemas";
import { testCaseExportQuery, testCaseImportQuery } from "@/lib/test-cases/schemas";
import { cleanupQuery } from "@/lib/retention/schemas";
import { unknownMetricResult } from "@/lib/evaluation/metrics";
import { NextRequest } from "next/server";
import * as modelConfigRoutes from "@/app/api/v1/model-configs/route";
import * as agentRoutes from "@/app/api/v1/agents/route";
import * as suiteRoutes from "@/app/api/v1/suites/route";
import * as testCaseRoutes from "@/app/api/v1/suites/[id]/test-cases/route";
import * as suiteRunRoutes from "@/app/api/v1/suites/[id]/runs/route";
import { ALERT_FIELDS, CASE_FIELDS, makeApiKey, makeWorkspace } from "../helpers/factories";

/**
 * Every operation of the public API as the file tree defines it: each `route.ts` under
 * `app/api/v1` and `app/api/health` (its folder is the path, `[id]` a `{id}` parameter) and the
 * HTTP methods it exports. Read from the files, not kept by hand, so a new route without
 * documentation fails below. (The other folders of `app/api` serve the app's own pages and
 * sign-in, with a session, and are not part of the documented API.)
 */
function routeOperations(): string[] {
  const api = path.join(process.cwd(), "app/api");
  const files = ["v1", "health"].flatMap((top) =>
    readdirSync(path.join(api, top), { recursive: true, encoding: "utf8" })
      .filter((f) => path.basename(f) === "route.ts")
      .map((f) => path.join(top, f)),
  );
  expect(files.length).toBeGreaterThan(40);
  return files.flatMap((file) => {
    const apiPath = `/api/${path.dirname(file).split(path.sep).join("/")}`.replace(/\[(\w+)\]/g, "{$1}");
    const source = readFileSync(path.join(api, file), "utf8");
    const methods = [...source.matchAll(/^export (?:const|async function) (GET|POST|PUT|PATCH|DELETE)\b/gm)].map((m) => m[1]!);
    expect(methods.length, file).toBeGreaterThan(0);
    return methods.map((m) => `${m} ${apiPath}`);
  });
}

const HTTP_METHODS = ["get", "post", "put", "patch", "delete"];

async function fetchDocument() {
  const res = await GET();
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/application\/json/);
  // Valid JSON (parse the raw text, not a pre-parsed object).
  return JSON.parse(await res.text());
}

/** A POST that starts work in the background: it takes the named request body and answers 202 (or 400, 403, 404, 413). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is read as parsed JSON
function expectStartOperation(doc: any, path: string, requestBody: string) {
  const create = doc.paths[path].post;
  expect(create.requestBody).toEqual({ $ref: `#/components/requestBodies/${requestBody}` });
  expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(["202", "400", "403", "404", "413"]));
}

/** The JSON schema of each reusable JSON request body, by name (SuiteInput, TestCasePatch, …; not the multipart FileUpload). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is arbitrary JSON here
function requestSchemas(doc: any): Record<string, any> {
  return Object.fromEntries(
    Object.entries<{ content: Record<string, { schema: unknown }> }>(doc.components.requestBodies)
      .filter(([, b]) => b.content["application/json"])
      .map(([name, b]) => [name, b.content["application/json"]!.schema]),
  );
}

type Operation = {
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, unknown>;
  security?: unknown[];
};

describe("GET /api/v1/openapi.json", () => {
  it("is a public OpenAPI 3.1 document with bearer security", async () => {
    const doc = await fetchDocument();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.components.securitySchemes.bearerAuth).toEqual(expect.objectContaining({ type: "http", scheme: "bearer" }));
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths["/api/v1/openapi.json"].get.security).toEqual([]);
  });

  it("documents exactly the routes the app defines, each with the error responses", async () => {
    const doc = await fetchDocument();
    const documented = Object.entries<Record<string, unknown>>(doc.paths).flatMap(([p, item]) =>
      Object.keys(item)
        .filter((k) => HTTP_METHODS.includes(k))
        .map((k) => `${k.toUpperCase()} ${p}`),
    );
    // No route without a documented operation, no documented operation without a route.
    expect(documented.sort()).toEqual(routeOperations().sort());
    for (const operation of documented) {
      const [method, p] = operation.split(" ") as [string, string];
      const op = doc.paths[p][method.toLowerCase()] as Operation;
      if (p === "/api/v1/openapi.json" || p === "/api/health") continue; // public, take nothing
      for (const status of ["400", "401", "403", "404"]) {
        expect(op.responses[status], `${operation} ${status}`).toEqual({
          description: expect.any(String),
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        });
      }
    }
  });

  it("documents the query parameters of the list, import and export routes", async () => {
    const doc = await fetchDocument();
    const names = (path: string, method: string) => ((doc.paths[path][method] as Operation).parameters ?? []).map((p) => p.name);
    expect(names("/api/v1/suites/{id}/test-cases", "get")).toEqual(
      expect.arrayContaining(["tag", "status", "difficulty", "q", "cursor", "limit"]),
    );
    expect(names("/api/v1/suites", "get")).toEqual(expect.arrayContaining(["agent_id", "deleted", "cursor", "limit"]));
    expect(names("/api/v1/suites/{id}/test-cases/import", "post")).toContain("valid_only");
    expect(names("/api/v1/suites/{id}/test-cases/export", "get")).toContain("format");
    expect(doc.paths["/api/v1/test-cases/{id}"].parameters).toEqual([expect.objectContaining({ name: "id", in: "path", required: true })]);
  });

  it("derives request bodies and envelopes from the zod schemas", async () => {
    const doc = await fetchDocument();
    const s = { ...doc.components.schemas, ...requestSchemas(doc) };
    // Field rules come from lib/test-cases/schemas.ts: name required and ≤ 255.
    expect(s.TestCaseInput.required).toEqual(["name"]);
    expect(s.TestCaseInput.properties.name).toMatchObject({ type: "string", maxLength: 255 });
    expect(s.TestCaseInput.properties.status.enum).toEqual(["draft", "active", "archived"]);
    // Every field a case carries can be sent.
    expect(Object.keys(s.TestCaseInput.properties)).toEqual(expect.arrayContaining([...CASE_FIELDS]));
    expect(Object.keys(s.SuiteInput.properties)).toEqual(
      expect.arrayContaining(["agent_id", "schedule_type", "alert_threshold_percent", "variables"]),
    );
    expect(Object.keys(s.AgentInput.properties)).toEqual(
      expect.arrayContaining(["kind", "system_prompt", "model_config_id", "tools", "http", "variables_schema"]),
    );
    // The API key is write-only: accepted on input, never part of the resource.
    expect(s.ModelConfigInput.properties).toHaveProperty("api_key");
    expect(s.ModelConfig.properties).not.toHaveProperty("api_key");
    // Envelopes.
    expect(s.Error.properties.error.required).toEqual(["code", "message", "issues"]);
    expect(s.Error.properties.error.properties.issues.items.required).toEqual(["path", "message"]);
    const listSchema = doc.paths["/api/v1/agents"].get.responses["200"].content["application/json"].schema;
    expect(listSchema.required).toEqual(["data", "next_cursor"]);
    expect(doc.paths["/api/v1/suites/{id}/test-cases"].post.requestBody).toEqual({ $ref: "#/components/requestBodies/TestCaseInput" });
    // Every $ref points at a defined component.
    const refs = JSON.stringify(doc).match(/#\/components\/(schemas|requestBodies)\/[A-Za-z]+/g) ?? [];
    expect(refs.length).toBeGreaterThan(0);
    for (const r of new Set(refs)) {
      const [, , kind, name] = r.split("/");
      expect(doc.components[kind!][name!], r).toBeDefined();
    }
  });

  it("documents 413 on every operation that takes a body, and the secret-clearing warnings", async () => {
    const doc = await fetchDocument();
    let withBody = 0;
    for (const [path, item] of Object.entries<Record<string, Operation>>(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (method === "parameters" || !op.requestBody) continue;
        withBody++;
        expect(op.responses, `${method.toUpperCase()} ${path}`).toHaveProperty("413");
      }
    }
    expect(withBody).toBeGreaterThanOrEqual(10);
    for (const name of ["Agent", "ModelConfig"]) {
      const schema = doc.components.schemas[name];
      expect(schema.properties.warnings, name).toMatchObject({ type: "array", items: { type: "string" } });
      expect(schema.required, name).not.toContain("warnings");
    }
  });

  it("gives every operation a unique camelCase operationId", async () => {
    const doc = await fetchDocument();
    const ids: string[] = [];
    for (const [path, item] of Object.entries<Record<string, { operationId?: string }>>(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (method === "parameters") continue;
        expect(op.operationId, `${method.toUpperCase()} ${path}`).toMatch(/^[a-z][A-Za-z]+$/);
        ids.push(op.operationId!);
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      expect.arrayContaining([
        "listSuites",
        "createSuite",
        "getSuite",
        "updateSuite",
        "deleteSuite",
        "restoreSuite",
        "listTestCases",
        "createTestCase",
        "importTestCases",
        "exportTestCases",
        "listModelConfigs",
        "createModelConfig",
        "testModelConfig",
        "listAgents",
        "createAgent",
        "startRun",
        "listRuns",
        "getRun",
        "cancelRun",
        "getRunReport",
        "listCaseResults",
        "getCaseResult",
        "createComparison",
        "listComparisons",
        "importComparison",
        "getComparison",
        "listComparisonPairs",
        "cancelComparison",
        "getComparisonReport",
        "listAlerts",
        "acknowledgeAlert",
        "pinBaselineRun",
        "unpinBaselineRun",
        "listWebhooks",
        "createWebhook",
        "getWebhook",
        "updateWebhook",
        "deleteWebhook",
        "listWebhookDeliveries",
        "testWebhook",
        "redeliverWebhookDelivery",
      ]),
    );
    expect(doc.paths["/api/v1/suites/{id}/runs"].post.operationId).toBe("startRun");
    expect(doc.paths["/api/v1/runs/{id}/report"].get.operationId).toBe("getRunReport");
  });

  it("describes every tag an operation uses, once", async () => {
    const doc = await fetchDocument();
    const declared = doc.tags as { name: string; description?: string }[];
    expect(new Set(declared.map((t) => t.name)).size).toBe(declared.length);
    for (const tag of declared) expect(tag.description, tag.name).toEqual(expect.stringMatching(/\S/));
    const used = new Set<string>();
    for (const item of Object.values<Record<string, { tags?: string[] }>>(doc.paths)) {
      for (const [method, op] of Object.entries(item)) if (method !== "parameters") (op.tags ?? []).forEach((t) => used.add(t));
    }
    expect(used.size).toBeGreaterThan(0);
    for (const tag of used)
      expect(
        declared.map((t) => t.name),
        tag,
      ).toContain(tag);
  });

  it("leaves fields with server defaults optional in requests and required in responses", async () => {
    const doc = await fetchDocument();
    const s = { ...doc.components.schemas, ...requestSchemas(doc) };
    const defaulted: Record<string, [string, string | null][]> = {
      // request component → response component, for each defaulted field
      SuiteInput: [
        ["schedule_type", "Suite"],
        ["is_enabled", "Suite"],
        ["alert_on_regression", "Suite"],
        ["variables", "Suite"],
      ],
      TestCaseInput: [
        ["difficulty", "TestCase"],
        ["tags", "TestCase"],
        ["status", "TestCase"],
      ],
      RunStartInput: [
        ["tags", null],
        ["tag_match", null],
        ["concurrency", null],
        ["variables", null],
      ],
    };
    for (const [input, fields] of Object.entries(defaulted)) {
      for (const [field, output] of fields) {
        expect(s[input].properties, `${input}.${field}`).toHaveProperty(field);
        expect(s[input].required ?? [], `${input}.${field}`).not.toContain(field);
        expect(s[input].properties[field], `${input}.${field}`).toHaveProperty("default");
        if (output) expect(s[output].required, `${output}.${field}`).toContain(field);
      }
    }
    expect(s.SuiteInput.required).toEqual(["agent_id", "name"]);
    expect(s.RunStartInput.required ?? []).toEqual([]);
    // Normalised fields are typed on the way out, not `{}`: "" / omitted become null.
    expect(s.Suite.properties.description).toEqual({ anyOf: [{ type: "string", maxLength: 5000 }, { type: "null" }] });
    expect(s.Suite.required).toEqual(expect.arrayContaining(["id", "created_at", "updated_at", "deleted_at", "description"]));
    // A PATCH changes only what it names: nothing required, no defaults that would suggest a reset.
    for (const patch of ["SuitePatch", "TestCasePatch", "AgentPatch", "ModelConfigPatch"]) {
      expect(s[patch].required, patch).toBeUndefined();
      for (const [field, schema] of Object.entries<Record<string, unknown>>(s[patch].properties))
        expect(schema, `${patch}.${field}`).not.toHaveProperty("default");
    }
  });

  it("documents the cost of a run and of a case result: agent, simulator, judge and total, each nullable", async () => {
    const doc = await fetchDocument();
    for (const schema of ["Run", "CaseResult"]) {
      const cost = JSON.stringify(doc.components.schemas[schema].properties.cost);
      for (const part of ["agent", "simulator", "judge", "total"]) expect(cost).toContain(`"${part}"`);
      expect(cost).toContain("null");
    }
  });

  it("documents every field a metric result carries (the execution model's MetricResult: evaluation_time_ms and model_used too)", async () => {
    const doc = await fetchDocument();
    const documented = Object.keys(doc.components.schemas.CaseResult.properties.metric_results.items.properties);
    expect(documented).toEqual(expect.arrayContaining(Object.keys(unknownMetricResult("relevance"))));
    expect(doc.components.schemas.CaseResult.properties.metric_results.items.properties.evaluation_time_ms).toMatchObject({
      type: "integer",
      minimum: 0,
    });
  });

  it("documents the comparison routes: both create bodies, the pairs query and the nested response components", async () => {
    const doc = await fetchDocument();
    const s = { ...doc.components.schemas, ...requestSchemas(doc) };
    expectStartOperation(doc, "/api/v1/suites/{id}/comparisons", "ComparisonInput");
    expect(s.ComparisonInput.anyOf.map((o: { required: string[] }) => o.required.toSorted())).toEqual([
      ["baseline", "variant"],
      ["baseline_run_id", "variant_run_id"],
    ]);
    expect(doc.paths["/api/v1/suites/{id}/comparisons/import"].post.requestBody).toEqual({
      $ref: "#/components/requestBodies/ComparisonSessionDocument",
    });
    const sort = doc.paths["/api/v1/comparisons/{id}/pairs"].get.parameters.find((p: { name: string }) => p.name === "sort");
    expect(sort.schema).toEqual(
      (z.toJSONSchema(pairListQuery, { io: "input" }) as { properties: Record<string, unknown> }).properties.sort,
    );
    expect(Object.keys(doc.paths["/api/v1/comparisons/{id}/report"].get.responses["200"].content)).toEqual([
      "application/json",
      "text/csv",
    ]);
    expect(s.ComparisonPair.properties.baseline.anyOf).toContainEqual({ $ref: "#/components/schemas/Execution" });
    expect(s.Comparison.properties.summary.anyOf).toContainEqual({ $ref: "#/components/schemas/ComparisonSummary" });
    expect(s.Execution.required).toEqual(expect.arrayContaining(["case_result_id", "latency_ms", "retry_count", "status"]));
    expect(s.ComparisonSummary.properties.tests.properties.pass_fail.properties.method).toEqual({ type: "string", const: "mcnemar_exact" });
  });

  it("documents the matrix routes: the create body with its axes, the per-combination statistics and the best combination", async () => {
    const doc = await fetchDocument();
    const s = { ...doc.components.schemas, ...requestSchemas(doc) };
    expectStartOperation(doc, "/api/v1/suites/{id}/matrix", "MatrixInput");
    expect(s.MatrixInput.required).toEqual(["variables"]);
    expect(s.MatrixInput.properties.repetitions).toMatchObject({ minimum: 1, maximum: 20 });
    expect(s.Matrix.properties.combinations.items).toEqual({ $ref: "#/components/schemas/MatrixCombination" });
    expect(s.MatrixCombination.required).toEqual(
      expect.arrayContaining(["run_id", "pass_rate", "latency_p50_ms", "latency_p95_ms", "mean_total_tokens", "estimated_cost"]),
    );
    expect(s.Matrix.required).toContain("best_combination");
    expect(s.ModelConfig.properties).toHaveProperty("input_price_per_mtok");
    expect(s.ModelConfigInput.properties).toHaveProperty("output_price_per_mtok");
  });

  it("documents alerts and webhooks: the issue's alert fields, a write-only webhook secret, the filters", async () => {
    const doc = await fetchDocument();
    const s = { ...doc.components.schemas, ...requestSchemas(doc) };
    expect(s.Alert.required).toEqual(expect.arrayContaining([...ALERT_FIELDS]));
    expect(s.Alert.properties.flipped_cases.items.required).toEqual(expect.arrayContaining(["test_case_id", "name", "from", "to"]));
    expect(s.WebhookInput.required).toEqual(expect.arrayContaining(["url", "secret", "events"]));
    expect(s.WebhookInput.properties.events.items.enum).toEqual(["alert.raised", "run.completed", "run.failed", "comparison.completed"]);
    expect(s.Webhook.properties).not.toHaveProperty("secret");
    expect(s.WebhookPatch.required).toBeUndefined();
    const names = (doc.paths["/api/v1/alerts"].get as Operation).parameters!.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(["suite_id", "acknowledged", "cursor", "limit"]));
    expect(doc.paths["/api/v1/webhooks/{id}/deliveries"].get.responses["200"].content["application/json"].schema.required).toEqual([
      "data",
      "next_cursor",
    ]);
  });

  it("takes query parameters from the schemas the routes parse with", async () => {
    const doc = await fetchDocument();
    type Parameter = { name: string; required: boolean; schema: unknown };
    const param = (path: string, method: string, name: string) =>
      (doc.paths[path][method] as { parameters: Parameter[] }).parameters.find((p) => p.name === name)!;
    const inputProperty = (schema: z.ZodType, name: string) =>
      (z.toJSONSchema(schema, { io: "input" }) as { properties: Record<string, unknown> }).properties[name];
    // valid_only accepts 1/0 too (it once was documented as true|false only).
    expect(param("/api/v1/suites/{id}/test-cases/import", "post", "valid_only").schema).toEqual(
      inputProperty(testCaseImportQuery, "valid_only"),
    );
    expect((param("/api/v1/suites/{id}/test-cases/import", "post", "valid_only").schema as { enum: string[] }).enum.toSorted()).toEqual([
      "0",
      "1",
      "false",
      "true",
    ]);
    expect(param("/api/v1/suites/{id}/test-cases/export", "get", "format").schema).toEqual(inputProperty(testCaseExportQuery, "format"));
    expect(param("/api/v1/suites", "get", "deleted").schema).toEqual(inputProperty(suiteListQuery, "deleted"));
    expect(param("/api/v1/suites", "get", "q").schema).toEqual(inputProperty(suiteListQuery, "q"));
    expect(param("/api/v1/model-configs/{id}", "delete", "force")).toMatchObject({
      required: false,
      schema: inputProperty(modelConfigDeleteQuery, "force"),
    });
    expect(param("/api/v1/suites", "get", "limit").required).toBe(false);
  });

  it("documents the retention routes: settings with sources, the PATCH body with nullable fields, dry_run", async () => {
    const doc = await fetchDocument();
    const s = { ...doc.components.schemas, ...requestSchemas(doc) };
    expect(doc.tags.map((t: { name: string }) => t.name)).toContain("Retention");
    expect(doc.paths["/api/v1/settings/retention"].patch.requestBody).toEqual({
      $ref: "#/components/requestBodies/RetentionSettingsPatch",
    });
    expect(Object.keys(s.RetentionSettingsPatch.properties)).toEqual(["cleanup_time", "days", "runs", "traffic_days"]);
    expect(s.RetentionSettingsPatch.required ?? []).toEqual([]);
    expect(JSON.stringify(s.RetentionSettingsPatch.properties.days)).toContain('"null"');
    expect(s.RetentionSettings.properties.days.properties.source.enum).toEqual(["database", "env", "default"]);
    expect(s.CleanupResult.required).toEqual(expect.arrayContaining(["runs_deleted", "results_deleted", "bytes_freed_estimate"]));
    const dryRun = doc.paths["/api/v1/admin/cleanup"].post.parameters.find((p: { name: string }) => p.name === "dry_run");
    expect(dryRun.schema).toEqual(
      (z.toJSONSchema(cleanupQuery, { io: "input" }) as { properties: Record<string, unknown> }).properties.dry_run,
    );
  });

  it("documents every field the API returns (the response schema is the DTO type, not a second description of it)", async () => {
    const doc = await fetchDocument();
    const { workspace } = await makeWorkspace("owner");
    const token = await makeApiKey(workspace.id, "admin");
    type Handler = (req: NextRequest, route: { params: Promise<Record<string, string>> }) => Promise<Response>;
    const post = async (handler: Handler, url: string, body: unknown, params: Record<string, string> = {}) => {
      const res = await handler(
        new NextRequest(`http://localhost${url}`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
        { params: Promise.resolve(params) },
      );
      expect(res.status, url).toBeLessThan(300);
      return (await res.json()) as Record<string, unknown>;
    };
    const undocumented = (component: string, dto: Record<string, unknown>) =>
      Object.keys(dto).filter((key) => !(key in doc.components.schemas[component].properties));

    const config = await post(modelConfigRoutes.POST, "/api/v1/model-configs", {
      name: "Judge",
      base_url: "https://api.openai.com/v1",
      model: "gpt-4o-mini",
    });
    const agent = await post(agentRoutes.POST, "/api/v1/agents", { name: "Bot", kind: "chat", model_config_id: config.id });
    const suite = await post(suiteRoutes.POST, "/api/v1/suites", { agent_id: agent.id, name: "Refunds" });
    const id = String(suite.id);
    const testCase = await post(testCaseRoutes.POST, `/api/v1/suites/${id}/test-cases`, { name: "Refund", initial_message: "Hi" }, { id });
    const run = await post(suiteRunRoutes.POST, `/api/v1/suites/${id}/runs`, {}, { id });

    expect(undocumented("ModelConfig", config)).toEqual([]);
    expect(undocumented("Agent", agent)).toEqual([]);
    expect(undocumented("Suite", suite)).toEqual([]);
    expect(undocumented("TestCase", testCase)).toEqual([]);
    expect(undocumented("Run", run)).toEqual([]);
  });
});
