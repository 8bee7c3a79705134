import "server-only";
import { db, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { ExecutionStats, emptyStats, mergeStats, type ExecutionStatsJson } from "@/lib/llm/stats";
import type { AgentStats } from "@/lib/runs/execution-types";
import { pairDiffs, type ArmStatus, type ComparisonPair } from "./diffs";
import { percent, summarize } from "./summary";
import { comparisonVerdict } from "./verdict";
import { pairIdentity, type ArmExecutionStats, type ComparisonSummaryDto, type StoredExecution } from "./dto";

/**
 * Pairs from case results, and a comparison's summary from its pairs. The engine (one pair as
 * it finishes, all of them when the comparison ends), compare-two-runs and the session import
 * all store pairs through `writePairs` and summaries through `summaryOf`, so their numbers can
 * never disagree.
 */

type Client = Pick<Tx, "$queryRaw" | "$executeRaw">;

/** The columns of a case result a pair needs. */
type ResultRow = {
  id: string;
  runId: string;
  testCaseId: string | null;
  position: number;
  repetition: number;
  name: string;
  question: string | null;
  status: string;
  stage: string;
  actualResponse: string | null;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number | null;
  errorMessage: string | null;
  agentStats: AgentStats | null;
  startedAt: Date | null;
  tags: string[];
  difficulty: string | null;
  model: string | null;
};

async function loadResults(client: Client, runIds: string[], positions?: number[]): Promise<ResultRow[]> {
  const positionFilter = positions ? Prisma.sql`AND c."position" = ANY(${positions}::int[])` : Prisma.empty;
  return client.$queryRaw<ResultRow[]>`
    SELECT c."id", c."runId", c."testCaseId", c."position", c."repetition", c."name",
           coalesce(c."caseSnapshot"->>'initial_message', c."caseSnapshot"->'persona'->>'description', c."name") AS question,
           c."status"::text AS status, c."stage"::text AS stage, c."actualResponse", c."promptTokens", c."completionTokens", c."latencyMs", c."errorMessage",
           c."agentStats"::jsonb AS "agentStats", c."startedAt", c."tags", c."caseSnapshot"->>'difficulty' AS difficulty,
           r."agentSnapshot"->'model_config'->>'model' AS model
    FROM "CaseResult" c JOIN "Run" r ON r."id" = c."runId"
    WHERE c."runId" = ANY(${runIds}::uuid[]) ${positionFilter}
    ORDER BY c."position"`;
}

const FINISHED = new Set(["passed", "failed", "error", "skipped"]);

/**
 * Did the agent call of a finished case result succeed? Yes with a verdict, and for an error at
 * stage `evaluation_failed`: the agent answered and only the judge (or a fail_on_error metric)
 * failed afterwards. Agent, simulator, file, configuration and worker errors, and skipped cases, no.
 */
function agentSucceeded(r: Pick<ResultRow, "status" | "stage">): boolean {
  return r.status === "passed" || r.status === "failed" || (r.status === "error" && r.stage === "evaluation_failed");
}

/**
 * The A/B engine's AgentResponse (+ verdict) of one case result; null while it has not finished. `error`
 * is the agent call's (the A/B engine's `success`); a judge error is `evaluation_error`.
 */
export function executionOf(r: ResultRow): StoredExecution | null {
  if (!FINISHED.has(r.status)) return null;
  const status = r.status as ArmStatus;
  const failed = !agentSucceeded(r);
  const stats = r.agentStats;
  return {
    case_result_id: r.id,
    response: r.actualResponse ?? "",
    prompt_tokens: r.promptTokens,
    completion_tokens: r.completionTokens,
    latency_ms: stats?.latency_ms ?? r.latencyMs ?? 0,
    turn_latencies_ms: stats?.turn_latencies_ms ?? [],
    model: stats?.model ?? r.model ?? "",
    timestamp: stats?.timestamp ?? r.startedAt?.toISOString() ?? null,
    error: failed ? (r.errorMessage ?? (status === "skipped" ? "Skipped" : "Error")) : null,
    evaluation_error: !failed && status === "error" ? (r.errorMessage ?? "Evaluation error") : null,
    retry_count: stats?.retry_count ?? 0,
    status,
  };
}

/** One pair as `writePairs` stores it: executions in arm order, diffs of arm 1 against arm 0 once both finished. */
export type PairRecord = {
  index: number;
  testCaseId: string | null;
  testCaseName: string;
  question: string;
  repetition: number;
  order: string[];
  executions: (StoredExecution | null)[];
  metadata: Record<string, unknown>;
  /** The A/B engine context_tokens of an imported result (executed pairs have none: 0). */
  contextTokens?: number;
};

function groupBy(rows: ResultRow[], runIds: string[], key: (r: ResultRow) => string) {
  const groups = new Map<string, (ResultRow | undefined)[]>();
  for (const r of rows) {
    const arm = runIds.indexOf(r.runId);
    if (arm < 0) continue;
    const k = key(r);
    let group = groups.get(k);
    if (!group) groups.set(k, (group = new Array<ResultRow | undefined>(runIds.length).fill(undefined)));
    group[arm] ??= r;
  }
  return groups;
}

function recordOf(group: ResultRow[], index: number, order: string[]): PairRecord {
  const first = group[0]!;
  return {
    index,
    testCaseId: first.testCaseId,
    testCaseName: first.name,
    question: first.question ?? first.name,
    repetition: first.repetition,
    order,
    executions: group.map(executionOf),
    metadata: { tags: first.tags, ...(first.difficulty ? { difficulty: first.difficulty } : {}) },
  };
}

/** Inserts or updates pairs (by index) with their diffs; a pair whose arms have not all finished keeps null diffs. */
export async function writePairs(client: Client, comparisonId: string, workspaceId: string, pairs: PairRecord[]) {
  for (let i = 0; i < pairs.length; i += 1000) {
    const rows = pairs.slice(i, i + 1000).map((p) => {
      const [a, b] = p.executions;
      const d = a && b && p.executions.every(Boolean) ? pairDiffs({ baseline: a, variant: b }) : null;
      return {
        ...pairIdentity(p),
        executions: p.executions,
        metadata: p.metadata,
        context_tokens: p.contextTokens ?? 0,
        token_overhead: d?.token_overhead ?? null,
        token_overhead_pct: d?.token_overhead_pct ?? null,
        latency_diff_ms: d?.latency_diff_ms ?? null,
        latency_improvement_pct: d?.latency_improvement_pct ?? null,
        response_length_ratio: d?.response_length_ratio ?? null,
        both_successful: d?.both_successful ?? null,
        verdict_change: d?.verdict_change ?? null,
        done: d !== null,
      };
    });
    await client.$executeRaw`
      INSERT INTO "ComparisonPair" ("id", "workspaceId", "comparisonId", "index", "testCaseId", "testCaseName", "question", "repetition", "order",
        "executions", "metadata", "contextTokens", "tokenOverhead", "tokenOverheadPct", "latencyDiffMs", "latencyImprovementPct", "responseLengthRatio",
        "bothSuccessful", "verdictChange", "completedAt")
      SELECT gen_random_uuid(), ${workspaceId}::uuid, ${comparisonId}::uuid, x."index", x.test_case_id, x.test_case_name, x.question, x.repetition,
        ARRAY(SELECT jsonb_array_elements_text(x."order")), x.executions, x.metadata, x.context_tokens, x.token_overhead, x.token_overhead_pct, x.latency_diff_ms,
        x.latency_improvement_pct, x.response_length_ratio, x.both_successful, x.verdict_change, CASE WHEN x.done THEN now() END
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x("index" int, test_case_id uuid, test_case_name text, question text, repetition int,
        "order" jsonb, executions jsonb, metadata jsonb, context_tokens int, token_overhead int, token_overhead_pct float8, latency_diff_ms float8,
        latency_improvement_pct float8, response_length_ratio float8, both_successful boolean, verdict_change text, done boolean)
      ON CONFLICT ("comparisonId", "index") DO UPDATE SET
        "executions" = excluded."executions", "tokenOverhead" = excluded."tokenOverhead", "tokenOverheadPct" = excluded."tokenOverheadPct",
        "latencyDiffMs" = excluded."latencyDiffMs", "latencyImprovementPct" = excluded."latencyImprovementPct",
        "responseLengthRatio" = excluded."responseLengthRatio", "bothSuccessful" = excluded."bothSuccessful",
        "verdictChange" = excluded."verdictChange",
        "completedAt" = CASE WHEN excluded."completedAt" IS NULL THEN NULL ELSE coalesce("ComparisonPair"."completedAt", excluded."completedAt") END`;
  }
}

/** The arm runs of an executed comparison, in arm order. */
export async function armRunIds(client: Client, comparisonId: string): Promise<string[]> {
  const rows = await client.$queryRaw<{ runId: string }[]>`
    SELECT "runId" FROM "ComparisonArm" WHERE "comparisonId" = ${comparisonId}::uuid AND "runId" IS NOT NULL ORDER BY "index"`;
  return rows.map((r) => r.runId);
}

/**
 * Rewrites the finished pairs of an executed comparison from its arm runs' case results (all of
 * them, or the given positions: pair index = position) and its `completedPairs`. Pairs with an
 * unfinished arm keep their created state. Returns the result rows it read.
 */
export async function refreshExecutedPairs(comparisonId: string, positions?: number[], client: Client = db): Promise<ResultRow[]> {
  const [c] = await client.$queryRaw<{ workspaceId: string }[]>`SELECT "workspaceId" FROM "Comparison" WHERE "id" = ${comparisonId}::uuid`;
  if (!c) return [];
  const runIds = await armRunIds(client, comparisonId);
  if (runIds.length < 2) return [];
  const rows = await loadResults(client, runIds, positions);
  const stored = await client.$queryRaw<{ index: number; order: string[] }[]>`
    SELECT "index", "order" FROM "ComparisonPair" WHERE "comparisonId" = ${comparisonId}::uuid
      ${positions ? Prisma.sql`AND "index" = ANY(${positions}::int[])` : Prisma.empty}`;
  const orders = new Map(stored.map((s) => [s.index, s.order]));
  const finished: PairRecord[] = [];
  for (const group of groupBy(rows, runIds, (r) => String(r.position)).values()) {
    if (group.some((r) => !r || !FINISHED.has(r.status))) continue;
    const position = group[0]!.position;
    finished.push(recordOf(group as ResultRow[], position, orders.get(position) ?? []));
  }
  await writePairs(client, comparisonId, c.workspaceId, finished);
  // Never lower: a batch whose count was read before the finishing transaction committed (READ
  // COMMITTED re-checks the row it waited for, not the count's snapshot) would write a stale count
  // over the final one. Finished pairs never become unfinished, so the count only grows.
  await client.$executeRaw`
    UPDATE "Comparison" SET "completedPairs" = greatest("completedPairs",
      (SELECT count(*)::int FROM "ComparisonPair" WHERE "comparisonId" = ${comparisonId}::uuid AND "completedAt" IS NOT NULL))
    WHERE "id" = ${comparisonId}::uuid`;
  return rows;
}

/** Pairs of two independent runs: matched by test case (and repetition), in the baseline run's order; a case only one run has is left out. */
export async function pairsOfRuns(
  client: Client,
  baselineRunId: string,
  variantRunId: string,
): Promise<{ pairs: PairRecord[]; rows: ResultRow[] }> {
  const runIds = [baselineRunId, variantRunId];
  const rows = await loadResults(client, runIds);
  const pairs: PairRecord[] = [];
  for (const group of groupBy(
    rows.filter((r) => r.testCaseId !== null && FINISHED.has(r.status)),
    runIds,
    (r) => `${r.testCaseId}:${r.repetition}`,
  ).values()) {
    if (group.some((r) => !r)) continue;
    pairs.push(recordOf(group as ResultRow[], pairs.length, ["baseline", "variant"]));
  }
  return { pairs, rows };
}

/** The A/B engine's ExecutionStats of one arm from its case results' agent stats. */
export function armStatsFromResults(rows: ResultRow[], runId: string): ExecutionStatsJson {
  const total = emptyStats();
  for (const r of rows) if (r.runId === runId && r.agentStats?.stats) mergeStats(total, r.agentStats.stats);
  return total;
}

/** ExecutionStats of an arm known only from its executions (an imported session): one invocation each. */
export function armStatsFromExecutions(executions: StoredExecution[]): ExecutionStatsJson {
  const stats = new ExecutionStats();
  for (const e of executions) {
    if (e.status === "skipped") continue;
    stats.record({
      purpose: "agent",
      attempts: e.retry_count + 1,
      attemptErrors: [],
      errorType: e.error ? "connection" : null,
      cached: false,
    });
  }
  const data = stats.data;
  // The document does not say which kind of error each was: count them under one key.
  data.final_errors_by_type = {};
  return data;
}

function publicStats(s: ExecutionStatsJson, errors: Record<string, number>): ArmExecutionStats {
  return {
    total_invocations: s.total_invocations,
    successful_invocations: s.successful_invocations,
    failed_invocations: s.failed_invocations,
    total_retries: s.total_retries,
    retry_successes: s.retry_successes,
    timeouts: s.timeouts,
    errors_by_type: Object.keys(errors).length ? errors : s.errors_by_type,
    success_rate: percent(s.successful_invocations, s.successful_invocations + s.failed_invocations),
  };
}

/**
 * The comparison's `summary`: the A/B engine statistics over the finished pairs (in index order, so the
 * bootstrap is reproducible), each arm's ExecutionStats and the page's one-sentence verdict.
 */
export function summaryOf(
  pairs: { executions: (StoredExecution | null)[] }[],
  armStats: [ExecutionStatsJson, ExecutionStatsJson],
  options: { resamples?: number } = {},
): ComparisonSummaryDto {
  const complete: ComparisonPair[] = [];
  for (const p of pairs) {
    const [a, b] = p.executions;
    if (a && b) complete.push({ baseline: a, variant: b });
  }
  const base = summarize(complete, options.resamples === undefined ? {} : { resamples: options.resamples });
  const errorsOf = (arm: 0 | 1) => {
    const counts: Record<string, number> = {};
    for (const p of complete) {
      const e = arm === 0 ? p.baseline : p.variant;
      if (e.error && e.status === "error") counts[classifyError(e.error)] = (counts[classifyError(e.error)] ?? 0) + 1;
    }
    return counts;
  };
  const summary = {
    ...base,
    baseline: { ...base.baseline, execution_stats: publicStats(armStats[0], armStats[0].total_invocations ? {} : errorsOf(0)) },
    variant: { ...base.variant, execution_stats: publicStats(armStats[1], armStats[1].total_invocations ? {} : errorsOf(1)) },
    verdict: "",
  };
  summary.verdict = comparisonVerdict(base);
  return summary;
}

/** A coarse error type from an error message (imported sessions carry only the message). */
function classifyError(message: string): string {
  if (/timed? ?out|timeout/i.test(message)) return "timeout";
  if (/rate.?limit|429/i.test(message)) return "rate_limited";
  if (/\b5\d\d\b|server error/i.test(message)) return "server_error";
  return "error";
}

/** Finished pairs of a comparison in index order (what `summaryOf` reads). */
export async function finishedPairs(client: Client, comparisonId: string) {
  return client.$queryRaw<{ executions: (StoredExecution | null)[] }[]>`
    SELECT "executions" FROM "ComparisonPair" WHERE "comparisonId" = ${comparisonId}::uuid AND "completedAt" IS NOT NULL ORDER BY "index"`;
}
