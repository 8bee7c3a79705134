/**
 * A run's case table for triage, in SQL: the filters (status, tag, variant, trial), a search
 * (case name, tags, response text), an order from ./case-sort.ts (failures first by default), one
 * offset page, the per-status counts of the filter chips, and, for one case, its neighbours in
 * that same order (the case view's previous/next failure). The run page, its live polls
 * (./live-reads.ts), GET /api/v1/runs/{id}/case-results and the case view all read through here,
 * so the case view walks exactly the list the run page showed. Each row carries only the columns
 * the table shows, plus a failed result's first failing check and outcome trimmed in SQL (the
 * one-line reason, ./failure-reason.ts). Every statement filters on `workspaceId`.
 */
import "server-only";
import type pg from "pg";
import { NotFoundError } from "@/lib/errors";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { isUuid } from "@/lib/ids";
import { CASE_RESULT_STATUSES, caseTableQuery, type CaseTableQuery, type CaseTableQueryInput } from "./schemas";
import { caseOrderSql } from "./case-sort";
import { toCaseResultRow, type CaseNeighbours, type CaseResultPage, type CaseResultRowRecord, type CaseStatusCounts } from "./dto";
import { scopedPoolRead } from "./case-results";

/** `text` as a LIKE pattern that matches it literally anywhere (`%`, `_` and `\` escaped). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

type Filters = Pick<CaseTableQuery, "status" | "tag" | "q" | "variant" | "trial">;

/**
 * The WHERE of a table's rows after run and workspace ($1, $2), each value a parameter, and a
 * shape that names which filters are set (the statement's name: one prepared text per shape).
 */
function filterSql(q: Filters, values: unknown[], opts: { status: boolean }) {
  const param = (v: unknown) => `$${values.push(v)}`;
  const where: string[] = [];
  let shape = "";
  if (opts.status && q.status) {
    where.push(`c."status" = ${param(q.status)}::"CaseResultStatus"`);
    shape += "s";
  }
  if (q.variant) {
    where.push(`c."variant" = ${param(q.variant)}::"Variant"`);
    shape += "v";
  }
  if (q.tag) {
    where.push(`c."tags" @> ARRAY[${param(q.tag)}::text]`);
    shape += "t";
  }
  if (q.trial !== undefined) {
    where.push(`c."repetition" = ${param(q.trial)}::int`);
    shape += "n";
  }
  if (q.q) {
    const p = param(containsPattern(q.q));
    where.push(
      `(c."name" ILIKE ${p} OR c."actualResponse" ILIKE ${p} OR EXISTS (SELECT 1 FROM unnest(c."tags") AS t(tag) WHERE t.tag ILIKE ${p}))`,
    );
    shape += "q";
  }
  return { sql: where.map((w) => ` AND ${w}`).join(""), shape };
}

/** A failed result's first failing check, with only the details its one-line reason needs. */
const FAILED_CHECK_SQL = `CASE WHEN c."status" = 'failed' AND jsonb_typeof(c."checkResults") = 'array' THEN (
    SELECT jsonb_build_object('check_type', e->>'check_type', 'missing_phrases', e->'details'->'missing_phrases',
             'similarity_score', e->'details'->'similarity_score', 'threshold', e->'details'->'threshold',
             'reasoning', left(e->'details'->>'reasoning', 400))
    FROM jsonb_array_elements(c."checkResults") WITH ORDINALITY AS x(e, i)
    WHERE (e->>'passed') IS DISTINCT FROM 'true' ORDER BY x.i LIMIT 1) END`;

/** A failed result's first outcome not met: its label and the judge's reasoning (trimmed). */
const FAILED_OUTCOME_SQL = `CASE WHEN c."status" = 'failed' AND jsonb_typeof(c."outcomeResults") = 'array' THEN (
    SELECT jsonb_build_object('label', left(e->>'label', 200), 'reasoning', left(e->>'reasoning', 400))
    FROM jsonb_array_elements(c."outcomeResults") WITH ORDINALITY AS x(e, i)
    WHERE (e->>'passed') IS DISTINCT FROM 'true' ORDER BY x.i LIMIT 1) END`;

const ROW_COLUMNS = `c."id", c."testCaseId", c."variant"::text AS "variant", c."position", c."repetition", c."status"::text AS "status",
  c."stage"::text AS "stage", c."name", c."tags", c."promptTokens", c."completionTokens", c."latencyMs", c."durationMs", c."costUsd",
  c."retryCount", c."turns", c."errorMessage", c."errorType", c."failureReasons", c."endReason",
  c."humanVerdict"::text AS "humanVerdict",
  (SELECT ri."status"::text FROM "public"."ReviewItem" ri WHERE ri."caseResultId" = c."id") AS "reviewStatus",
  ${FAILED_CHECK_SQL} AS "failedCheck", ${FAILED_OUTCOME_SQL} AS "failedOutcome"`;

function emptyCounts(): CaseStatusCounts {
  return Object.fromEntries(CASE_RESULT_STATUSES.map((s) => [s, 0])) as CaseStatusCounts;
}

/**
 * One page of the table and the run's status, in two statements: the run (in the workspace) with
 * the per-status counts of the rows matching every filter but the status (a missing run is no
 * row), then the page in the query's order.
 */
export async function caseTableAndRunStatusOn(
  client: pg.PoolClient,
  ctx: WorkspaceContext,
  runId: string,
  q: CaseTableQuery,
): Promise<{ page: CaseResultPage; runStatus: string }> {
  if (!isUuid(runId)) throw new NotFoundError("Run");
  const countValues: unknown[] = [runId, ctx.workspaceId];
  const countFilter = filterSql(q, countValues, { status: false });
  const head = await client.query<{ run_status: string; counts: Record<string, number> | null }>({
    name: `assay_case_table_counts_${countFilter.shape}`,
    text: `SELECT r."status"::text AS run_status,
        (SELECT json_object_agg(s.status, s.n) FROM (
           SELECT c."status"::text AS status, count(*)::int AS n FROM "public"."CaseResult" c
           WHERE c."runId" = r."id" AND c."workspaceId" = $2::uuid${countFilter.sql}
           GROUP BY c."status") s) AS counts
      FROM "public"."Run" r WHERE r."id" = $1::uuid AND r."workspaceId" = $2::uuid`,
    values: countValues,
  });
  const run = head.rows[0];
  if (!run) throw new NotFoundError("Run");
  const counts = { ...emptyCounts(), ...(run.counts ?? {}) };
  const total = q.status ? counts[q.status] : Object.values(counts).reduce((a, b) => a + b, 0);

  const values: unknown[] = [runId, ctx.workspaceId];
  const filter = filterSql(q, values, { status: true });
  const limit = `$${values.push(q.limit)}`;
  const offset = `$${values.push((q.page - 1) * q.limit)}`;
  const { rows } = await client.query<CaseResultRowRecord>({
    name: `assay_case_table_${filter.shape}_${q.sort}_${q.dir}`,
    text: `SELECT ${ROW_COLUMNS} FROM "public"."CaseResult" c
      WHERE c."runId" = $1::uuid AND c."workspaceId" = $2::uuid${filter.sql}
      ORDER BY ${caseOrderSql(q.sort, q.dir)}
      LIMIT ${limit}::int OFFSET ${offset}::int`,
    values,
  });
  return { page: { data: rows.map(toCaseResultRow), total, counts, page: q.page, limit: q.limit }, runStatus: run.run_status };
}

/** caseTableAndRunStatusOn's page (the run page's loader reads it with the run's head in one read). */
export async function caseTableOn(client: pg.PoolClient, ctx: WorkspaceContext, runId: string, q: CaseTableQuery) {
  return (await caseTableAndRunStatusOn(client, ctx, runId, q)).page;
}

/** One page of a run's case table (GET /api/v1/runs/{id}/case-results); `q` as parsed or partial input. */
export async function listCaseTable(ctx: WorkspaceContext, runId: string, q: CaseTableQueryInput = {}): Promise<CaseResultPage> {
  if (!isUuid(runId)) throw new NotFoundError("Run");
  const query = caseTableQuery.parse(q);
  return scopedPoolRead(ctx.workspaceId, (client) => caseTableOn(client, ctx, runId, query));
}

/**
 * The neighbours of `caseResultId` in the run's table under `q` (its filters and order), in one
 * statement: the list is numbered by a window over the same ORDER BY as the page query. A case
 * the filters leave out (opened from elsewhere) has no place: "next failure" is then the list's
 * first one.
 */
export async function caseNeighboursOn(
  client: pg.PoolClient,
  ctx: WorkspaceContext,
  runId: string,
  caseResultId: string,
  q: CaseTableQuery,
): Promise<CaseNeighbours> {
  const values: unknown[] = [runId, ctx.workspaceId, caseResultId];
  const filter = filterSql(q, values, { status: true });
  const { rows } = await client.query<{
    idx: number | null;
    total: number;
    failures: number;
    failure_index: number;
    prev_failure: string | null;
    next_failure: string | null;
    prev_case: string | null;
    next_case: string | null;
  }>({
    name: `assay_case_neighbours_${filter.shape}_${q.sort}_${q.dir}`,
    text: `WITH o AS (
        SELECT c."id", c."status"::text AS status, row_number() OVER (ORDER BY ${caseOrderSql(q.sort, q.dir)})::int AS i
        FROM "public"."CaseResult" c
        WHERE c."runId" = $1::uuid AND c."workspaceId" = $2::uuid${filter.sql}
      ), cur AS (SELECT i FROM o WHERE o."id" = $3::uuid)
      SELECT (SELECT i FROM cur) AS idx,
        (SELECT count(*)::int FROM o) AS total,
        (SELECT count(*)::int FROM o WHERE status = 'failed') AS failures,
        (SELECT count(*)::int FROM o, cur WHERE o.status = 'failed' AND o.i <= cur.i) AS failure_index,
        (SELECT o."id"::text FROM o, cur WHERE o.status = 'failed' AND o.i < cur.i ORDER BY o.i DESC LIMIT 1) AS prev_failure,
        (SELECT o."id"::text FROM o WHERE o.status = 'failed' AND o.i > coalesce((SELECT i FROM cur), 0) ORDER BY o.i LIMIT 1) AS next_failure,
        (SELECT o."id"::text FROM o, cur WHERE o.i = cur.i - 1) AS prev_case,
        (SELECT o."id"::text FROM o, cur WHERE o.i = cur.i + 1) AS next_case`,
    values,
  });
  const r = rows[0]!;
  return {
    index: r.idx,
    total: r.total,
    failures: r.failures,
    failureIndex: r.failure_index,
    page: r.idx ? Math.ceil(r.idx / q.limit) : 1,
    prevFailure: r.prev_failure,
    nextFailure: r.next_failure,
    prevCase: r.prev_case,
    nextCase: r.next_case,
  };
}
