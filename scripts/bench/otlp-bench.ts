// `npm run bench -- --otlp`: OTLP ingestion at a sustained rate. Starts the production build on
// the bench database and sends a fleet's traffic (./otlp-fleet.ts) with the real OpenTelemetry JS
// exporter (protobuf over HTTP, as an agent's BatchSpanProcessor would) to its traces endpoint,
// open loop: export request i starts at i × batch ÷ rate whether or not earlier ones have answered.
// An unmeasured warm-up first, then the measured window, then whatever is still held back is sent
// (unmeasured) and the database is checked: every span stored once, every conversation assembled
// with its user turns and spans. Does not import lib/: the app runs in its own process.
import os from "node:os";
import path from "node:path";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import pg from "pg";
import { startBenchApp } from "./app-server";
import { procCpuMs } from "./fake";
import { Fleet } from "./otlp-fleet";
import { startPgSampler, type ActiveStatement } from "./pg-sampler";
import { correctnessLine, loadAverage, table } from "./report";

/** The issue's volume goal: this many spans a second sustained … */
export const TARGET_SPANS_PER_SECOND = 1000;
/** … with the export request's p95 answer under this. */
export const TARGET_P95_MS = 100;
/** "Sustained": the window's spans answered at ≥ this share of the target rate. */
const SUSTAINED_SHARE = 0.98;
const WARMUP_SECONDS = 5;
const ACTIVE_CONVERSATIONS = 200;

export type OtlpBenchResult = {
  spansPerSecondTarget: number;
  seconds: number;
  batch: number;
  /** Measured window. */
  spansSent: number;
  exportRequests: number;
  achievedSpansPerSecond: number;
  latency: { p50Ms: number; p95Ms: number; p99Ms: number; maxMs: number; meanMs: number };
  /** Median latency of the window's first and last third: growth says a cost grows with the stored spans. */
  trend: { firstThirdP50Ms: number; lastThirdP50Ms: number };
  /** How late the open-loop scheduler started requests (the bench's own event loop), max. */
  maxStartSlipMs: number;
  maxInFlight: number;
  /** After the last export: until every conversation was assembled (null: not within 60 s). */
  assemblyLagMs: number | null;
  errors: number;
  errorKinds: Record<string, number>;
  /** CPU of the web process and PostgreSQL over the window, per span sent. */
  cpuMs: { web: number | null; postgres: number | null; bench: number };
  activeStatements: { samples: number; top: ActiveStatement[] };
  /** Whole run (warm-up, window, drain). */
  total: { spans: number; conversations: number; requests: number };
  stored: { spans: number; conversations: number };
  targets: { spansPerSecond: number; p95Ms: number; rateMet: boolean; p95Met: boolean };
  loadBefore: string;
  loadAfter: string;
  cpus: number;
  appLog: string;
  failures: string[];
};

/** Nearest-rank percentile of ascending `sorted`. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

type Sent = { index: number; spans: number; startedAt: number; endedAt: number | null; ok: boolean; error: string | null };

export async function benchOtlp(opts: {
  root: string;
  distDir: string;
  databaseUrl: string;
  dbCpuMs: () => number | null;
  spansPerSecond: number;
  seconds: number;
  batch: number;
  say: (line: string) => void;
}): Promise<OtlpBenchResult> {
  const { batch, say } = opts;
  const failures: string[] = [];
  const appLog = path.join(os.tmpdir(), `assay-bench-otlp-app-${process.pid}.log`);
  say(`starting the production build in ${opts.distDir}/…`);
  const app = await startBenchApp({
    root: opts.root,
    distDir: opts.distDir,
    databaseUrl: opts.databaseUrl,
    executor: "web",
    logFile: appLog,
  });
  const db = new pg.Client({ connectionString: opts.databaseUrl });
  await db.connect();
  const fleet = new Fleet({ active: ACTIVE_CONVERSATIONS, lateShare: 0.15, toolShare: 0.3, serviceName: "bench-support-agent", seed: 26 });
  const exporter = new OTLPTraceExporter({
    url: `${app.url}/api/v1/otlp/v1/traces`,
    headers: { authorization: `Bearer ${app.apiKey}` },
  });
  try {
    const intervalMs = (batch / opts.spansPerSecond) * 1000;
    const warmupBatches = Math.max(1, Math.round((WARMUP_SECONDS * 1000) / intervalMs));
    const windowBatches = Math.max(1, Math.round((opts.seconds * 1000) / intervalMs));
    // Made before sending, so the SDK's span building is not in the window (the exporter's encoding is).
    say(`making ${(warmupBatches + windowBatches) * batch} spans with the OpenTelemetry SDK…`);
    const batches = Array.from({ length: warmupBatches + windowBatches }, () => fleet.nextBatch(batch));

    const sent: Sent[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const settled: Promise<void>[] = [];
    const exportOne = (index: number, spans: ReadableSpan[]) => {
      const record: Sent = { index, spans: spans.length, startedAt: performance.now(), endedAt: null, ok: false, error: null };
      sent.push(record);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      settled.push(
        new Promise<void>((resolve) =>
          exporter.export(spans, (result) => {
            record.endedAt = performance.now();
            record.ok = result.code === 0; // ExportResultCode.SUCCESS
            if (!record.ok) record.error = (result.error?.message ?? "export failed").slice(0, 120);
            inFlight--;
            resolve();
          }),
        ),
      );
    };

    say(
      `warm-up: ${warmupBatches} export requests of ${batch} spans (unmeasured), then ${opts.seconds} s at ${opts.spansPerSecond} spans/s…`,
    );
    let windowStartedAt = 0;
    let cpuBefore = { web: null as number | null, postgres: null as number | null, bench: 0 };
    const cpu = () => ({
      web: app.webPid ? procCpuMs(app.webPid) : null,
      postgres: opts.dbCpuMs(),
      bench: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
    });
    let sampler: Awaited<ReturnType<typeof startPgSampler>> | null = null;
    const loadBefore = loadAverage();
    const t0 = performance.now();
    let maxStartSlipMs = 0;
    for (let i = 0; i < batches.length; i++) {
      if (i === warmupBatches) {
        // The warm-up's requests still in flight must not count: wait for them, then restart the clock.
        await Promise.all(settled);
        // Every 20 ms: a request's statements take tens of ms, so 100 ms samples would be too coarse.
        sampler = await startPgSampler(opts.databaseUrl, 20);
        cpuBefore = cpu();
        windowStartedAt = performance.now();
      }
      const due = i < warmupBatches ? t0 + i * intervalMs : windowStartedAt + (i - warmupBatches) * intervalMs;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (i >= warmupBatches) maxStartSlipMs = Math.max(maxStartSlipMs, performance.now() - due);
      exportOne(i, batches[i]!);
    }
    const scheduledEnd = windowStartedAt + windowBatches * intervalMs;
    await Promise.all(settled);
    const cpuAfter = cpu();
    const activeStatements = sampler ? await sampler.stop(12) : { samples: 0, top: [] };
    const loadAfter = loadAverage();

    const measured = sent.filter((s) => s.index >= warmupBatches);
    const lastEnd = Math.max(...measured.map((s) => s.endedAt ?? 0));
    const okSpans = measured.filter((s) => s.ok).reduce((n, s) => n + s.spans, 0);
    // Spans answered over the window, stretched when the last answers came after its scheduled end.
    const achievedPerSecond = (okSpans / (Math.max(scheduledEnd, lastEnd) - windowStartedAt)) * 1000;
    const latencies = measured.map((s) => s.endedAt! - s.startedAt).sort((a, b) => a - b);
    const third = Math.max(1, Math.floor(measured.length / 3));
    const p50Of = (list: Sent[]) =>
      percentile(
        list.map((s) => s.endedAt! - s.startedAt).sort((a, b) => a - b),
        50,
      );
    const errorKinds: Record<string, number> = {};
    for (const s of sent.filter((x) => !x.ok)) errorKinds[s.error ?? "?"] = (errorKinds[s.error ?? "?"] ?? 0) + 1;

    // Whatever the fleet still holds back (late spans, a turn's rest) goes out now, unmeasured.
    say("sending the held-back spans (unmeasured) and checking the database…");
    settled.length = 0;
    for (const rest of fleet.drain(batch)) exportOne(-1, rest);
    await Promise.all(settled);
    for (const s of sent.filter((x) => x.index === -1 && !x.ok)) errorKinds[s.error ?? "?"] = (errorKinds[s.error ?? "?"] ?? 0) + 1;
    // A refused connection mid-run means the server went away: say so rather than only "export failed".
    if (app.webPid !== null && procCpuMs(app.webPid) === null)
      failures.push(`the web process (pid ${app.webPid}) ended during the run: see the end of ${appLog}`);
    const allErrors = sent.filter((s) => !s.ok).length;
    if (allErrors > 0)
      failures.push(
        `${allErrors} of ${sent.length} export requests failed: ${Object.entries(errorKinds)
          .map(([k, n]) => `${n}× ${k}`)
          .join("; ")}`,
      );

    // Conversations are assembled after the answers: wait for the assembler to catch up (its lag is a figure too).
    const assembledIn = await untilAssembled(db);
    if (assembledIn === null) failures.push("conversations were still waiting to be assembled 60 s after the last export");
    const check = await checkStored(db, fleet);
    failures.push(...check.failures);

    const web = cpuBefore.web !== null && cpuAfter.web !== null ? cpuAfter.web - cpuBefore.web : null;
    const postgres = cpuBefore.postgres !== null && cpuAfter.postgres !== null ? cpuAfter.postgres - cpuBefore.postgres : null;
    const spansSent = measured.reduce((n, s) => n + s.spans, 0);
    const p95 = percentile(latencies, 95);
    return {
      spansPerSecondTarget: opts.spansPerSecond,
      seconds: opts.seconds,
      batch,
      spansSent,
      exportRequests: measured.length,
      achievedSpansPerSecond: achievedPerSecond,
      latency: {
        p50Ms: percentile(latencies, 50),
        p95Ms: p95,
        p99Ms: percentile(latencies, 99),
        maxMs: latencies.at(-1) ?? NaN,
        meanMs: latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length),
      },
      trend: { firstThirdP50Ms: p50Of(measured.slice(0, third)), lastThirdP50Ms: p50Of(measured.slice(-third)) },
      maxStartSlipMs,
      maxInFlight,
      assemblyLagMs: assembledIn,
      errors: measured.filter((s) => !s.ok).length,
      errorKinds,
      cpuMs: { web, postgres, bench: cpuAfter.bench - cpuBefore.bench },
      activeStatements,
      total: { spans: fleet.spanIds.size, conversations: fleet.expected.size, requests: sent.length },
      stored: check.stored,
      targets: {
        spansPerSecond: TARGET_SPANS_PER_SECOND,
        p95Ms: TARGET_P95_MS,
        rateMet: opts.spansPerSecond >= TARGET_SPANS_PER_SECOND && achievedPerSecond >= SUSTAINED_SHARE * opts.spansPerSecond,
        p95Met: p95 < TARGET_P95_MS,
      },
      loadBefore,
      loadAfter,
      cpus: os.cpus().length,
      appLog,
      failures,
    };
  } finally {
    await exporter.shutdown().catch(() => undefined);
    await fleet.shutdown().catch(() => undefined);
    await db.end().catch(() => undefined);
    await app.stop();
  }
}

/** Milliseconds until no conversation waits to be assembled (null: still waiting after 60 s). */
async function untilAssembled(db: pg.Client): Promise<number | null> {
  const started = Date.now();
  while (Date.now() - started < 60_000) {
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "TrafficPending"`);
    if (rows[0]!.n === 0) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 50));
  }
  return null;
}

/** Every span the fleet made stored exactly once; every conversation with the user turns and spans sent. */
async function checkStored(db: pg.Client, fleet: Fleet): Promise<{ failures: string[]; stored: { spans: number; conversations: number } }> {
  const failures: string[] = [];
  const spans = await db.query<{ id: string; n: number }>(
    `SELECT "traceId" || ':' || "spanId" AS id, count(*)::int AS n FROM "TrafficSpan" GROUP BY 1`,
  );
  const stored = new Map(spans.rows.map((r) => [r.id, r.n]));
  const missing = [...fleet.spanIds].filter((id) => !stored.has(id));
  const twice = spans.rows.filter((r) => r.n > 1);
  const unknown = spans.rows.filter((r) => !fleet.spanIds.has(r.id));
  if (missing.length) failures.push(`${missing.length} of ${fleet.spanIds.size} spans sent were not stored (e.g. ${missing[0]})`);
  if (twice.length) failures.push(`${twice.length} spans were stored more than once (e.g. ${twice[0]!.id})`);
  if (unknown.length) failures.push(`${unknown.length} stored spans were never sent (e.g. ${unknown[0]!.id})`);

  const conversations = await db.query<{ externalId: string | null; key: string; userTurns: number; spanCount: number }>(
    `SELECT "externalId", key, "userTurns", "spanCount" FROM "TrafficConversation"`,
  );
  const byId = new Map(conversations.rows.filter((r) => r.externalId !== null).map((r) => [r.externalId!, r]));
  const strays = conversations.rows.filter((r) => r.externalId === null || !fleet.expected.has(r.externalId));
  if (strays.length)
    failures.push(
      `${strays.length} conversations stored that were not sent as such, e.g. ${strays[0]!.key} (spans split off their conversation)`,
    );
  let absent = 0;
  const wrongTurns: string[] = [];
  const wrongSpans: string[] = [];
  for (const [id, want] of fleet.expected) {
    const got = byId.get(id);
    if (!got) absent++;
    else {
      if (got.userTurns !== want.userTurns) wrongTurns.push(`${id}: ${got.userTurns} user turns, sent ${want.userTurns}`);
      if (got.spanCount !== want.spans) wrongSpans.push(`${id}: ${got.spanCount} spans, sent ${want.spans}`);
    }
  }
  if (absent) failures.push(`${absent} of ${fleet.expected.size} conversations sent were not assembled`);
  if (wrongTurns.length) failures.push(`${wrongTurns.length} conversations with wrong user turns (e.g. ${wrongTurns[0]})`);
  if (wrongSpans.length) failures.push(`${wrongSpans.length} conversations with a wrong span count (e.g. ${wrongSpans[0]})`);
  return { failures, stored: { spans: spans.rows.reduce((n, r) => n + r.n, 0), conversations: conversations.rows.length } };
}

const ms = (v: number) => (Number.isNaN(v) ? "n/a" : `${v.toFixed(0)} ms`);
const perSpan = (cpu: number | null, spans: number) =>
  cpu === null ? "n/a" : `${(cpu / 1000).toFixed(2)} s = ${((cpu / Math.max(1, spans)) * 1000).toFixed(0)} µs/span`;

export function formatOtlpReport(r: OtlpBenchResult, meta: { database: string }): string {
  const met = (ok: boolean) => (ok ? "met" : "missed");
  return [
    `Assay OTLP ingestion benchmark — ${r.spansPerSecondTarget} spans/s for ${r.seconds} s, ${r.batch} spans an export request (real OpenTelemetry JS exporter, protobuf)`,
    `  app: next start · ${ACTIVE_CONVERSATIONS} conversations open at once (2–5 turns, tools in 30 %, 15 % of turns' invoke_agent span late) · database: ${meta.database} · ${r.cpus} CPUs · load avg ${r.loadBefore} → ${r.loadAfter}`,
    "",
    table([
      ["spans sent (window)", `${r.spansSent} in ${r.exportRequests} export requests`],
      [
        "spans/s achieved",
        `${r.achievedSpansPerSecond.toFixed(0)}  (target ${r.targets.spansPerSecond} sustained: ${met(r.targets.rateMet)})`,
      ],
      [
        "export latency",
        `p50 ${ms(r.latency.p50Ms)}, p95 ${ms(r.latency.p95Ms)}, p99 ${ms(r.latency.p99Ms)}, max ${ms(r.latency.maxMs)}, mean ${ms(r.latency.meanMs)}  (target p95 < ${r.targets.p95Ms} ms: ${met(r.targets.p95Met)})`,
      ],
      ["p50, window's first → last third", `${ms(r.trend.firstThirdP50Ms)} → ${ms(r.trend.lastThirdP50Ms)}`],
      ["errors (window)", `${r.errors}`],
      ["requests in flight, max", `${r.maxInFlight} (open loop; scheduler slip max ${ms(r.maxStartSlipMs)})`],
      ["conversations assembled", r.assemblyLagMs === null ? "not within 60 s" : `${ms(r.assemblyLagMs)} after the last export`],
      ["CPU, web process", perSpan(r.cpuMs.web, r.spansSent)],
      ["CPU, PostgreSQL", perSpan(r.cpuMs.postgres, r.spansSent)],
      ["CPU, bench (exporter)", perSpan(r.cpuMs.bench, r.spansSent)],
      [
        "whole run (warm-up, window, drain)",
        `${r.total.spans} spans of ${r.total.conversations} conversations in ${r.total.requests} requests; stored ${r.stored.spans} spans, ${r.stored.conversations} conversations`,
      ],
    ]),
    "",
    `  PostgreSQL's active statements in the window (${r.activeStatements.samples} samples every 20 ms; average backends running each, ≈ ms per export request):`,
    ...r.activeStatements.top.map(
      (a) =>
        `  ${a.share.toFixed(3).padStart(6)}  ${((a.share * r.seconds * 1000) / Math.max(1, r.exportRequests)).toFixed(1).padStart(5)} ms  ${a.statement}`,
    ),
    "",
    correctnessLine(
      r.failures,
      "correctness: every export answered 2xx, every span stored exactly once, every conversation assembled with its user turns and spans",
    ),
  ].join("\n");
}
