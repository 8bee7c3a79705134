/**
 * Reading comparisons: one comparison (with what each arm's calls really named), a suite's list,
 * its pairs sorted and paged, one pair, and the numbers the comparison page charts. Every query
 * is scoped by `workspaceId`.
 */
import "server-only";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { NotFoundError } from "@/lib/errors";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import { isUuid } from "@/lib/ids";
import { requireSuite } from "@/lib/test-cases/suite-guards";
import { decodeCursor, encodeCursor, pageNewestFirst } from "@/lib/serialize";
import { z } from "zod";
import { type PairListQuery } from "./schemas";
import {
  comparisonSelect,
  pairSelect,
  toComparisonDto,
  toPairDto,
  type ArmExecutedDto,
  type ComparisonChartData,
  type ComparisonChartPair,
  type ComparisonDto,
  type ComparisonRow,
} from "./dto";

export async function getComparisonUnchecked(ctx: WorkspaceContext, id: string): Promise<ComparisonDto> {
  if (!isUuid(id)) throw new NotFoundError("Comparison");
  const row = await db.comparison.findFirst({ where: { id, workspaceId: ctx.workspaceId }, select: comparisonSelect });
  if (!row) throw new NotFoundError("Comparison");
  return toComparisonDto(row, await executedByRun(ctx, [row]));
}

/**
 * What the arms' agent calls named, per arm run: one grouped read of the recorded calls (the
 * requests as sent), so the configuration card shows what ran even when it is not what was asked.
 */
async function executedByRun(ctx: WorkspaceContext, rows: ComparisonRow[]): Promise<Map<string, ArmExecutedDto>> {
  const runIds = rows.flatMap((r) => r.arms.flatMap((a) => (a.runId ? [a.runId] : [])));
  const out = new Map<string, ArmExecutedDto>();
  if (runIds.length === 0) return out;
  const groups = await db.$queryRaw<
    { runId: string; model: string | null; temperature: number | null; max_tokens: number | null; calls: number }[]
  >`
    SELECT l."runId", l."model",
           CASE WHEN jsonb_typeof(l."request"->'temperature') = 'number' THEN (l."request"->>'temperature')::float8 END AS temperature,
           CASE WHEN jsonb_typeof(l."request"->'max_tokens') = 'number' THEN (l."request"->>'max_tokens')::float8 END AS max_tokens,
           count(*)::int AS calls
    FROM "LlmCall" l
    WHERE l."runId" = ANY(${runIds}::uuid[]) AND l."workspaceId" = ${ctx.workspaceId}::uuid AND l."purpose" = 'agent'
    GROUP BY 1, 2, 3, 4
    ORDER BY calls DESC, l."model"`;
  for (const g of groups) {
    const arm = out.get(g.runId) ?? { agent_calls: 0, models: [] };
    arm.agent_calls += g.calls;
    arm.models.push({ model: g.model, temperature: g.temperature, max_tokens: g.max_tokens, calls: g.calls });
    out.set(g.runId, arm);
  }
  return out;
}

/** GET /api/v1/comparisons/{id}. */
export async function getComparison(ctx: WorkspaceContext, id: string): Promise<ComparisonDto> {
  requireRole(ctx, "viewer");
  return getComparisonUnchecked(ctx, id);
}

/** GET /api/v1/suites/{id}/comparisons: newest first. */
export async function listComparisons(ctx: WorkspaceContext, suiteId: string, q: { cursor?: string; limit: number }) {
  requireRole(ctx, "viewer");
  await requireSuite(ctx, suiteId);
  const { page, next_cursor } = await pageNewestFirst(q, (query) =>
    db.comparison.findMany({ ...query, where: { workspaceId: ctx.workspaceId, suiteId, ...query.where }, select: comparisonSelect }),
  );
  const executed = await executedByRun(ctx, page);
  return { data: page.map((row) => toComparisonDto(row, executed)), next_cursor };
}

const SORT_COLUMNS = {
  index: "index",
  latency_diff_ms: "latencyDiffMs",
  token_overhead: "tokenOverhead",
  token_overhead_pct: "tokenOverheadPct",
  latency_improvement_pct: "latencyImprovementPct",
  response_length_ratio: "responseLengthRatio",
} as const;

const pairCursor = z.object({ o: z.number().int().min(0).max(10_000_000) });

/**
 * GET /api/v1/comparisons/{id}/pairs: filter by verdict change, sort by a diff (pairs not
 * finished yet last, ties by index) and page with an opaque cursor.
 */
export async function listPairs(ctx: WorkspaceContext, id: string, q: PairListQuery) {
  requireRole(ctx, "viewer");
  await getComparisonUnchecked(ctx, id);
  const desc = q.sort.startsWith("-");
  const column = SORT_COLUMNS[q.sort.replace(/^-/, "") as keyof typeof SORT_COLUMNS];
  const offset = decodeCursor(q.cursor, pairCursor)?.o ?? 0;
  if (q.sort === "flipped") return flippedFirst(ctx, id, q, offset);
  const rows = await db.comparisonPair.findMany({
    where: { comparisonId: id, workspaceId: ctx.workspaceId, ...(q.verdict_change ? { verdictChange: q.verdict_change } : {}) },
    orderBy:
      column === "index"
        ? [{ index: "asc" }]
        : [{ [column]: { sort: desc ? "desc" : "asc", nulls: "last" } } as Prisma.ComparisonPairOrderByWithRelationInput, { index: "asc" }],
    skip: offset,
    take: q.limit + 1,
    select: pairSelect,
  });
  const page = rows.slice(0, q.limit);
  return { data: page.map(toPairDto), next_cursor: rows.length > q.limit ? encodeCursor({ o: offset + q.limit }) : null };
}

/** listPairs' "flipped" order: a rank no column holds, so the page's ids come from SQL, then their rows. */
async function flippedFirst(ctx: WorkspaceContext, id: string, q: PairListQuery, offset: number) {
  const ids = await db.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "ComparisonPair"
    WHERE "comparisonId" = ${id}::uuid AND "workspaceId" = ${ctx.workspaceId}::uuid
      ${q.verdict_change ? Prisma.sql`AND "verdictChange" = ${q.verdict_change}` : Prisma.empty}
    ORDER BY CASE "verdictChange" WHEN 'pass_to_fail' THEN 0 WHEN 'fail_to_pass' THEN 1 WHEN 'error' THEN 2 ELSE 3 END, "index"
    OFFSET ${offset}::int LIMIT ${q.limit + 1}::int`;
  const rows = await db.comparisonPair.findMany({
    where: { id: { in: ids.map((r) => r.id) }, workspaceId: ctx.workspaceId },
    select: { ...pairSelect, id: true },
  });
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ordered = ids.map((r) => byId.get(r.id)!).filter(Boolean);
  const page = ordered.slice(0, q.limit);
  return { data: page.map(toPairDto), next_cursor: ordered.length > q.limit ? encodeCursor({ o: offset + q.limit }) : null };
}

/** One pair by index (the pair view). */
export async function getPair(ctx: WorkspaceContext, id: string, index: number) {
  requireRole(ctx, "viewer");
  await getComparisonUnchecked(ctx, id);
  const row = await db.comparisonPair.findFirst({ where: { comparisonId: id, workspaceId: ctx.workspaceId, index }, select: pairSelect });
  if (!row) throw new NotFoundError("Pair");
  return toPairDto(row);
}

/** The finished pairs' numbers the comparison page charts (at most 5,000, in index order). */
export async function comparisonChartData(ctx: WorkspaceContext, id: string): Promise<ComparisonChartData> {
  requireRole(ctx, "viewer");
  await getComparisonUnchecked(ctx, id);
  const rows = await db.$queryRaw<ComparisonChartPair[]>`
    SELECT "index", "testCaseName" AS test_case_name, "repetition",
           ("executions"->0->>'latency_ms')::float8 AS baseline_latency_ms, ("executions"->1->>'latency_ms')::float8 AS variant_latency_ms,
           "latencyDiffMs" AS latency_diff_ms, "tokenOverhead" AS token_overhead, "verdictChange" AS verdict_change, "bothSuccessful" AS both_successful
    FROM "ComparisonPair" WHERE "comparisonId" = ${id}::uuid AND "workspaceId" = ${ctx.workspaceId}::uuid AND "completedAt" IS NOT NULL
    ORDER BY "index" LIMIT 5000`;
  return { pairs: rows };
}
