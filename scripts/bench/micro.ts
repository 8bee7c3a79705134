// Micro-measurements behind the bench's findings: CPU per operation of the executor's hot path
// (Prisma statements and transactions, the persist transaction, one agent call through
// LlmClient and its layers), each measured in isolation on a throwaway database.
//   node --conditions=react-server --import tsx scripts/bench/micro.ts [db] [llm] [N=300]
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import OpenAI from "openai";
import { openBenchDatabase } from "./database";
import { startBenchFake } from "./fake";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const args = process.argv.slice(2);
const sections = new Set(args.filter((a) => !/^\d+$/.test(a)));
const N = Number(args.find((a) => /^\d+$/.test(a)) ?? 300);
const want = (s: string) => sections.size === 0 || sections.has(s);

const database = await openBenchDatabase(root, process.env.BENCH_DATABASE_URL);
const fake = await startBenchFake({ latencyMs: 0, separate: true, root });
process.env.DATABASE_URL = database.url;
process.env.AUTH_SECRET = "assay-bench-secret-assay-bench-secret-0123";
(process.env as Record<string, string>).NODE_ENV = "production";
process.env.LOG_LEVEL = "warn";
const { db } = await import("@/lib/db");
const { Prisma } = await import("@/lib/generated/prisma/client");
const { LlmClient, setEndpointConcurrency } = await import("@/lib/llm");
const { createGuardedFetch } = await import("@/lib/net/safe-fetch");
const { makeBenchWorkspace, makeBenchSuite } = await import("./executor-bench");
const { startRun } = await import("@/lib/runs/service");

async function measure(name: string, conc: number, fn: (i: number) => Promise<unknown>) {
  for (let i = 0; i < 20; i++) await fn(i % N); // warm-up
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: conc }, async () => {
      while (next < N) await fn(next++);
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  const wall = performance.now() - t0;
  const cpuMs = (cpu.user + cpu.system) / 1000 / N;
  process.stdout.write(
    `${name.padEnd(60)} ${cpuMs.toFixed(2).padStart(6)} ms CPU/op ${(wall / N).toFixed(2).padStart(7)} ms wall/op  (concurrency ${conc})\n`,
  );
}

const ctx = await makeBenchWorkspace();
const { suiteId, modelConfigId } = await makeBenchSuite(ctx, { baseUrl: fake.url, cases: N, name: "micro" });
const transcript = [
  { role: "system", content: "You are a helpful assistant." },
  { role: "user", content: "question 1" },
  { role: "assistant", content: "This is a reply from the fake model." },
];
const request = { model: "fake-model", messages: transcript.slice(0, 2) };

if (want("db")) {
  const run = await startRun(ctx, suiteId, { concurrency: 50 }, "api");
  const ids = (await db.caseResult.findMany({ where: { runId: run.id }, select: { id: true }, orderBy: { position: "asc" } })).map(
    (r) => r.id,
  );
  await db.caseResult.updateMany({ where: { runId: run.id }, data: { status: "running", leaseOwner: "w" } });
  const pool = new pg.Pool({ connectionString: database.url, max: 20 });

  await measure("raw pg: SELECT 1", 1, () => pool.query("SELECT 1"));
  await measure("prisma: $queryRaw SELECT 1", 1, () => db.$queryRaw`SELECT 1`);
  await measure("prisma: run.findUnique (select 2 columns)", 1, () =>
    db.run.findUnique({ where: { id: run.id }, select: { id: true, status: true } }),
  );
  await measure("prisma: $transaction(async tx => SELECT 1)", 1, () => db.$transaction(async (tx) => tx.$queryRaw`SELECT 1`));

  // The executor's persist() today: an interactive transaction of four statements.
  const persistToday = (i: number) =>
    db.$transaction(async (tx) => {
      await tx.caseResult.updateMany({
        where: { id: ids[i]!, leaseOwner: "w" },
        data: {
          status: "running",
          transcript,
          actualResponse: "x",
          checkResults: [],
          toolCallResults: Prisma.DbNull,
          outcomeResults: [],
          metricResults: [],
          promptTokens: 10,
          completionTokens: 5,
          latencyMs: 200,
          durationMs: 210,
          retryCount: 0,
          turns: 1,
          errorMessage: null,
          errorType: null,
          leaseExpiresAt: null,
          completedAt: new Date(),
        },
      });
      await tx.llmCall.createMany({
        data: [
          {
            workspaceId: ctx.workspaceId,
            runId: run.id,
            caseResultId: ids[i]!,
            purpose: "agent",
            model: "fake-model",
            request,
            response: '{"id":"x"}',
            error: null,
            attempts: 1,
            latencyMs: 200,
            cached: false,
          },
        ],
      });
      await tx.$executeRaw`UPDATE "Run" SET "passedCases" = "passedCases" + 0, "promptTokens" = "promptTokens" + ${10} WHERE "id" = ${run.id}::uuid`;
      await tx.$queryRaw`SELECT count(*)::int AS n FROM "CaseResult" WHERE "runId" = ${run.id}::uuid AND "status" IN ('pending', 'running')`;
    });
  await measure("persist today (interactive tx, 4 statements)", 1, persistToday);
  await measure("persist today (interactive tx, 4 statements)", 50, persistToday);

  // The same writes as one data-modifying CTE statement (the proposed persist).
  const persistSql = (i: number) => Prisma.sql`
    WITH cr AS (
      UPDATE "CaseResult" SET "status" = 'running', "transcript" = ${JSON.stringify(transcript)}::jsonb, "actualResponse" = ${"x"},
        "promptTokens" = ${10}::int, "completionTokens" = ${5}::int, "latencyMs" = ${200}::int, "durationMs" = ${210}::int, "turns" = 1,
        "leaseExpiresAt" = NULL, "completedAt" = now()
      WHERE "id" = ${ids[i]!}::uuid AND "leaseOwner" = ${"w"} AND "status" = 'running'
      RETURNING "id", "runId", "workspaceId"
    ), calls AS (
      INSERT INTO "LlmCall" ("id", "workspaceId", "runId", "caseResultId", "purpose", "model", "request", "response", "attempts", "latencyMs", "cached")
      SELECT gen_random_uuid(), cr."workspaceId", cr."runId", cr."id", c.purpose, c.model, c.request, c.response, c.attempts, c.latency_ms, c.cached
      FROM cr, jsonb_to_recordset(${JSON.stringify([{ purpose: "agent", model: "fake-model", request, response: '{"id":"x"}', attempts: 1, latency_ms: 200, cached: false }])}::jsonb)
        AS c(purpose text, model text, request jsonb, response text, attempts int, latency_ms int, cached boolean)
      RETURNING 1
    ), run AS (
      UPDATE "Run" r SET "passedCases" = r."passedCases" + 0, "promptTokens" = r."promptTokens" + ${10}::int
      FROM cr WHERE r."id" = cr."runId"
      RETURNING (r."passedCases" + r."failedCases" + r."skippedCases" + r."errorCases") >= r."totalCases" AS done
    )
    SELECT run.done FROM run`;
  await measure("persist as one CTE statement via prisma $queryRaw", 1, (i) => db.$queryRaw(persistSql(i)));
  await measure("persist as one CTE statement via prisma $queryRaw", 50, (i) => db.$queryRaw(persistSql(i)));
  await measure("persist as one CTE statement via raw pg", 50, (i) => {
    const q = persistSql(i);
    return pool.query(q.text, q.values as unknown[]);
  });
  await pool.end();
}

if (want("llm")) {
  setEndpointConcurrency(modelConfigId, 50);
  const endpoint = {
    id: modelConfigId,
    baseUrl: fake.url,
    apiKey: null,
    model: "fake-model",
    embeddingModel: null,
    temperature: null,
    maxTokens: null,
  };
  const client = new LlmClient(endpoint);
  const body = JSON.stringify(request);
  const guarded = createGuardedFetch({ allowPrivateNetworks: false, allowLoopback: true });
  const sdk = new OpenAI({ apiKey: "unused", baseURL: fake.url, maxRetries: 0, fetch: guarded });
  const sdkNative = new OpenAI({ apiKey: "unused", baseURL: fake.url, maxRetries: 0 });
  const agent = new http.Agent({ keepAlive: true });
  const url = new URL(`${fake.url}/chat/completions`);
  const rawHttp = () =>
    new Promise<string>((resolve, reject) => {
      const req = http.request(
        {
          hostname: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "POST",
          agent,
          headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  for (const conc of [1, 50]) {
    await measure("agent call: LlmClient.chat (today)", conc, () =>
      client.chat({ messages: request.messages as never }, { purpose: "agent" }),
    );
    await measure("openai SDK, one reused client, guarded fetch", conc, () => sdk.chat.completions.create(request as never));
    await measure("openai SDK, one reused client, global fetch (undici)", conc, () => sdkNative.chat.completions.create(request as never));
    await measure("guarded fetch alone (WHATWG Request/Response over node:http)", conc, () =>
      guarded(url, { method: "POST", headers: { "content-type": "application/json" }, body }).then((r) => r.text()),
    );
    await measure("global fetch alone (undici)", conc, () =>
      fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body }).then((r) => r.text()),
    );
    await measure("node:http request with a keep-alive agent", conc, rawHttp);
  }
  agent.destroy();
}

await db.$disconnect();
await fake.close();
await database.dispose();
