import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import openapiTS, { astToString } from "openapi-typescript";
import createClient from "openapi-fetch";
import ts from "typescript";
import { NextRequest } from "next/server";
import { GET as getDocument } from "@/app/api/v1/openapi.json/route";
import * as modelConfigs from "@/app/api/v1/model-configs/route";
import * as agents from "@/app/api/v1/agents/route";
import * as suites from "@/app/api/v1/suites/route";
import * as testCases from "@/app/api/v1/suites/[id]/test-cases/route";
import * as suiteRuns from "@/app/api/v1/suites/[id]/runs/route";
import { makeApiKey, makeWorkspace } from "../helpers/factories";

/**
 * The document is only useful if a generated client can call the API with what the API really
 * needs. This test generates types from the live document with openapi-typescript, type-checks
 * a script that uses them through openapi-fetch (create a model configuration, an agent, a suite,
 * a case, start a run — each with only the required fields), and then runs that script against
 * the real route handlers.
 */

const root = path.resolve(import.meta.dirname, "../..");

// The script a client author would write: required fields only, response fields read without `?`.
const CLIENT_SCRIPT = `
import type { Client } from "openapi-fetch";
import type { paths, components } from "./schema";

type Suite = components["schemas"]["Suite"];

export async function main(client: Client<paths>) {
  const config = await client.POST("/api/v1/model-configs", {
    body: { name: "Judge", base_url: "https://api.openai.com/v1", model: "gpt-4o-mini" },
  });
  if (!config.data) throw new Error("model config: " + JSON.stringify(config.error));

  const agent = await client.POST("/api/v1/agents", {
    body: { name: "Support bot", kind: "chat", model_config_id: config.data.id },
  });
  if (!agent.data) throw new Error("agent: " + JSON.stringify(agent.error));

  const suite = await client.POST("/api/v1/suites", { body: { agent_id: agent.data.id, name: "Refunds" } });
  if (!suite.data) throw new Error("suite: " + JSON.stringify(suite.error));
  // Response fields with server defaults are always present (output view): no undefined here.
  const schedule: "manual" | "hourly" | "daily" | "weekly" = suite.data.schedule_type;
  const enabled: boolean = suite.data.is_enabled;
  const sameSuite: Suite = suite.data;

  const testCase = await client.POST("/api/v1/suites/{id}/test-cases", {
    params: { path: { id: suite.data.id } },
    body: { name: "Refund after 30 days", initial_message: "I want a refund" },
  });
  if (!testCase.data) throw new Error("test case: " + JSON.stringify(testCase.error));
  const tags: string[] = testCase.data.tags;

  const run = await client.POST("/api/v1/suites/{id}/runs", { params: { path: { id: suite.data.id } }, body: {} });
  if (!run.data) throw new Error("run: " + JSON.stringify(run.error));
  const runStatus: "pending" | "running" | "completed" | "failed" | "cancelled" = run.data.status;
  const totalCases: number = run.data.total_cases;

  const page = await client.GET("/api/v1/suites", { params: { query: { agent_id: agent.data.id } } });
  return { schedule, enabled, sameSuite, tags, runStatus, totalCases, cases: testCase.data, suites: page.data?.data ?? [] };
}

// Type-checked only: either comparison body, the summary's numbers and the pairs query.
export async function compare(client: Client<paths>, suiteId: string, runIds: [string, string]) {
  const executed = await client.POST("/api/v1/suites/{id}/comparisons", {
    params: { path: { id: suiteId } },
    body: { baseline: {}, variant: { system_prompt: "Be brief." } },
  });
  const paired = await client.POST("/api/v1/suites/{id}/comparisons", {
    params: { path: { id: suiteId } },
    body: { baseline_run_id: runIds[0], variant_run_id: runIds[1] },
  });
  if (!executed.data || !paired.data) throw new Error("comparison");
  const comparison = await client.GET("/api/v1/comparisons/{id}", { params: { path: { id: executed.data.id } } });
  const median: number | null | undefined = comparison.data?.summary?.diffs.latency_diff_ms.median;
  const pValue: number | null | undefined = comparison.data?.summary?.tests.pass_fail.p_value;
  const pairs = await client.GET("/api/v1/comparisons/{id}/pairs", {
    params: { path: { id: executed.data.id }, query: { sort: "-latency_diff_ms", verdict_change: "pass_to_fail" } },
  });
  const latency: number | undefined = pairs.data?.data[0]?.variant?.latency_ms;
  return { median, pValue, latency, status: paired.data.status };
}
`;

// The same call without a required field: the type-check must reject it, or the test above proves nothing.
const BAD_SCRIPT = `
import type { Client } from "openapi-fetch";
import type { paths } from "./schema";

export async function missingName(client: Client<paths>, agentId: string) {
  return client.POST("/api/v1/suites", { body: { agent_id: agentId } });
}
`;

let dir: string;
let diagnostics: readonly ts.Diagnostic[];

async function generateTypes(): Promise<string> {
  const res = await getDocument();
  const doc = JSON.parse(await res.text());
  // Default settings, as a new user would run it: openapi-typescript makes a property with a
  // `default` required in schema components but not inside request bodies, which is why the
  // document publishes its request schemas under components.requestBodies.
  const ast = await openapiTS(doc);
  return astToString(ast);
}

function typeCheck(files: string[]): readonly ts.Diagnostic[] {
  const program = ts.createProgram(files, {
    strict: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
    types: [],
    skipLibCheck: true,
    // The scripts live in a temp dir; resolve the client library from this project.
    paths: { "openapi-fetch": [path.join(root, "node_modules/openapi-fetch")] },
  });
  return ts.getPreEmitDiagnostics(program);
}

const format = (list: readonly ts.Diagnostic[]) =>
  list.map((d) => `${d.file ? path.basename(d.file.fileName) : ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`).join("\n");

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "assay-openapi-client-"));
  writeFileSync(path.join(dir, "schema.ts"), await generateTypes());
  writeFileSync(path.join(dir, "client.ts"), CLIENT_SCRIPT);
  writeFileSync(path.join(dir, "bad.ts"), BAD_SCRIPT);
  diagnostics = typeCheck([path.join(dir, "schema.ts"), path.join(dir, "client.ts"), path.join(dir, "bad.ts")]);
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const inFile = (name: string) => diagnostics.filter((d) => d.file && path.basename(d.file.fileName) === name);

describe("a client generated from /api/v1/openapi.json", () => {
  it("type-checks a script that sends only the required fields", () => {
    const mine = diagnostics.filter((d) => !d.file || path.basename(d.file.fileName) !== "bad.ts");
    expect(format(mine)).toBe("");
  });

  it("rejects a request body without a required field", () => {
    const bad = inFile("bad.ts");
    expect(bad.length).toBeGreaterThan(0);
    expect(format(bad)).toMatch(/'name'/);
  });

  it("runs that script against the real route handlers", async () => {
    const { workspace } = await makeWorkspace("owner");
    const token = await makeApiKey(workspace.id, "admin");
    type Handler = (req: NextRequest, route: { params: Promise<Record<string, string>> }) => Promise<Response>;
    const routes: [RegExp, Record<string, Handler | undefined>][] = [
      [/^\/api\/v1\/model-configs$/, modelConfigs],
      [/^\/api\/v1\/agents$/, agents],
      [/^\/api\/v1\/suites$/, suites],
      [/^\/api\/v1\/suites\/(?<id>[^/]+)\/test-cases$/, testCases],
      [/^\/api\/v1\/suites\/(?<id>[^/]+)\/runs$/, suiteRuns],
    ];
    // openapi-fetch's `fetch` option: dispatch the Request to the route module, as Next would.
    const dispatch = async (input: Request): Promise<Response> => {
      const url = new URL(input.url);
      for (const [pattern, module] of routes) {
        const match = pattern.exec(url.pathname);
        const handler = match && module[input.method];
        if (handler) {
          const req = new NextRequest(url, {
            method: input.method,
            headers: input.headers,
            body: input.body ? await input.text() : undefined,
          });
          return handler(req, { params: Promise.resolve({ ...match.groups }) });
        }
      }
      return new Response("no route", { status: 404 });
    };
    const client = createClient({ baseUrl: "http://localhost", fetch: dispatch, headers: { authorization: `Bearer ${token}` } });

    const { main } = (await import(/* @vite-ignore */ path.join(dir, "client.ts"))) as {
      main: (
        c: typeof client,
      ) => Promise<{ schedule: string; enabled: boolean; tags: string[]; runStatus: string; totalCases: number; suites: unknown[] }>;
    };
    const result = await main(client);
    expect(result.schedule).toBe("manual");
    expect(result.enabled).toBe(true);
    expect(result.tags).toEqual([]);
    expect(result).toMatchObject({ runStatus: "pending", totalCases: 1 });
    expect(result.suites).toHaveLength(1);
  });
});
