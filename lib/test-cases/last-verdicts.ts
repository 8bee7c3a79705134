import "server-only";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { ordinaryRunSql } from "@/lib/runs/history";

/**
 * A case's last verdict and its latest results on the suite page: the newest finished results
 * (passed, failed, error) of the case in the suite's history — ordinary runs only, comparison
 * arms and matrix combinations are experiments (lib/runs/history.ts) — newest first, each trial
 * its own result. Both read CaseResult through its (testCaseId, createdAt desc) index, one
 * LATERAL per case, so the cost follows the cases asked for, not the suite's history.
 */

export type LastVerdict = "passed" | "failed" | "error";
export type RecentResult = { id: string; run_id: string; run_number: number; trial: number; status: LastVerdict };
export type CaseRecentResults = { last_verdict: LastVerdict | null; recent: RecentResult[] };

/** How many latest results the suite page's strip shows. */
export const RECENT_RESULTS = 10;

const FINISHED = Prisma.sql`('passed', 'failed', 'error')`;

/**
 * The newest finished ordinary result of the case `caseAlias`."id", as a LATERAL subquery
 * (`rank`: failed 0, error 1, passed 2; a case never run has no row, so LEFT JOIN it and
 * coalesce to 3): the suite page's "last verdict, failed first" sort key.
 */
export function lastVerdictLateral(workspaceId: string, caseAlias: string): Prisma.Sql {
  const tc = Prisma.raw(caseAlias);
  return Prisma.sql`LEFT JOIN LATERAL (
      SELECT CASE c."status"::text WHEN 'failed' THEN 0 WHEN 'error' THEN 1 ELSE 2 END AS "rank"
      FROM "CaseResult" c JOIN "Run" r ON r."id" = c."runId" AND r."workspaceId" = c."workspaceId"
      WHERE c."testCaseId" = ${tc}."id" AND c."workspaceId" = ${workspaceId}::uuid
        AND c."status"::text IN ${FINISHED} AND ${ordinaryRunSql("r")}
      ORDER BY c."createdAt" DESC, c."repetition" DESC
      LIMIT 1) lv ON true`;
}

/** The sort rank of a case without a finished result: after every verdict. */
export const NO_VERDICT_RANK = 3;

/** The latest `RECENT_RESULTS` finished ordinary results of each given case (of this workspace), in one query. */
export async function recentCaseResults(ctx: WorkspaceContext, caseIds: string[]): Promise<Map<string, CaseRecentResults>> {
  const out = new Map<string, CaseRecentResults>(caseIds.map((id) => [id, { last_verdict: null, recent: [] }]));
  if (caseIds.length === 0) return out;
  const rows = await db.$queryRaw<(RecentResult & { case_id: string; created_at: Date })[]>`
    SELECT t."id" AS case_id, h."id", h."run_id", h."run_number", h."trial", h."status"
    FROM unnest(${caseIds}::uuid[]) AS t("id")
    CROSS JOIN LATERAL (
      SELECT c."id", r."id" AS run_id, r."number" AS run_number, c."repetition" AS trial, c."status"::text AS status,
             c."createdAt" AS created_at
      FROM "CaseResult" c JOIN "Run" r ON r."id" = c."runId" AND r."workspaceId" = c."workspaceId"
      WHERE c."testCaseId" = t."id" AND c."workspaceId" = ${ctx.workspaceId}::uuid
        AND c."status"::text IN ${FINISHED} AND ${ordinaryRunSql("r")}
      ORDER BY c."createdAt" DESC, c."repetition" DESC
      LIMIT ${RECENT_RESULTS}::int) h
    ORDER BY case_id, h."created_at" DESC, h."trial" DESC`;
  for (const { case_id, id, run_id, run_number, trial, status } of rows) {
    const entry = out.get(case_id)!;
    entry.recent.push({ id, run_id, run_number, trial, status });
    entry.last_verdict ??= status;
  }
  return out;
}
