/**
 * What the case view diffs a result's final answer against: the same test case's result in another
 * ordinary run of the suite — the previous run by default (the latest one that started before this
 * result's run), any of the latest ones on request. One query lists the candidates (one result per
 * run: the same trial when that run has it, else its first), newest first; the chosen one brings
 * its answer. Scoped by workspace; an unknown or foreign `against` run falls back to the default.
 */
import "server-only";
import { db } from "@/lib/db";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import { isUuid } from "@/lib/ids";
import type { CaseResultStatus } from "@/lib/runs/schemas";

/** How many other runs the "compare with" choice offers. */
export const ANSWER_DIFF_CANDIDATES = 20;

export type AnswerDiffCandidate = {
  run_id: string;
  run_number: number;
  result_id: string;
  status: CaseResultStatus;
  created_at: string;
};

export type AnswerDiffTarget = AnswerDiffCandidate & { answer: string | null; error_message: string | null };

export type AnswerComparison = {
  /** The runs to choose from, newest first (the current run left out). */
  candidates: AnswerDiffCandidate[];
  /** The result diffed against: the one asked for, else the previous run's; null when there is none. */
  against: AnswerDiffTarget | null;
  /** Whether `against` is the default (the previous run) rather than a choice. */
  isDefault: boolean;
};

type Row = {
  run_id: string;
  run_number: number;
  result_id: string;
  status: CaseResultStatus;
  run_created_at: Date;
};

/**
 * The comparison for one result (`current`): null when it has no test case (a deleted case's
 * results cannot be matched across runs) or its run is not in the workspace.
 */
export async function answerComparison(
  ctx: WorkspaceContext,
  current: { runId: string; testCaseId: string | null; trial: number },
  againstRunId?: string | null,
): Promise<AnswerComparison | null> {
  requireRole(ctx, "viewer");
  if (!current.testCaseId || !isUuid(current.runId)) return null;
  const thisRun = await db.run.findFirst({
    where: { id: current.runId, workspaceId: ctx.workspaceId },
    select: { suiteId: true, createdAt: true },
  });
  if (!thisRun) return null;
  const rows = await db.$queryRaw<Row[]>`
    SELECT result_id, status, run_id, run_number, run_created_at FROM (
      SELECT c."id" AS result_id, c."status"::text AS status,
             r."id" AS run_id, r."number" AS run_number, r."createdAt" AS run_created_at,
             row_number() OVER (PARTITION BY r."id" ORDER BY (c."repetition" = ${current.trial}) DESC, c."repetition") AS pick
      FROM "CaseResult" c
      JOIN "Run" r ON r."id" = c."runId" AND r."workspaceId" = c."workspaceId"
      WHERE c."testCaseId" = ${current.testCaseId}::uuid AND c."workspaceId" = ${ctx.workspaceId}::uuid
        AND r."suiteId" = ${thisRun.suiteId}::uuid AND r."id" <> ${current.runId}::uuid
        AND r."comparisonId" IS NULL AND r."matrixId" IS NULL
        AND c."status"::text IN ('passed', 'failed', 'error')
    ) ranked
    WHERE pick = 1 ORDER BY run_created_at DESC LIMIT ${ANSWER_DIFF_CANDIDATES}`;

  const asked = againstRunId && isUuid(againstRunId) ? rows.find((r) => r.run_id === againstRunId) : undefined;
  const chosen = asked ?? rows.find((r) => r.run_created_at < thisRun.createdAt) ?? null;
  // Only the chosen result's answer is read: the candidates are a list of names.
  const answer = chosen
    ? await db.caseResult.findFirst({
        where: { id: chosen.result_id, workspaceId: ctx.workspaceId },
        select: { actualResponse: true, errorMessage: true },
      })
    : null;
  return {
    candidates: rows.map(candidateOf),
    against: chosen && { ...candidateOf(chosen), answer: answer?.actualResponse ?? null, error_message: answer?.errorMessage ?? null },
    isDefault: !asked,
  };
}

function candidateOf(r: Row): AnswerDiffCandidate {
  return {
    run_id: r.run_id,
    run_number: r.run_number,
    result_id: r.result_id,
    status: r.status,
    created_at: r.run_created_at.toISOString(),
  };
}
