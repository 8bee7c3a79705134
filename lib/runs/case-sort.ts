/**
 * The orders of a run's case table (the run page, GET /api/v1/runs/{id}/case-results, and the case
 * view's previous/next links, which must walk the table's order). One entry per sort key: the SQL
 * expression it orders by (over the `CaseResult` row `c`) and the direction a first click picks.
 * A new sortable column is one more entry here; the query schema, the SQL and the table's headers
 * read the keys from this map. Pure, so the client imports it too.
 */

/** Failures first, then errors, then passes, then the rest (skipped, running, pending). */
export const STATUS_RANK_SQL = `CASE c."status"::text WHEN 'failed' THEN 0 WHEN 'error' THEN 1 WHEN 'passed' THEN 2 WHEN 'skipped' THEN 3 WHEN 'running' THEN 4 ELSE 5 END`;

export const CASE_SORTS = {
  status: { sql: STATUS_RANK_SQL, firstDir: "asc" },
  name: { sql: `lower(c."name")`, firstDir: "asc" },
  latency: { sql: `c."latencyMs"`, firstDir: "desc" },
  tokens: { sql: `(c."promptTokens" + c."completionTokens")`, firstDir: "desc" },
  cost: { sql: `c."costUsd"`, firstDir: "desc" },
} as const satisfies Record<string, { sql: string; firstDir: SortDir }>;

export type SortDir = "asc" | "desc";
export type CaseSortKey = keyof typeof CASE_SORTS;
export const CASE_SORT_KEYS = Object.keys(CASE_SORTS) as [CaseSortKey, ...CaseSortKey[]];
export const SORT_DIRS = ["asc", "desc"] as const;

/** The table's default: failures first, in case order within each status. */
export const DEFAULT_CASE_SORT: { sort: CaseSortKey; dir: SortDir } = { sort: "status", dir: "asc" };

/**
 * The ORDER BY of a sort: its key (missing values last either way), then failures first, then
 * case order, so every order is total and a page boundary never moves between two reads.
 */
export function caseOrderSql(sort: CaseSortKey, dir: SortDir): string {
  return `${CASE_SORTS[sort].sql} ${dir === "desc" ? "DESC" : "ASC"} NULLS LAST, ${STATUS_RANK_SQL}, c."position", c."variant", c."repetition", c."id"`;
}
