// `npm run bench -- --rate-limit rpm=600,tpm=60000`: the provider-budget mode. The fake enforces
// the budget as a provider does (429 with Retry-After and x-ratelimit-* headers past it), and N
// `scripts/worker.ts` processes (default 2) run one big single-turn run against it, sharing the
// budget through PostgreSQL. Over a measured window (default 300 s, after a 10 s start) it
// reports the rate the fake admitted against the budget, the share of 429 answers, and whether
// any case failed because of a 429. `--learned`: the model configuration declares nothing and the
// limits are learned from the answers; otherwise it declares the budget. BENCH_DUMP=FILE writes the
// window's requests as [ms into the window, status] pairs (to see the pace second by second).
// Imports lib/: load it only after DATABASE_URL is set.
import pg from "pg";
import { env } from "@/lib/env";
import { db } from "@/lib/db";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { cancelRun, startRun } from "@/lib/runs/service";
import type { BenchFake } from "./fake";
import { makeBenchSuite } from "./executor-bench";
import { correctnessLine, loadAverage } from "./report";
import { startWorker, stopWorkers } from "./workers-bench";

/** The first seconds are not measured: workers warm up and the budget's first buckets fill. */
export const SETTLE_SECONDS = 10;

/** The workload: the budget (declared on the model configuration, or only enforced by the fake) and who shares it. */
type RateLimitWorkload = {
  rpm: number | null;
  tpm: number | null;
  declared: boolean;
  workers: number;
  concurrency: number;
  latencyMs: number;
};

export type RateLimitBenchResult = RateLimitWorkload & {
  windowSeconds: number;
  /** Answers the fake admitted (200) and refused (429) in the window. */
  admitted: number;
  refused: number;
  achievedRpm: number;
  achievedTpm: number;
  /** achieved ÷ budget, per limit (null when the limit is not set). */
  rpmShare: number | null;
  tpmShare: number | null;
  /** The limit that binds: the higher share. */
  bindingShare: number;
  refusedShare: number;
  /** Cases that ended as an error because of a 429 (over the whole run). */
  rateLimitedCases: number;
  casesDone: number;
  loadBefore: string;
  loadAfter: string;
  failures: string[];
};

type RecordedRequest = { endpoint: string; at: number; status?: number; body?: { messages?: { content?: unknown }[] } };

/** Turns on the fake's provider budget (over its control API: it may run in its own process). */
export async function setFakeRateLimit(fakeUrl: string, limit: { rpm: number | null; tpm: number | null } | null) {
  const control = `${fakeUrl.replace(/\/v1$/, "")}/__fake/rate-limit`;
  const res = limit
    ? await fetch(control, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...(limit.rpm ? { rpm: limit.rpm } : {}), ...(limit.tpm ? { tpm: limit.tpm } : {}) }),
      })
    : await fetch(control, { method: "DELETE" });
  if (!res.ok) throw new Error(`the fake refused its rate limit: ${res.status} ${await res.text()}`);
}

export async function fakeRequests(fakeUrl: string): Promise<RecordedRequest[]> {
  const res = await fetch(`${fakeUrl.replace(/\/v1$/, "")}/__fake/requests`);
  return (await res.json()) as RecordedRequest[];
}

export async function benchRateLimit(
  opts: RateLimitWorkload & { ctx: WorkspaceContext; fake: BenchFake; root: string; seconds: number; say: (line: string) => void },
): Promise<RateLimitBenchResult> {
  const { ctx, fake, rpm, tpm, say } = opts;
  // Enough work to keep the budget busy past the window: 30 % more than it admits.
  const perSecond = rpm ? rpm / 60 : 50;
  const cases = Math.ceil(perSecond * (opts.seconds + SETTLE_SECONDS + 20) * 1.3);
  const suite = await makeBenchSuite(ctx, { baseUrl: fake.url, cases, name: "rate-limit", questionPrefix: "budget question" });
  if (opts.declared) await db.modelConfig.update({ where: { id: suite.modelConfigId }, data: { rpm, tpm } });
  await setFakeRateLimit(fake.url, { rpm, tpm });

  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: env.DATABASE_URL,
    NODE_ENV: "production",
    // "info": startWorker waits for the worker's "worker ready" line.
    LOG_LEVEL: "info",
    ASSAY_WORKER_SLOTS: String(opts.concurrency),
    ASSAY_MODEL_CONCURRENCY: String(opts.concurrency),
  };
  say(`starting ${opts.workers} worker processes…`);
  const workers = await Promise.all(Array.from({ length: opts.workers }, () => startWorker(opts.root, childEnv)));
  const watch = new pg.Client({ connectionString: env.DATABASE_URL });
  await watch.connect();
  let result: RateLimitBenchResult;
  try {
    await new Promise((r) => setTimeout(r, 500));
    const loadBefore = loadAverage();
    const epoch = Date.now();
    const run = await startRun(ctx, suite.suiteId, { concurrency: opts.concurrency }, "api");
    say(`  ${cases} cases at concurrency ${opts.concurrency}; measuring ${opts.seconds} s after the first ${SETTLE_SECONDS} s…`);
    const from = epoch + SETTLE_SECONDS * 1000;
    const to = from + opts.seconds * 1000;
    for (let t = Date.now(); t < to; t = Date.now()) {
      await new Promise((r) => setTimeout(r, Math.min(15_000, to - t)));
      const { rows } = await watch.query<{ done: number }>(
        `SELECT count(*)::int AS done FROM "CaseResult" WHERE "runId" = $1 AND "status" NOT IN ('pending', 'running')`,
        [run.id],
      );
      say(`  ${Math.round((Date.now() - epoch) / 1000)} s: ${rows[0]!.done} cases done`);
    }
    const loadAfter = loadAverage();
    const requests = (await fakeRequests(fake.url)).filter((r) => r.endpoint === "chat" && r.at >= from && r.at < to);
    const admittedAt = requests.filter((r) => r.status === 200).map((r) => r.at);
    const admitted = admittedAt.length;
    if (process.env.BENCH_DUMP) {
      const { writeFileSync } = await import("node:fs");
      writeFileSync(process.env.BENCH_DUMP, JSON.stringify(requests.map((r) => [r.at - from, r.status])));
    }
    const refused = requests.filter((r) => r.status === 429).length;
    const { rows: tokenRows } = await watch.query<{ tokens: string | null }>(
      `SELECT sum("promptTokens" + "completionTokens") AS tokens FROM "CaseResult"
       WHERE "runId" = $1 AND "completedAt" >= $2 AND "completedAt" < $3`,
      [run.id, new Date(from), new Date(to)],
    );
    const { rows: outcome } = await watch.query<{ limited: number; done: number }>(
      `SELECT count(*) FILTER (WHERE "status" = 'error' AND ("errorType" = 'rate_limited' OR "errorMessage" ILIKE '%rate limit%' OR "errorMessage" LIKE '429%'))::int AS limited,
              count(*) FILTER (WHERE "status" NOT IN ('pending', 'running', 'skipped'))::int AS done
       FROM "CaseResult" WHERE "runId" = $1`,
      [run.id],
    );
    await cancelRun(ctx, run.id);
    const minutes = opts.seconds / 60;
    const achievedRpm = admitted / minutes;
    const achievedTpm = Number(tokenRows[0]!.tokens ?? 0) / minutes;
    const rpmShare = rpm ? achievedRpm / rpm : null;
    const tpmShare = tpm ? achievedTpm / tpm : null;
    const bindingShare = Math.max(rpmShare ?? 0, tpmShare ?? 0);
    const refusedShare = requests.length ? refused / requests.length : 0;
    const failures: string[] = [];
    if (outcome[0]!.limited > 0) failures.push(`${outcome[0]!.limited} cases failed because of a 429`);
    if (admitted === 0) failures.push("the fake admitted no request in the window");
    result = {
      rpm,
      tpm,
      declared: opts.declared,
      workers: opts.workers,
      concurrency: opts.concurrency,
      latencyMs: opts.latencyMs,
      windowSeconds: opts.seconds,
      admitted,
      refused,
      achievedRpm,
      achievedTpm,
      rpmShare,
      tpmShare,
      bindingShare,
      refusedShare,
      rateLimitedCases: outcome[0]!.limited,
      casesDone: outcome[0]!.done,
      loadBefore,
      loadAfter,
      failures,
    };
  } finally {
    await stopWorkers(workers);
    await watch.end();
    await setFakeRateLimit(fake.url, null).catch(() => undefined);
  }
  return result;
}

const pct = (v: number | null) => (v === null ? "n/a" : `${(v * 100).toFixed(1)} %`);

export function formatRateLimitReport(r: RateLimitBenchResult, meta: { database: string }): string {
  const budget = [r.rpm ? `${r.rpm} requests/min` : null, r.tpm ? `${r.tpm} tokens/min` : null].filter(Boolean).join(", ");
  return [
    `Assay provider-budget benchmark — ${budget}, enforced by the fake (429 + Retry-After + x-ratelimit-*), ${r.workers} worker processes sharing it, ${r.declared ? "declared on the model configuration" : "learned from the answers (nothing declared)"}`,
    `  one run at concurrency ${r.concurrency}, ${r.latencyMs} ms a call · window ${r.windowSeconds} s after a ${SETTLE_SECONDS} s start · database: ${meta.database} · load ${r.loadBefore} → ${r.loadAfter}`,
    "",
    `  admitted: ${r.admitted} requests = ${r.achievedRpm.toFixed(1)}/min (${pct(r.rpmShare)} of the rpm budget), ${Math.round(r.achievedTpm)} tokens/min (${pct(r.tpmShare)} of the tpm budget)`,
    `  binding limit used: ${pct(r.bindingShare)} (target ≥ 95 %)`,
    `  429 answers: ${r.refused} of ${r.admitted + r.refused} requests = ${pct(r.refusedShare)} (target ≤ 1 %)`,
    `  cases done: ${r.casesDone}; failed by a 429: ${r.rateLimitedCases}`,
    "",
    correctnessLine(r.failures, "correctness: no case failed because of a 429"),
  ].join("\n");
}
