/**
 * A hostile HTTP agent (a local test server) against full runs: a compression bomb, a 50 MB body,
 * a slow-loris trickle, NUL bytes, a redirect to the metadata address and an oversized reply.
 * Every case must end (never stay `running`) with a clear error, the process's RSS must stay
 * within +150 MB, and a well-behaved run alongside must complete.
 */
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { Readable } from "node:stream";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createAgent } from "@/lib/agents/service";
import { agentInput } from "@/lib/agents/schemas";
import { Executor } from "@/lib/runs/executor";
import { createCaseRunner } from "@/lib/runs/case-runner";
import { getRun, startRun } from "@/lib/runs/service";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { makeWorkspace, waitUntilFinished } from "../helpers/factories";

// Safety net (PLATFORM.md): this process may open TCP connections to loopback only. If the
// outbound guard ever regressed, the metadata redirect below fails here instead of leaving the machine.
const realConnect = net.Socket.prototype.connect;
const offLoopback: string[] = [];
net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
  const first = args[0];
  const opts = (Array.isArray(first) ? first[0] : first) as { host?: string; path?: string } | number | string;
  const host =
    typeof opts === "object" && opts !== null
      ? opts.path
        ? "unix"
        : (opts.host ?? "localhost")
      : typeof args[1] === "string"
        ? args[1]
        : "localhost";
  if (!["unix", "localhost", "127.0.0.1", "::1", "::ffff:127.0.0.1"].includes(host)) {
    offLoopback.push(host);
    throw new Error(`test safety net: refused a connection to non-loopback ${host}`);
  }
  return (realConnect as (...a: unknown[]) => net.Socket).apply(this, args);
} as typeof net.Socket.prototype.connect;

const MB = 1024 * 1024;
let bomb: Buffer;
let server: http.Server;
let base: string;
let executor: Executor;
let ctx: WorkspaceContext;
const trickleClosed: number[] = [];

function reply(res: http.ServerResponse, text: string) {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ reply: text }));
}

beforeAll(async () => {
  // 300 MB of zeros gzipped as a stream (~300 KB); the inflated body is never held anywhere.
  const chunk = Buffer.alloc(MB);
  let left = 300;
  const zeros = new Readable({ read: () => void zeros.push(left-- > 0 ? chunk : null) });
  const parts: Buffer[] = [];
  for await (const c of zeros.pipe(zlib.createGzip({ level: 9 }))) parts.push(c as Buffer);
  bomb = Buffer.concat(parts);

  server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.on("error", () => undefined); // the client hangs up mid-body on purpose
      switch (req.url) {
        case "/bomb":
          res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip", "content-length": String(bomb.length) });
          return void res.end(bomb);
        case "/big": {
          res.writeHead(200, { "content-type": "application/json" });
          const piece = Buffer.alloc(256 * 1024, "a");
          let sent = 0;
          const pump = () => {
            while (sent < 50 * MB && !res.destroyed) {
              sent += piece.length;
              if (!res.write(piece)) return void res.once("drain", pump);
            }
            res.end();
          };
          return pump();
        }
        case "/trickle": {
          res.writeHead(200, { "content-type": "application/json" });
          res.write('{"reply": "');
          const timer = setInterval(() => res.write("a"), 100);
          res.on("close", () => {
            clearInterval(timer);
            trickleClosed.push(Date.now());
          });
          return;
        }
        case "/nul":
          return reply(res, "a\u0000b");
        case "/metadata":
          res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/iam/security-credentials/" });
          return void res.end();
        case "/long":
          return reply(res, "x".repeat(60_000));
        default:
          return reply(res, "hello from a well-behaved agent");
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ctx = (await makeWorkspace("editor")).ctx;
  executor = new Executor({ runner: createCaseRunner(), pollMs: 50 });
  executor.start();
}, 30_000);

afterAll(async () => {
  await executor.stop(1000);
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  net.Socket.prototype.connect = realConnect;
});

/** A suite with one single-turn case whose HTTP agent POSTs to `path` on the hostile server. */
async function startAgainst(path: string, timeoutMs = 5_000) {
  const agent = await createAgent(
    ctx,
    agentInput.parse({
      name: `hostile ${path} ${Math.random()}`,
      kind: "http",
      http: { url: `${base}${path}`, headers: { Authorization: "Bearer agent-secret" }, timeout_ms: timeoutMs },
    }),
  );
  const suite = await db.suite.create({
    data: { workspaceId: ctx.workspaceId, agentId: agent.id, name: `suite ${path} ${Math.random()}` },
  });
  await db.testCase.create({
    data: { workspaceId: ctx.workspaceId, suiteId: suite.id, name: `case ${path}`, initialMessage: "hi", sortOrder: 0 },
  });
  return startRun(ctx, suite.id, {}, "manual");
}

async function finished(runId: string, timeoutMs = 25_000) {
  const run = await waitUntilFinished(() => getRun(ctx, runId), timeoutMs);
  const cases = await db.caseResult.findMany({ where: { runId }, include: { llmCalls: true } });
  return { run, cases };
}

describe("a hostile HTTP agent", () => {
  it("bomb, 50 MB body, slow loris and metadata redirect: each case ends with a clear error, RSS stays within +150 MB, a normal run completes", async () => {
    let peak = process.memoryUsage().rss;
    const baseline = peak;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    try {
      const started = performance.now();
      const runs = {
        bomb: await startAgainst("/bomb"),
        big: await startAgainst("/big"),
        trickle: await startAgainst("/trickle", 1_000),
        metadata: await startAgainst("/metadata"),
        normal: await startAgainst("/ok"),
      };
      const results = Object.fromEntries(await Promise.all(Object.entries(runs).map(async ([k, r]) => [k, await finished(r.id)] as const)));
      const elapsed = performance.now() - started;
      const errorOf = (k: string) => results[k]!.cases[0]!;

      for (const k of ["bomb", "big"]) {
        expect(errorOf(k).status, k).toBe("error");
        expect(errorOf(k).errorMessage, k).toContain("The response is larger than 5 MB");
        expect(errorOf(k).llmCalls[0]?.error, k).toContain("larger than 5 MB");
        // Not retried: downloading the bomb again cannot help.
        expect(errorOf(k).llmCalls[0]?.attempts, k).toBe(1);
      }
      expect(errorOf("trickle").status).toBe("error");
      expect(errorOf("trickle").errorMessage).toMatch(/Timed out after 1000 ms/);
      expect(trickleClosed.length).toBeGreaterThanOrEqual(1); // the trickling connection was hung up, not left open
      expect(errorOf("metadata").status).toBe("error");
      expect(errorOf("metadata").errorMessage).toMatch(/169\.254\.169\.254.*refused: cloud metadata address/);
      expect(offLoopback).toEqual([]);
      expect(results.normal!.run.status).toBe("completed");
      expect(results.normal!.cases[0]!.status).toBe("passed");
      for (const r of Object.values(results)) expect(r.run.status).not.toBe("running");

      const growthMb = (peak - baseline) / MB;
      console.info(
        `hostile agent: rss baseline ${(baseline / MB).toFixed(0)} MB, peak +${growthMb.toFixed(1)} MB, all runs ended in ${Math.round(elapsed)} ms`,
      );
      expect(growthMb).toBeLessThan(150);
    } finally {
      clearInterval(sampler);
    }
  }, 60_000);

  it("an oversized reply is stored truncated at 20,000 characters with a visible marker", async () => {
    const { run, cases } = await finished((await startAgainst("/long")).id);
    expect(run.status).toBe("completed");
    const transcript = cases[0]!.transcript as { role: string; content: string }[];
    const answer = transcript.find((m) => m.role === "assistant")!.content;
    expect(answer).toHaveLength(20_000 + "… [truncated 40,000 characters]".length);
    expect(answer.endsWith("… [truncated 40,000 characters]")).toBe(true);
    const call = cases[0]!.llmCalls[0]!;
    expect(call.response!.length).toBeLessThan(20_100);
    expect(call.response).toMatch(/… \[truncated [\d,]+ characters\]$/);
    expect(cases[0]!.actualResponse).toHaveLength(20_000);
    expect(cases[0]!.responseTruncated).toBe(true);
  });

  // PostgreSQL refuses \u0000 in text and jsonb; before outputs were cleaned, this case stayed `running`.
  it("a NUL byte in the reply is stored with the character removed and the run ends", async () => {
    const { run, cases } = await finished((await startAgainst("/nul")).id, 6_000);
    expect(run.status).toBe("completed");
    expect(cases[0]!.status).not.toBe("running");
    expect(cases[0]!.completedAt).not.toBeNull();
    const transcript = cases[0]!.transcript as { role: string; content: string }[];
    expect(transcript.find((m) => m.role === "assistant")?.content).toBe("ab");
    expect(cases[0]!.actualResponse).toBe("ab");
    expect(cases[0]!.llmCalls[0]?.response).not.toContain("\u0000");
  });
});
