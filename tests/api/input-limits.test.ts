/**
 * Input hardening through the real route handlers: text PostgreSQL cannot store (NUL, lone
 * surrogates) is a 400 naming the field, forged cursors are a 400 naming `cursor`, bodies over
 * the limit are a 413 before they are read in full, free-text fields have maximum lengths, and a
 * YAML alias bomb is refused quickly.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import * as agentRoute from "@/app/api/v1/agents/[id]/route";
import * as agentsRoute from "@/app/api/v1/agents/route";
import * as casesRoute from "@/app/api/v1/suites/[id]/test-cases/route";
import * as importRoute from "@/app/api/v1/suites/[id]/test-cases/import/route";
import * as runsRoute from "@/app/api/v1/suites/[id]/runs/route";
import * as suitesRoute from "@/app/api/v1/suites/route";
import { db } from "@/lib/db";
import { MAX_BODY_BYTES, MAX_IMPORT_BYTES, TEXT_LIMITS } from "@/lib/validation/limits";
import { call } from "../helpers/api";
import { makeApiKey, makeWorkspace, makeSuite, runnableCase } from "../helpers/factories";

let token: string;
let agentId: string;
let suiteId: string;
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v), "utf8").toString("base64url");

beforeAll(async () => {
  const { workspace } = await makeWorkspace("owner");
  token = await makeApiKey(workspace.id, "admin");
  const suite = await makeSuite(workspace.id);
  suiteId = suite.id;
  agentId = suite.agentId;
});

/** Posts a raw (not JSON-encoded) body to the suite's import route. */
const importRaw = (rawBody: string, contentType: string) =>
  call(importRoute.POST, { method: "POST", token, params: { id: suiteId }, rawBody, contentType });

function expectIssues(res: { status: number; json: { error: { code: string; issues: unknown[] } } }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.json.error.code).toBe(code);
  return res.json.error.issues;
}

describe("NUL characters and lone surrogates in input", () => {
  it("a PATCH with a NUL byte is a 400 naming the field, and nothing changes", async () => {
    const before = await db.agent.findUniqueOrThrow({ where: { id: agentId } });
    const res = await call(agentRoute.PATCH, { method: "PATCH", token, params: { id: agentId }, body: { description: "a\u0000b" } });
    expect(expectIssues(res, 400, "invalid_input")).toEqual([{ path: "description", message: "contains a NUL character" }]);
    expect((await db.agent.findUniqueOrThrow({ where: { id: agentId } })).updatedAt).toEqual(before.updatedAt);
  });

  it("names every offending path, nested fields and JSON object keys included", async () => {
    const res = await call(casesRoute.POST, {
      method: "POST",
      token,
      params: { id: suiteId },
      body: runnableCase({
        persona: { type: "t", description: "d", instructions: "half a pair: \ud83d" },
        user_context: { "k\u0000": 1, ok: ["x", "y\u0000"] },
      }),
    });
    expect(expectIssues(res, 400, "invalid_input")).toEqual(
      expect.arrayContaining([
        { path: "persona.instructions", message: "contains an invalid character (a lone UTF-16 surrogate)" },
        { path: "user_context.k\\u0000", message: "the key contains a NUL character" },
        { path: "user_context.ok.1", message: "contains a NUL character" },
      ]),
    );
    // Well-formed pairs (emoji) are fine.
    const emoji = await call(casesRoute.POST, {
      method: "POST",
      token,
      params: { id: suiteId },
      body: runnableCase({ description: "ok 😀" }),
    });
    expect(emoji.status).toBe(201);
  });

  it("a NUL in a query value is a 400 naming the parameter, repeated parameters included", async () => {
    const res = await call(casesRoute.GET, { url: `/x?tag=ok&tag=a%00b`, token, params: { id: suiteId } });
    expect(expectIssues(res, 400, "invalid_input")).toEqual([{ path: "tag", message: "contains a NUL character" }]);
    const q = await call(suitesRoute.GET, { url: `/x?q=a%00`, token });
    expect(expectIssues(q, 400, "invalid_input")).toEqual([{ path: "q", message: "contains a NUL character" }]);
  });

  it("a body nested 10,000 levels deep is a 400, not a stack overflow", async () => {
    const deep = '{"a":'.repeat(10_000) + "1" + "}".repeat(10_000);
    const res = await call(agentRoute.PATCH, {
      method: "PATCH",
      token,
      params: { id: agentId },
      rawBody: deep,
      contentType: "application/json",
    });
    const issues = expectIssues(res, 400, "invalid_input") as { message: string }[];
    expect(issues[0]!.message).toMatch(/nested more than 64 levels/);
  });
});

describe("malformed cursors", () => {
  it("a forged runs cursor is a 400 naming cursor (was a 500)", async () => {
    const forged = [
      "!!!",
      b64("text"),
      b64({}),
      b64({ c: "not a date", id: "x" }),
      b64({ c: "2024-01-01T00:00:00.000Z", id: "nope" }),
      b64({ c: "2024-13-45T99:00:00Z", id: "00000000-0000-4000-8000-000000000000" }),
      "a".repeat(2000),
    ];
    for (const cursor of forged) {
      const res = await call(runsRoute.GET, { url: `/x?cursor=${encodeURIComponent(cursor)}`, token, params: { id: suiteId } });
      const issues = expectIssues(res, 400, "invalid_input") as { path: string }[];
      expect(issues.map((i) => i.path)).toEqual(["cursor"]);
    }
    const valid = b64({ c: new Date().toISOString(), id: "00000000-0000-4000-8000-000000000000" });
    expect((await call(runsRoute.GET, { url: `/x?cursor=${valid}`, token, params: { id: suiteId } })).status).toBe(200);
  });

  it("forged name and sort-order cursors are a 400 too (NUL, huge integers)", async () => {
    const agents = await call(agentsRoute.GET, { url: `/x?cursor=${b64({ name: "a\u0000", id: agentId })}`, token });
    expect(expectIssues(agents, 400, "invalid_input")).toEqual([{ path: "cursor", message: expect.stringMatching(/Invalid cursor/) }]);
    const cases = await call(casesRoute.GET, { url: `/x?cursor=${b64({ s: 1e300, id: agentId })}`, token, params: { id: suiteId } });
    expect(expectIssues(cases, 400, "invalid_input")).toEqual([{ path: "cursor", message: expect.stringMatching(/Invalid cursor/) }]);
  });
});

describe("request limits", () => {
  /** A body stream that counts the bytes the server pulled. */
  function countedStream(totalBytes: number, chunk = 64 * 1024) {
    const state = { pulled: 0 };
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (state.pulled >= totalBytes) return controller.close();
        state.pulled += chunk;
        controller.enqueue(new Uint8Array(chunk).fill(0x61));
      },
    });
    return { stream, state };
  }
  const send = (handler: typeof agentRoute.PATCH, url: string, body: ReadableStream<Uint8Array>, headers: Record<string, string>) =>
    handler(
      new NextRequest(new URL(url, "http://localhost"), {
        method: url.includes("import") ? "POST" : "PATCH",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
        body,
        duplex: "half",
      } as ConstructorParameters<typeof NextRequest>[1]),
      { params: Promise.resolve({ id: url.includes("import") ? suiteId : agentId }) },
    );

  it("a Content-Length over 1 MB is a 413 in the envelope before a byte is read", async () => {
    const { stream, state } = countedStream(12 * 1024 * 1024);
    const res = await send(agentRoute.PATCH, "/api/v1/agents/x", stream, { "content-length": String(12 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      error: {
        code: "payload_too_large",
        message: "The request body is larger than 1 MB",
        issues: [{ path: "", message: "At most 1 MB" }],
      },
    });
    expect(state.pulled).toBeLessThanOrEqual(64 * 1024); // at most what the stream pre-buffers
  });

  it("a chunked body is cut off once the running count passes 1 MB", async () => {
    const { stream, state } = countedStream(50 * 1024 * 1024);
    const res = await send(agentRoute.PATCH, "/api/v1/agents/x", stream, {});
    expect(res.status).toBe(413);
    expect(state.pulled).toBeLessThan(MAX_BODY_BYTES + 256 * 1024);
  });

  it("the import takes up to 10 MB and answers 413 above it", async () => {
    const { stream, state } = countedStream(MAX_IMPORT_BYTES + 1024 * 1024);
    const res = await send(importRoute.POST, "/api/v1/suites/x/test-cases/import", stream, {});
    expect(res.status).toBe(413);
    expect((await res.json()).error.message).toBe("The request body is larger than 10 MB");
    expect(state.pulled).toBeLessThan(MAX_IMPORT_BYTES + 256 * 1024);
    // 2 MB is within the import's limit: parsed, and refused only as invalid JSON.
    const two = await importRaw("[" + " ".repeat(2 * 1024 * 1024), "application/json");
    expect(two.status).toBe(400);
  });

  it("free-text fields have maximum lengths", async () => {
    const long = (n: number) => "x".repeat(n + 1);
    const agent = await call(agentRoute.PATCH, {
      method: "PATCH",
      token,
      params: { id: agentId },
      body: { system_prompt: long(TEXT_LIMITS.prompt) },
    });
    // (The fixture's agent has no model configuration, which the merged agent is also told.)
    expect((expectIssues(agent, 400, "invalid_input") as { path: string }[]).map((i) => i.path)).toContain("system_prompt");
    const testCase = await call(casesRoute.POST, {
      method: "POST",
      token,
      params: { id: suiteId },
      body: runnableCase({
        name: long(TEXT_LIMITS.name),
        description: long(TEXT_LIMITS.description),
        user_context: { big: long(100_000) },
      }),
    });
    expect((expectIssues(testCase, 400, "invalid_input") as { path: string }[]).map((i) => i.path).sort()).toEqual([
      "description",
      "name",
      "user_context",
    ]);
  });
});

describe("YAML import limits", () => {
  /** ~1 MB of YAML whose aliases would expand to 9^10 strings. */
  function aliasBomb() {
    const lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++)
      lines.push(
        `a${i}: &a${i} [${Array(9)
          .fill(`*a${i - 1}`)
          .join(",")}]`,
      );
    let text = lines.join("\n") + "\n";
    for (let n = 0; text.length < 1024 * 1024; n++) text += `b${n}: [${Array(20).fill("*a9").join(",")}]\n`;
    return text;
  }

  it("a 1 MB alias bomb is a 400 naming the problem in well under a second (was a 500)", async () => {
    const text = aliasBomb();
    expect(text.length).toBeGreaterThanOrEqual(1024 * 1024);
    const started = performance.now();
    const res = await importRaw(text, "application/yaml");
    const ms = performance.now() - started;
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/more than 100 YAML aliases/);
    expect(ms).toBeLessThan(500);
    // The 1.5 KB version of the issue, too.
    const small = aliasBomb().slice(0, 1500).split("\n").slice(0, 10).join("\n");
    const res2 = await importRaw(small, "application/yaml");
    expect(res2.status).toBe(400);
    expect(res2.json.error.message).toMatch(/aliases/);
  });

  it("a NUL in an imported case is an issue at <index>.<field>, and nothing is written", async () => {
    const before = await db.testCase.count({ where: { suiteId } });
    const yaml = `- name: fine\n  initial_message: hi\n- name: "a\\0b"\n  initial_message: hi\n`;
    const res = await importRaw(yaml, "application/yaml");
    expect(expectIssues(res, 400, "invalid_input")).toEqual([{ path: "1.name", message: "contains a NUL character" }]);
    expect(await db.testCase.count({ where: { suiteId } })).toBe(before);
  });
});
