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
import { cursorFields, decodeCursor, encodeCursor } from "@/lib/serialize";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import { runKindSql } from "@/lib/runs/history";
import { RUN_ROW_COLUMNS, toRunHistoryRow, type RunsPageRow } from "@/lib/runs/analytics";
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

type Row = RunsPageRow & { suite_id: string; suite_name: string };

/** The rows in order after `where`: the suite history's columns and the suite's id and name. */
function rowsSql(where: Prisma.Sql, page: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    SELECT ${RUN_ROW_COLUMNS}, r."suiteId" AS suite_id, s."name" AS suite_name
    FROM "Run" r JOIN "Suite" s ON s."id" = r."suiteId"
    WHERE ${where}
    ORDER BY r."createdAt" DESC, r."id" DESC
    ${page}`;
}

const toRow = (r: Row): WorkspaceRunRow => ({ ...toRunHistoryRow(r), suite_id: r.suite_id, suite_name: r.suite_name });

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
