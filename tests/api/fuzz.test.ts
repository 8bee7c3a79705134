/**
 * API fuzz test, driven by the app's own OpenAPI document: for every operation it lists, the real
 * route handler is called with missing/forged keys, malformed ids, bad query values (wrong types,
 * forged cursors, huge limits, NUL), malformed, oversized (2 MB, also chunked), NUL-carrying,
 * lone-surrogate-carrying and deeply nested (10,000 levels) bodies, and wrong types for every
 * field. It asserts: no 5xx, every 4xx in the error envelope, and no partial writes (the row
 * counts of every table are unchanged by a request that failed). Deterministic: the junk comes
 * from a seeded generator, and the requests run one after another.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { GET as getOpenApi } from "@/app/api/v1/openapi.json/route";
import { mulberry32 } from "@/lib/comparisons/statistics";
import { db } from "@/lib/db";
import { makeApiKey, makeWorkspace, waitFor } from "../helpers/factories";

type Handler = (req: NextRequest, route: { params: Promise<Record<string, string>> }) => Promise<Response>;
type RouteModule = Partial<Record<"GET" | "POST" | "PATCH" | "PUT" | "DELETE", Handler>>;
// The document and bodies are arbitrary JSON here.
/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

const routeModules = import.meta.glob<RouteModule>("../../app/api/**/route.ts");

/** "/api/v1/suites/{id}/runs" → the module of app/api/v1/suites/[id]/runs/route.ts. */
async function routeFor(path: string): Promise<RouteModule> {
  const file = `../../app${path.replace(/\{(\w+)\}/g, "[$1]")}/route.ts`;
  const load = routeModules[file];
  if (!load) throw new Error(`No route module for ${path} (${file})`);
  return load();
}

// Seeded, so every run sends the same requests.
const random = mulberry32(20260430);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const junk = (n: number) =>
  Array.from({ length: n }, () => String.fromCharCode(pick([0x20 + Math.floor(random() * 95), 0x00, 0xd800, 0xe9, 0x1f600 & 0xffff]))).join(
    "",
  );

const b64 = (v: unknown) => Buffer.from(typeof v === "string" ? v : JSON.stringify(v), "utf8").toString("base64url");
const UUID0 = "00000000-0000-4000-8000-000000000000";

const FORGED_CURSORS = [
  "!!!not-base64!!!",
  "%00",
  b64("not json"),
  b64({}),
  b64([]),
  b64(null),
  b64({ c: "not a date", id: "x" }),
  b64({ c: "2024-01-01T00:00:00.000Z", id: "not-a-uuid" }),
  b64({ c: 12, id: UUID0 }),
  b64({ name: "a\u0000b", id: UUID0 }),
  b64({ n: "a\u0000b", i: UUID0 }),
  b64({ name: "\ud800", id: UUID0 }),
  b64({ s: 1e300, id: UUID0 }),
  b64({ s: 1.5, id: UUID0 }),
  b64({ p: 99999999999, v: "baseline" }),
  b64({ p: 1, v: "nope" }),
  "x".repeat(5000),
];
const BAD_QUERY_VALUES = [
  "abc",
  "-1",
  "0",
  "1.5",
  "1e309",
  "99999999999999999999",
  "NaN",
  "",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "[]",
  "{}",
  "x".repeat(10_000),
];
const BAD_IDS = ["not-a-uuid", UUID0, "%00", "1 OR 1=1", "x".repeat(1000), "\u0000"];
const MALFORMED_JSON = ["{", "[1,", "nul", '{"a":}', "{'a': 1}", '"\\ud800', "\u0000", '{"a": 1}}'];
const WRONG_VALUES: unknown[] = [123, -1, 1.5, 1e308, true, null, "", "x", [], [1, "a"], {}, { a: 1 }];
const DEPTH = 10_000;
const deepJson = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
const deepObjectJson = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);

const TABLES = ["ModelConfig", "Agent", "Suite", "TestCase", "Run", "CaseResult", "LlmCall", "ApiKey", "Workspace", "Membership", "User"];

async function rowCounts(): Promise<Record<string, number>> {
  const sql = `SELECT ${TABLES.map((t) => `(SELECT count(*)::int FROM "${t}") AS "${t}"`).join(", ")}`;
  const rows = await db.$queryRawUnsafe<Record<string, number>[]>(sql);
  return rows[0]!;
}

type Op = { path: string; method: string; operation: Json; pathItem: Json };
type Sent = { op: Op; label: string; status: number };

describe("API fuzz (OpenAPI-driven)", () => {
  let doc: Json;
  let token: string;
  const ids: Record<string, string> = {};
  const sent: Sent[] = [];
  const failures: string[] = [];
  let started = 0;

  beforeAll(async () => {
    doc = await (await getOpenApi()).json();
    const { workspace } = await makeWorkspace("owner");
    token = await makeApiKey(workspace.id, "admin");
    // Real resources for valid ids, created through the API itself.
    const post = async (path: string, body: unknown, params: Record<string, string> = {}) => {
      const res = await send((await routeFor(path)).POST!, { url: path, method: "POST", token, body: JSON.stringify(body), params });
      expect(res.status, `${path}: ${res.text}`).toBeLessThan(300);
      return JSON.parse(res.text);
    };
    ids.modelConfig = (await post("/api/v1/model-configs", validBody("createModelConfig"))).id;
    ids.agent = (await post("/api/v1/agents", { ...validBody("createAgent"), model_config_id: ids.modelConfig })).id;
    ids.suite = (await post("/api/v1/suites", { ...validBody("createSuite"), agent_id: ids.agent })).id;
    ids.testCase = (await post("/api/v1/suites/{id}/test-cases", validBody("createTestCase"), { id: ids.suite! })).id;
    ids.run = (await post("/api/v1/suites/{id}/runs", {}, { id: ids.suite! })).id;
    const results = await db.caseResult.findMany({ where: { runId: ids.run }, select: { id: true } });
    ids.caseResult = results[0]!.id;
    started = Date.now();
  });

  afterAll(() => {
    // The request count, for the record.
    console.info(`[fuzz] ${sent.length} requests over ${operations().length} operations in ${Date.now() - started} ms`);
  });

  /** Valid bodies per operation; everything else is derived from them and the document. */
  function validBody(operationId: string): Json {
    const suffix = Math.floor(random() * 1e9).toString(36);
    switch (operationId) {
      case "createModelConfig":
        return { name: `fuzz-${suffix}`, base_url: "http://127.0.0.1:9/v1", model: "m", api_key: "k", temperature: 0 };
      case "updateModelConfig":
        return { name: `fuzz-${suffix}`, model: "m2", max_tokens: 10 };
      case "createAgent":
        return {
          name: `fuzz-${suffix}`,
          kind: "chat",
          description: "d",
          system_prompt: "s",
          model_config_id: ids.modelConfig ?? UUID0,
          tools: [{ name: "t", description: "d", parameters: { type: "object", properties: {} }, mock_response: { ok: "yes" } }],
        };
      case "updateAgent":
        return { description: "v2", system_prompt: "p" };
      case "createSuite":
        return { agent_id: ids.agent ?? UUID0, name: `fuzz-${suffix}`, description: "d", schedule_type: "daily", schedule_time: "06:30" };
      case "updateSuite":
        return { description: "v2", is_enabled: false };
      case "createTestCase":
      case "updateTestCase":
        return {
          name: `fuzz-${suffix}`,
          description: "d",
          tags: ["edge-case"],
          initial_message: "hello",
          persona: { type: "p", description: "d", instructions: "i" },
          user_context: { plan: "pro" },
          expected_outcomes: { explains: true },
          expected_tool_calls: [{ tool: "t", expected_params: { a: "b" } }],
          checks: [{ type: "contains_phrases", phrases: ["x"], case_sensitive: false }],
          ground_truth: "g",
        };
      case "importTestCases":
        return [validBody("createTestCase"), validBody("createTestCase")];
      case "startRun":
        return { tags: ["edge-case"], concurrency: 1, variables: {} };
      default:
        return {};
    }
  }

  function operations(): Op[] {
    const out: Op[] = [];
    for (const [path, pathItem] of Object.entries<Json>(doc.paths)) {
      for (const method of ["get", "post", "put", "patch", "delete"]) {
        if (pathItem[method]) out.push({ path, method: method.toUpperCase(), operation: pathItem[method], pathItem });
      }
    }
    return out;
  }

  const idFor = (path: string) =>
    path.startsWith("/api/v1/model-configs")
      ? ids.modelConfig
      : path.startsWith("/api/v1/agents")
        ? ids.agent
        : path.startsWith("/api/v1/suites")
          ? ids.suite
          : path.startsWith("/api/v1/test-cases")
            ? ids.testCase
            : path.startsWith("/api/v1/runs")
              ? ids.run
              : ids.caseResult;

  async function send(
    handler: Handler,
    o: {
      url: string;
      method: string;
      token?: string | null;
      authorization?: string;
      body?: BodyInit;
      contentType?: string;
      params?: Record<string, string>;
    },
  ) {
    const headers = new Headers();
    if (o.authorization !== undefined) headers.set("authorization", o.authorization);
    else if (o.token) headers.set("authorization", `Bearer ${o.token}`);
    if (o.body !== undefined) headers.set("content-type", o.contentType ?? "application/json");
    const init: RequestInit & { duplex?: "half" } = { method: o.method, headers, body: o.body };
    if (o.body instanceof ReadableStream) init.duplex = "half";
    const req = new NextRequest(new URL(o.url, "http://localhost"), init as ConstructorParameters<typeof NextRequest>[1]);
    let res: Response;
    try {
      res = await handler(req, { params: Promise.resolve(o.params ?? {}) });
    } catch (err) {
      return { status: 599, text: `handler threw: ${(err as Error).stack}` };
    }
    return { status: res.status, text: await res.text() };
  }

  /** One fuzzed request: sends it, counts rows around it, and records what went wrong. */
  async function probe(
    op: Op,
    label: string,
    o: { query?: [string, string][]; id?: string; token?: string | null; authorization?: string; body?: BodyInit; contentType?: string },
  ) {
    const handler = (await routeFor(op.path))[op.method as keyof RouteModule];
    if (!handler) throw new Error(`${op.method} ${op.path} is documented but not exported`);
    const id = o.id ?? idFor(op.path)!;
    const search = new URLSearchParams(o.query ?? []).toString();
    const url = op.path.replace("{id}", encodeURIComponent(id)) + (search ? `?${search}` : "");
    // A GET writes nothing by design; the counts are compared around every other method.
    const writes = op.method !== "GET";
    // A large run started by an earlier request writes its later case results in the background:
    // they land before this request is counted, not during it.
    if (writes)
      await waitFor(
        () => db.run.count({ where: { preparedAt: null } }),
        (n) => n === 0,
      );
    const before = writes ? await rowCounts() : null;
    const res = await send(handler, {
      url,
      method: op.method,
      token: o.token === undefined ? token : o.token,
      authorization: o.authorization,
      body: o.body,
      contentType: o.contentType,
      params: op.path.includes("{id}") ? { id } : {},
    });
    const after = writes ? await rowCounts() : null;
    sent.push({ op, label, status: res.status });
    const where = `${op.method} ${op.path} [${label}] → ${res.status}`;
    if (res.status >= 500) failures.push(`${where}: ${res.text.slice(0, 300)}`);
    if (res.status >= 400 && res.status < 500) {
      let json: Json = null;
      try {
        json = JSON.parse(res.text);
      } catch {
        /* reported below */
      }
      const e = json?.error;
      if (!e || typeof e.code !== "string" || typeof e.message !== "string" || !Array.isArray(e.issues)) {
        failures.push(`${where}: not the error envelope: ${res.text.slice(0, 200)}`);
      }
      const changed = before && after ? TABLES.filter((t) => before[t] !== after[t]) : [];
      if (changed.length > 0)
        failures.push(`${where}: partial write (${changed.map((t) => `${t} ${before![t]}→${after![t]}`).join(", ")})`);
    }
    return res;
  }

  /** The request body's JSON schema (resolved), for its property names. */
  function bodySchema(op: Op): Json {
    const ref: string | undefined = op.operation.requestBody?.$ref;
    const body = ref ? doc.components.requestBodies[ref.split("/").pop()!] : op.operation.requestBody;
    let schema = body?.content?.["application/json"]?.schema;
    while (schema?.$ref) schema = doc.components.schemas[schema.$ref.split("/").pop()];
    return schema;
  }

  /** Every string leaf path of a JSON value. */
  function stringPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
    if (typeof value === "string") return [path];
    if (Array.isArray(value)) return value.flatMap((v, i) => stringPaths(v, [...path, i]));
    if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => stringPaths(v, [...path, k]));
    return [];
  }
  /** Every leaf and inner field path of a JSON value (arrays, objects and scalars). */
  function fieldPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
    const here = path.length > 0 ? [path] : [];
    if (Array.isArray(value)) return [...here, ...value.flatMap((v, i) => fieldPaths(v, [...path, i]))];
    if (value && typeof value === "object") return [...here, ...Object.entries(value).flatMap(([k, v]) => fieldPaths(v, [...path, k]))];
    return here;
  }
  function setAt(value: unknown, path: (string | number)[], replace: (old: unknown) => unknown): unknown {
    const copy = structuredClone(value);
    if (path.length === 0) return replace(copy);
    let node: Json = copy;
    for (const key of path.slice(0, -1)) node = node[key];
    const last = path[path.length - 1]!;
    node[last] = replace(node[last]);
    return copy;
  }

  it("answers every documented operation without a 5xx, always in the envelope, with no partial writes", async () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThanOrEqual(30);
    const json = JSON.stringify;

    for (const op of ops) {
      const isV1 = op.path.startsWith("/api/v1/") && op.path !== "/api/v1/openapi.json";
      const queryParams: Json[] = [...(op.pathItem.parameters ?? []), ...(op.operation.parameters ?? [])].filter(
        (p: Json) => p.in === "query",
      );
      const valid = op.operation.requestBody ? validBody(op.operation.operationId) : undefined;
      const validText = valid === undefined ? undefined : json(valid);

      // Authentication: none, forged, malformed.
      if (isV1) {
        await probe(op, "no key", { token: null, body: validText });
        await probe(op, "forged key", { token: `assay_${junk(40).replace(/[^\w]/g, "x")}`, body: validText });
        await probe(op, "malformed authorization", { authorization: `Bearer ${"a".repeat(5000)} x`, body: validText });
      }
      // Malformed and absent ids.
      if (op.path.includes("{id}")) {
        for (const bad of BAD_IDS) await probe(op, `id ${json(bad).slice(0, 20)}`, { id: bad, body: validText });
      }
      // Bad query values: for each documented parameter, plus forged cursors, huge limits and NUL anywhere.
      for (const p of queryParams) {
        const values = p.name === "cursor" ? [...FORGED_CURSORS, ...BAD_QUERY_VALUES] : BAD_QUERY_VALUES;
        for (const v of values) await probe(op, `query ${p.name}=${json(v).slice(0, 20)}`, { query: [[p.name, v]] });
      }
      if (queryParams.some((p) => p.name === "limit")) {
        for (const v of ["201", "1000000", "9".repeat(400), "-0", "0x10", " 5"])
          await probe(op, `limit=${v.slice(0, 12)}`, { query: [["limit", v]] });
      }
      if (isV1) {
        await probe(op, "NUL in an unknown query parameter", { query: [["q\u0000", "a\u0000b"]] });
        await probe(op, "repeated tag with NUL", {
          query: [
            ["tag", "ok"],
            ["tag", "b\u0000"],
          ],
        });
      }
      if (valid === undefined) continue;

      // Malformed JSON, wrong top-level types.
      for (const text of MALFORMED_JSON) await probe(op, `malformed ${json(text).slice(0, 12)}`, { body: text });
      for (const top of [[], "text", 42, null, true]) await probe(op, `top-level ${json(top)}`, { body: json(top) });
      // Oversized: 2 MB with a Content-Length, and the same streamed without one (chunked).
      const big = json({ name: "x".repeat(2 * 1024 * 1024) });
      await probe(op, "2 MB body", { body: big });
      await probe(op, "2 MB chunked body", {
        body: new ReadableStream({
          start(controller) {
            for (let i = 0; i < 32; i++) controller.enqueue(new TextEncoder().encode("x".repeat(64 * 1024)));
            controller.close();
          },
        }),
      });
      // Deeply nested: the whole body, and inside the first field.
      await probe(op, `depth ${DEPTH}`, { body: deepJson(DEPTH) });
      await probe(op, `object depth ${DEPTH}`, { body: deepObjectJson(DEPTH) });
      const firstField = Array.isArray(valid) ? [0, "user_context"] : [Object.keys(valid)[0] ?? "name"];
      // Spliced in as text: building it as a value would overflow this test's own JSON.stringify.
      const deepField = json(setAt(valid, firstField, () => "__DEEP__")).replace('"__DEEP__"', deepObjectJson(DEPTH));
      await probe(op, `field depth ${DEPTH}`, { body: deepField });
      // NUL and a lone surrogate in every string of a valid body (values and keys).
      for (const path of stringPaths(valid)) {
        await probe(op, `NUL at ${path.join(".")}`, { body: json(setAt(valid, path, (s) => `${String(s)}\u0000x`)) });
        await probe(op, `surrogate at ${path.join(".")}`, { body: json(setAt(valid, path, (s) => `${String(s)}\ud800`)) });
      }
      if (!Array.isArray(valid)) {
        await probe(op, "NUL in a key", { body: json({ ...valid, "bad\u0000key": "v" }) });
      }
      // Wrong types for every field: those of the valid body and every documented property.
      const documented = Object.keys(bodySchema(op)?.properties ?? {}).map((k) => (Array.isArray(valid) ? [0, k] : [k]));
      const seen = new Set<string>();
      for (const path of [...fieldPaths(valid), ...documented]) {
        const key = path.join(".");
        if (seen.has(key)) continue;
        seen.add(key);
        for (const wrong of WRONG_VALUES) {
          await probe(op, `${key}=${json(wrong)}`, { body: json(setAt(valid, path, () => wrong)) });
        }
        await probe(op, `${key}=huge text`, { body: json(setAt(valid, path, () => "x".repeat(200_000))) });
      }
      // YAML for the import: malformed, an alias bomb, a too deep document.
      if (op.operation.operationId === "importTestCases") {
        const bomb = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
        for (let i = 1; i < 10; i++)
          bomb.push(
            `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
              .fill(`*${String.fromCharCode(96 + i)}`)
              .join(",")}]`,
          );
        const t0 = Date.now();
        const res = await probe(op, "YAML alias bomb", { body: bomb.join("\n"), contentType: "application/yaml" });
        expect(res.status).toBe(400);
        expect(Date.now() - t0).toBeLessThan(1000);
        await probe(op, "YAML syntax", { body: "a: [1, 2\nb: {", contentType: "application/yaml" });
        await probe(op, "YAML NUL", { body: `- name: "a\\0b"\n  initial_message: hi`, contentType: "application/yaml" });
        await probe(op, "YAML deep", { body: "[".repeat(5000) + "]".repeat(5000), contentType: "application/yaml" });
        await probe(op, "11 MB import", { body: "x".repeat(11 * 1024 * 1024), contentType: "application/yaml" });
      }
    }

    const byStatus = sent.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s.status]: (acc[s.status] ?? 0) + 1 }), {});
    console.info(`[fuzz] statuses: ${JSON.stringify(byStatus)}`);
    expect(failures, failures.slice(0, 30).join("\n")).toEqual([]);
    // The oversized bodies were refused as such, before parsing (imports and uploads document their own limits: 10 MB, 25 MB).
    const oversized = sent.filter((s) => s.label.startsWith("2 MB") || s.label.startsWith("11 MB"));
    const documentedLimitMb = (s: (typeof sent)[number]) =>
      Number(/(\d+) MB/.exec(s.op.operation.responses?.["413"]?.description ?? "")?.[1] ?? 1);
    const notRefused = oversized.filter((s) => s.status !== 413 && !(documentedLimitMb(s) > 2 && s.label.startsWith("2 MB")));
    expect(notRefused.map((s) => `${s.op.method} ${s.op.path} [${s.label}] → ${s.status}`)).toEqual([]);
    // Several thousand requests over every documented operation: about 110 s on a quiet 2-core machine, more under load.
  }, 300_000);
});
