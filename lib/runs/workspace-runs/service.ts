/**
 * The workspace's runs across its suites, newest first (the Runs page and GET /api/v1/runs),
 * filtered by suite, status, trigger, kind and one metadata key (`branch:main`). Every filter has
 * an index that starts with the workspace (migration runs_list_indexes; the suite filter walks
 * the suite's history index, a metadata filter the GIN index on `metadata`). The page pages by
 * offset with a total ("51–100 of 312"); the API by keyset cursor on (createdAt, id).
 */
import "server-only";
import { z } from "zod";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { cursorFields, decodeCursor, encodeCursor, iso } from "@/lib/serialize";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import { runKindSql } from "@/lib/runs/history";
import { stringMap } from "@/lib/runs/analytics";
import type { RunHistoryRow } from "@/lib/runs/dto";
import type { RunKind, RunStatus, WorkspaceRunListQuery } from "@/lib/runs/schemas";

export type WorkspaceRunFilters = {
  suite_id?: string;
  status?: RunStatus;
  trigger?: "manual" | "schedule" | "api";
  metadata?: { key: string; value: string };
  kind?: RunKind;
};

/** A row of the workspace's runs list: the suite history table's row plus the suite it belongs to. */
export type WorkspaceRunRow = RunHistoryRow & { suite_id: string; suite_name: string };

function filtersSql(workspaceId: string, f: WorkspaceRunFilters): Prisma.Sql {
  return Prisma.sql`r."workspaceId" = ${workspaceId}::uuid ${runKindSql("r", f.kind ?? "ordinary")}
    ${f.suite_id ? Prisma.sql`AND r."suiteId" = ${f.suite_id}::uuid` : Prisma.empty}
    ${f.status ? Prisma.sql`AND r."status" = ${f.status}::"RunStatus"` : Prisma.empty}
    ${f.trigger ? Prisma.sql`AND r."triggeredBy" = ${f.trigger}::"RunTrigger"` : Prisma.empty}
    ${f.metadata ? Prisma.sql`AND r."metadata" @> jsonb_build_object(${f.metadata.key}::text, ${f.metadata.value}::text)` : Prisma.empty}`;
}

type Row = {
  id: string;
  number: number;
  suite_id: string;
  suite_name: string;
  metadata: unknown;
  status: RunStatus;
  triggered_by: string;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  total: number;
  passed: number;
  failed: number;
  errors: number;
  skipped: number;
  comparison_id: string | null;
  arm_index: number | null;
  matrix_id: string | null;
  combination_index: number | null;
  cost_usd: number | null;
};

/** The rows in order after `where`: only the list's columns (no snapshots, options or summary). */
function rowsSql(where: Prisma.Sql, page: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    SELECT r."id", r."number", r."suiteId" AS suite_id, s."name" AS suite_name, r."metadata", r."status"::text AS status,
           r."triggeredBy"::text AS triggered_by, r."createdAt" AS created_at, r."startedAt" AS started_at, r."completedAt" AS completed_at,
           r."totalCases" AS total, r."passedCases" AS passed, r."failedCases" AS failed, r."errorCases" AS errors,
           r."skippedCases" AS skipped, r."comparisonId" AS comparison_id, r."armIndex" AS arm_index, r."matrixId" AS matrix_id,
           r."combinationIndex" AS combination_index, r."costUsd" AS cost_usd
    FROM "Run" r JOIN "Suite" s ON s."id" = r."suiteId"
    WHERE ${where}
    ORDER BY r."createdAt" DESC, r."id" DESC
    ${page}`;
}

const rate = (passed: number, executed: number) => (executed > 0 ? Math.round((passed / executed) * 1000) / 10 : null);

function toRow(r: Row): WorkspaceRunRow {
  return {
    id: r.id,
    number: r.number,
    suite_id: r.suite_id,
    suite_name: r.suite_name,
    experiment: r.comparison_id !== null || r.matrix_id !== null,
    metadata: stringMap(r.metadata),
    status: r.status,
    triggered_by: r.triggered_by,
    created_at: r.created_at.toISOString(),
    started_at: iso(r.started_at),
    completed_at: iso(r.completed_at),
    total: r.total,
    done: r.passed + r.failed + r.errors + r.skipped,
    passed: r.passed,
    failed: r.failed,
    errors: r.errors,
    skipped: r.skipped,
    pass_rate: rate(r.passed, r.passed + r.failed + r.errors),
    duration_ms: r.started_at && r.completed_at ? r.completed_at.getTime() - r.started_at.getTime() : null,
    comparison_id: r.comparison_id,
    arm_index: r.arm_index,
    matrix_id: r.matrix_id,
    combination_index: r.combination_index,
    cost_usd: r.cost_usd,
  };
}

/** One page by offset with the number of matching runs: the Runs page ("1–50 of 312"). */
export async function listWorkspaceRunsPage(
  ctx: WorkspaceContext,
  filters: WorkspaceRunFilters,
  page: { offset: number; limit: number },
): Promise<{ rows: WorkspaceRunRow[]; total: number }> {
  requireRole(ctx, "viewer");
  const where = filtersSql(ctx.workspaceId, filters);
  const [rows, [count]] = await Promise.all([
    db.$queryRaw<Row[]>(rowsSql(where, Prisma.sql`LIMIT ${page.limit} OFFSET ${page.offset}`)),
    db.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total FROM "Run" r WHERE ${where}`,
  ]);
  return { rows: rows.map(toRow), total: count?.total ?? 0 };
}

const cursorSchema = z.object({ c: cursorFields.timestamp, id: cursorFields.id });

/** One page by keyset cursor, newest first: GET /api/v1/runs (`{data, next_cursor}`). A bad cursor is a 400 naming `cursor`. */
export async function listWorkspaceRuns(ctx: WorkspaceContext, q: WorkspaceRunListQuery) {
  requireRole(ctx, "viewer");
  const cursor = decodeCursor(q.cursor, cursorSchema);
  const after = cursor ? Prisma.sql`AND (r."createdAt", r."id") < (${new Date(cursor.c)}::timestamptz, ${cursor.id}::uuid)` : Prisma.empty;
  const rows = await db.$queryRaw<Row[]>(rowsSql(Prisma.sql`${filtersSql(ctx.workspaceId, q)} ${after}`, Prisma.sql`LIMIT ${q.limit + 1}`));
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return {
    data: page.map(toRow),
    next_cursor: rows.length > q.limit && last ? encodeCursor({ c: last.created_at.toISOString(), id: last.id }) : null,
  };
}

/** The suite filter's options: the workspace's suites by name (trashed ones left out), bounded. */
export async function listRunSuiteOptions(ctx: WorkspaceContext): Promise<{ id: string; name: string }[]> {
  requireRole(ctx, "viewer");
  return db.suite.findMany({
    where: { workspaceId: ctx.workspaceId, deletedAt: null },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    take: 500,
    select: { id: true, name: true },
  });
}
