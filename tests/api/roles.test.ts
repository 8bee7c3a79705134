/**
 * The documented role of every API operation, held by the real route handlers. The OpenAPI
 * document states each operation's role ("Role: editor. …"); for every operation it lists, this
 * test calls the handler with a viewer, editor, admin and owner API key of one workspace, and
 * with an owner key of another workspace, on real resources made here, and expects:
 * - a role below the documented one: exactly 403;
 * - the documented role and above: never 401/403; 2xx, or a 4xx about the request or the state
 *   (400/404/409/422: e.g. a second delete of the same row); the lowest allowed role goes first
 *   and must get a 2xx, so the operation is proved to work, not just to refuse;
 * - the other workspace's owner on this workspace's resource ids: exactly 404 (its existence is
 *   not revealed), and 403 on the instance-wide settings, which only the first workspace's admins
 *   may use.
 * An operation the test cannot map (no role in its description, no route module, no handler, no
 * resource for a path parameter) fails the test, so a new route is covered or noticed.
 */
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { GET as getOpenApi } from "@/app/api/v1/openapi.json/route";
import { db } from "@/lib/db";
import { makeApiKey, makeWorkspace } from "../helpers/factories";
import { makeCsv } from "../files/fixtures";
import { chatSpan, hexId, otlpRequest } from "../traffic/spans";
import { assemblePending } from "@/lib/traffic/assembler";

type Handler = (req: NextRequest, route: { params: Promise<Record<string, string>> }) => Promise<Response>;
type RouteModule = Partial<Record<"GET" | "POST" | "PATCH" | "PUT" | "DELETE", Handler>>;
// The document and the answers are arbitrary JSON here.
/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

const routeModules = import.meta.glob<RouteModule>("../../app/api/**/route.ts");
const ROLES = ["viewer", "editor", "admin", "owner"] as const;
type Role = (typeof ROLES)[number];
/** The answers an allowed role may get besides 2xx: about the request or the resource's state, never about access. */
const STATE_ANSWERS = [400, 404, 409, 422];

type Op = { path: string; method: string; operationId: string; role: Role; firstWorkspaceOnly: boolean };
type Body = { body: BodyInit; contentType: string } | undefined;

const uniq = () => randomBytes(4).toString("hex");
const json = (value: unknown): Body => ({ body: JSON.stringify(value), contentType: "application/json" });

/** "Role: editor. …" → editor; "Role: admin of the instance's first workspace" marks the instance-wide settings. */
function documentedRole(description: string | undefined): { role: Role; firstWorkspaceOnly: boolean } | null {
  const m = /^Role: (viewer|editor|admin|owner)\b( of the instance's first workspace)?/.exec(description ?? "");
  return m ? { role: m[1] as Role, firstWorkspaceOnly: Boolean(m[2]) } : null;
}

/**
 * The order operations run in: reads and writes first, then cancels, then deletes from the leaves
 * up (with each restore after its delete), so a delete never removes what a later operation needs.
 */
function phase(op: Op): number {
  if (op.path.endsWith("/cancel")) return 1;
  if (op.method === "DELETE" && /^\/api\/v1\/(test-cases|presets|files|webhooks)\//.test(op.path)) return 2;
  if (op.operationId === "restoreTestCase") return 3;
  if (op.operationId === "deleteSuite") return 4;
  if (op.operationId === "restoreSuite") return 5;
  if (op.operationId === "deleteAgent") return 6;
  if (op.operationId === "deleteModelConfig") return 7;
  return 0;
}

async function send(handler: Handler, o: { url: string; method: string; token: string; body?: Body; params: Record<string, string> }) {
  const headers = new Headers({ authorization: `Bearer ${o.token}` });
  if (o.body?.contentType) headers.set("content-type", o.body.contentType);
  const req = new NextRequest(new URL(o.url, "http://localhost"), { method: o.method, headers, body: o.body?.body });
  const res = await handler(req, { params: Promise.resolve(o.params) });
  const text = await res.text();
  let parsed: Json = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON (a report, a file) */
  }
  return { status: res.status, json: parsed, text };
}

describe("every documented operation × every role × another workspace", () => {
  let doc: Json;
  const keys = {} as Record<Role, string>;
  let outsider: string;
  const ids: Record<string, string> = {};

  async function handlerFor(path: string, method: string): Promise<Handler> {
    const file = `../../app${path.replace(/\{(\w+)\}/g, "[$1]")}/route.ts`;
    const load = routeModules[file];
    if (!load) throw new Error(`${method} ${path}: no route module ${file}`);
    const handler = (await load())[method as keyof RouteModule];
    if (!handler) throw new Error(`${method} ${path}: documented but ${file} exports no ${method}`);
    return handler;
  }

  /** Creates a resource through the API as the owner; fails loudly when it cannot. */
  async function create(path: string, body: Body, params: Record<string, string> = {}): Promise<Json> {
    const url = path.replace(/\{(\w+)\}/g, (_, k: string) => params[k]!);
    const res = await send(await handlerFor(path, "POST"), { url, method: "POST", token: keys.owner, body, params });
    expect(res.status, `${path}: ${res.text}`).toBeLessThan(300);
    return res.json;
  }

  const uploadCsv = (): Body => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(makeCsv())], { type: "text/csv" }), `data-${uniq()}.csv`);
    // fetch sets the multipart boundary itself when the body is FormData.
    return { body: form, contentType: "" };
  };

  /** A valid body per operation (fresh names each call, so a second create is not a conflict). */
  function bodyFor(operationId: string): Body {
    switch (operationId) {
      case "createModelConfig":
        return json({ name: `mc-${uniq()}`, base_url: "http://127.0.0.1:9/v1", model: "m", api_key: "k", temperature: 0 });
      case "updateModelConfig":
        return json({ max_tokens: 10 });
      case "createAgent":
        return json({
          name: `agent-${uniq()}`,
          kind: "chat",
          description: "d",
          system_prompt: "s",
          model_config_id: ids.modelConfig,
          variables_schema: [
            { name: "Temperature", display_name: "Temperature", data_type: "number", value_source: "freeform", possible_values: [] },
          ],
        });
      case "updateAgent":
      case "updateSuite":
      case "updateTestCase":
      case "updateWebhook":
        return json({ description: `v-${uniq()}` });
      case "createSuite":
        return json({ agent_id: ids.agent, name: `suite-${uniq()}` });
      case "createTestCase":
        return json({ name: `case-${uniq()}`, initial_message: "hello", status: "active" });
      case "importTestCases":
        return json([{ name: `case-${uniq()}`, initial_message: "hello" }]);
      case "startRun":
        return json({});
      case "rerunRun":
        return json({ only: "all" });
      case "createComparison":
        return json({ baseline: {}, variant: { temperature: 1 } });
      case "importComparison":
        return json({
          session_id: `s-${uniq()}`,
          start_time: "2026-01-01T00:00:00Z",
          results: [
            {
              question: "hi",
              baseline: { response: "a", prompt_tokens: 1, completion_tokens: 1, latency_ms: 10 },
              variant: { response: "bb", prompt_tokens: 1, completion_tokens: 2, latency_ms: 12 },
            },
          ],
        });
      case "createMatrix":
        return json({ variables: { Temperature: [0, 0.5] } });
      case "createPreset":
      case "updatePreset":
        return json({ name: `preset-${uniq()}`, values: {} });
      case "uploadFile":
        return uploadCsv();
      case "previewFile":
        return json({ file: { path: `file:${ids.file}`, type: "csv" } });
      case "createWebhook":
        return json({ url: "https://hooks.example.test/assay", secret: "whsec-0123456789abcdef", events: ["run.failed"] });
      case "updateRetentionSettings":
        return json({ days: 30 });
      case "createReviewItems":
        return json({ case_result_ids: [ids.caseResult] });
      case "updateReviewItem":
        return json({ assignee_id: null });
      case "labelReviewItem":
        return json({ verdict: "pass" });
      case "resolveReviewItem":
        return json({ verdict: "fail", comment: "checked by hand" });
      case "createRunShareLink":
      case "createComparisonShareLink":
        return json({ expires_in_days: 3 });
      case "ingestTraces":
        return json(
          otlpRequest("roles-bot", [
            chatSpan({
              traceId: hexId(16),
              conversationId: `roles-${uniq()}`,
              startMs: Date.now() - 100,
              endMs: Date.now(),
              input: [{ role: "user", text: "hello" }],
              output: { role: "assistant", text: "hi" },
            }),
          ]),
        );
      case "draftCaseFromConversation":
        return json({ suite_id: ids.suite });
      case "createCasesFromConversations":
        return json({ conversation_ids: [ids.conversation] });
      default:
        return undefined;
    }
  }

  /** The query an operation needs to do something real. */
  const queryFor = (operationId: string) =>
    ({ getRunReport: "?format=json", getComparisonReport: "?format=json", runRetentionCleanup: "?dry_run=true" })[operationId] ?? "";

  /**
   * Operations that need a resource in a particular state: cancel a run that has not ended, delete
   * an agent without suites and a model configuration nothing uses (otherwise the answer is 409).
   */
  const SPARE: Record<string, string> = {
    cancelRun: "pendingRun",
    deleteAgent: "spareAgent",
    deleteModelConfig: "spareModelConfig",
    // Only an item in conflict can be resolved.
    resolveReviewItem: "conflictItem",
  };

  /** The real id for each path parameter: the resource the path names, or its SPARE. */
  function paramsFor(op: Op): Record<string, string> {
    const params: Record<string, string> = {};
    for (const [, name = ""] of op.path.matchAll(/\{(\w+)\}/g)) {
      const resource =
        name === "deliveryId"
          ? "delivery"
          : (SPARE[op.operationId] ??
            {
              "model-configs": "modelConfig",
              agents: "agent",
              suites: "suite",
              "test-cases": "testCase",
              runs: "run",
              "case-results": "caseResult",
              comparisons: "comparison",
              matrices: "matrix",
              presets: "preset",
              files: "file",
              alerts: "alert",
              webhooks: "webhook",
              "review-items": "reviewItem",
              "share-links": "shareLink",
              conversations: "conversation",
            }[op.path.split("/")[3]!]);
      const id = resource ? ids[resource] : undefined;
      if (!id) throw new Error(`${op.method} ${op.path}: no fixture for {${name}}`);
      params[name] = id;
    }
    return params;
  }

  beforeAll(async () => {
    doc = await (await getOpenApi()).json();
    // This workspace is the instance's first: its admins may change the instance-wide settings.
    const { workspace } = await makeWorkspace("owner");
    for (const role of ROLES) keys[role] = await makeApiKey(workspace.id, role);
    const other = await makeWorkspace("owner");
    outsider = await makeApiKey(other.workspace.id, "owner");

    ids.modelConfig = (await create("/api/v1/model-configs", bodyFor("createModelConfig"))).id;
    ids.agent = (await create("/api/v1/agents", bodyFor("createAgent"))).id;
    ids.spareModelConfig = (await create("/api/v1/model-configs", bodyFor("createModelConfig"))).id;
    ids.spareAgent = (await create("/api/v1/agents", bodyFor("createAgent"))).id;
    ids.suite = (await create("/api/v1/suites", bodyFor("createSuite"))).id;
    ids.testCase = (await create("/api/v1/suites/{id}/test-cases", bodyFor("createTestCase"), { id: ids.suite! })).id;
    // No executor runs here: runs stay pending unless marked completed below.
    ids.pendingRun = (await create("/api/v1/suites/{id}/runs", json({}), { id: ids.suite! })).id;
    ids.run = (await create("/api/v1/suites/{id}/runs", json({}), { id: ids.suite! })).id;
    await db.run.update({ where: { id: ids.run! }, data: { status: "completed", startedAt: new Date(), completedAt: new Date() } });
    ids.caseResult = (await db.caseResult.findFirstOrThrow({ where: { runId: ids.run! } })).id;
    // A finished result (only those go to review), and a second one whose item is in conflict.
    await db.caseResult.update({ where: { id: ids.caseResult }, data: { status: "failed", completedAt: new Date() } });
    ids.reviewItem = (await create("/api/v1/review-items", json({ case_result_ids: [ids.caseResult] }))).data[0].id;
    const conflicted = await db.caseResult.create({
      data: { workspaceId: workspace.id, runId: ids.run!, position: 1, caseSnapshot: {}, name: "conflicted", status: "failed" },
    });
    ids.conflictItem = (await create("/api/v1/review-items", json({ case_result_ids: [conflicted.id] }))).data[0].id;
    await db.reviewItem.update({ where: { id: ids.conflictItem! }, data: { status: "conflict", closedAt: new Date() } });
    ids.comparison = (await create("/api/v1/suites/{id}/comparisons", bodyFor("createComparison"), { id: ids.suite! })).id;
    ids.matrix = (await create("/api/v1/suites/{id}/matrix", bodyFor("createMatrix"), { id: ids.suite! })).id;
    ids.preset = (await create("/api/v1/suites/{id}/presets", bodyFor("createPreset"), { id: ids.suite! })).id;
    ids.file = (await create("/api/v1/files", uploadCsv())).id;
    ids.webhook = (await create("/api/v1/webhooks", bodyFor("createWebhook"))).id;
    ids.delivery = (await create("/api/v1/webhooks/{id}/test", undefined, { id: ids.webhook! })).id;
    // Sharing is off by default; this workspace allows it, so the share-link operations can succeed.
    await db.workspace.update({ where: { id: workspace.id }, data: { sharingEnabled: true } });
    ids.shareLink = (await create("/api/v1/runs/{id}/share-links", json({}), { id: ids.run! })).id;
    await create("/api/v1/otlp/v1/traces", bodyFor("ingestTraces"));
    await assemblePending(workspace.id);
    ids.conversation = (await db.trafficConversation.findFirstOrThrow({ where: { workspaceId: workspace.id } })).id;
    ids.alert = (
      await db.regressionAlert.create({
        data: { workspaceId: workspace.id, suiteId: ids.suite!, runId: ids.run!, passRate: 0, previousRate: 100, dropPercent: 100 },
      })
    ).id;
  });

  it("answers each role as documented, and 404 to another workspace", { timeout: 120_000 }, async () => {
    const ops: Op[] = [];
    const unmapped: string[] = [];
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      for (const method of ["get", "post", "put", "patch", "delete"]) {
        const operation = item[method];
        if (!operation) continue;
        // Health and the document itself are public by design (no bearer security).
        if (Array.isArray(operation.security) && operation.security.length === 0) continue;
        const documented = documentedRole(operation.description);
        if (!documented) unmapped.push(`${method.toUpperCase()} ${path}: no "Role: …" in its description`);
        else ops.push({ path, method: method.toUpperCase(), operationId: operation.operationId, ...documented });
      }
    }
    expect(unmapped).toEqual([]);
    // Every /api/v1 route module but the public document is an operation here.
    expect(ops.length).toBeGreaterThanOrEqual(70);

    const mismatches: string[] = [];
    const order = ops.toSorted((a, b) => phase(a) - phase(b));
    for (const op of order) {
      const handler = await handlerFor(op.path, op.method);
      const params = paramsFor(op);
      const url = op.path.replace(/\{(\w+)\}/g, (_, k: string) => params[k]!) + queryFor(op.operationId);
      const where = (who: string, status: number, text: string) => `${op.method} ${op.path} as ${who} → ${status}: ${text.slice(0, 160)}`;

      // The other workspace first, while every resource still exists.
      if (Object.keys(params).length > 0 || op.firstWorkspaceOnly) {
        const res = await send(handler, { url, method: op.method, token: outsider, body: bodyFor(op.operationId), params });
        const expected = op.firstWorkspaceOnly ? 403 : 404;
        if (res.status !== expected) mismatches.push(`${where("another workspace's owner", res.status, res.text)} (expected ${expected})`);
      }

      let proved = false;
      for (const role of ROLES) {
        const res = await send(handler, { url, method: op.method, token: keys[role], body: bodyFor(op.operationId), params });
        const allowed = ROLES.indexOf(role) >= ROLES.indexOf(op.role);
        if (!allowed) {
          if (res.status !== 403) mismatches.push(`${where(role, res.status, res.text)} (documented role ${op.role}: expected 403)`);
        } else if (!proved) {
          // The lowest allowed role must get the operation done.
          if (res.status < 200 || res.status >= 300)
            mismatches.push(`${where(role, res.status, res.text)} (documented role ${op.role}: expected 2xx)`);
          proved = true;
        } else if (!(res.status >= 200 && res.status < 300) && !STATE_ANSWERS.includes(res.status)) {
          mismatches.push(`${where(role, res.status, res.text)} (documented role ${op.role}: expected 2xx or ${STATE_ANSWERS.join("/")})`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  it("lets a viewer preview a stored file but not a URL (the server would download it)", async () => {
    const handler = await handlerFor("/api/v1/files/preview", "POST");
    const preview = (token: string, file: unknown) =>
      send(handler, { url: "/api/v1/files/preview", method: "POST", token, body: json({ file }), params: {} });
    const url = { url: "https://files.example.test/a.csv", type: "csv" };
    expect((await preview(keys.viewer, { path: `file:${ids.file}`, type: "csv" })).status).toBe(200);
    const refused = await preview(keys.viewer, url);
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe("forbidden");
  });
});
