/**
 * Re-running what matters (POST /api/v1/runs/{id}/rerun, the run page's buttons): a new run over
 * exactly the cases of a finished run that failed, errored, were flaky, all of them, or those of
 * the case results selected in the run page's table, under the
 * original run's conditions — its agent snapshot, evaluation snapshot, resolved variables (run and
 * per case) and concurrency — with the cases' current content, linked by `rerun_of`.
 */
import "server-only";
import { db, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { ConflictError, NotFoundError, ValidationError, zodIssues } from "@/lib/errors";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import { isUuid } from "@/lib/ids";
import { selectionKeyOf } from "@/lib/alerts/selection";
import { insertCaseResults, recordRunTotals } from "@/lib/runs/prepare";
import { toRunDto, type RunDto } from "@/lib/runs/dto";
import { notifyRunQueued } from "@/lib/runs/wakeup";
import { rerunInput, type RerunScope } from "@/lib/runs/schemas";

/** Which of a run's cases each scope takes, over the case's trials in that run. */
const SCOPE_SQL: Record<Exclude<RerunScope, "selected">, Prisma.Sql> = {
  failed: Prisma.sql`count(*) FILTER (WHERE c."status" = 'failed') > 0`,
  errors: Prisma.sql`count(*) FILTER (WHERE c."status" = 'error') > 0`,
  flaky: Prisma.sql`count(*) FILTER (WHERE c."status" = 'passed') > 0 AND count(*) FILTER (WHERE c."status" = 'failed') > 0`,
  all: Prisma.sql`true`,
};

/** `selected`: a case whose result (any of its trials) was selected; ids of other runs match nothing. */
function scopeSql(only: RerunScope, caseResultIds: string[] | undefined): Prisma.Sql {
  if (only === "selected") return Prisma.sql`bool_or(c."id" = ANY(${caseResultIds ?? []}::uuid[]))`;
  return SCOPE_SQL[only];
}

const SCOPE_WORDS: Record<RerunScope, string> = { failed: "failed ", errors: "errored ", flaky: "flaky ", all: "", selected: "selected " };

export async function rerunRun(ctx: WorkspaceContext, runId: string, raw: unknown): Promise<RunDto> {
  requireRole(ctx, "editor");
  const parsed = rerunInput.safeParse(raw ?? {});
  if (!parsed.success) throw new ValidationError("Invalid re-run", zodIssues(parsed.error));
  const { only } = parsed.data;
  if (!isUuid(runId)) throw new NotFoundError("Run");
  const original = await db.run.findFirst({
    where: { id: runId, workspaceId: ctx.workspaceId },
    select: {
      id: true,
      number: true,
      suiteId: true,
      status: true,
      comparisonId: true,
      matrixId: true,
      concurrency: true,
      trials: true,
      metadata: true,
      agentSnapshot: true,
      evalSnapshot: true,
      resolvedVariables: true,
      suite: { select: { deletedAt: true } },
    },
  });
  if (!original) throw new NotFoundError("Run");
  if (original.comparisonId || original.matrixId) {
    throw new ConflictError("A comparison's or a matrix's runs are experiments: start the comparison or the matrix again instead");
  }
  if (original.status === "pending" || original.status === "running") throw new ConflictError("The run has not finished yet");
  if (original.suite.deletedAt) throw new ConflictError("The run's suite is in the trash");
  const trials = parsed.data.trials ?? original.trials;

  const picked = await db.$queryRaw<{ id: string }[]>`
    SELECT c."testCaseId"::text AS id FROM "CaseResult" c
    WHERE c."runId" = ${original.id}::uuid AND c."workspaceId" = ${ctx.workspaceId}::uuid AND c."testCaseId" IS NOT NULL
    GROUP BY c."testCaseId" HAVING ${scopeSql(only, parsed.data.case_result_ids)}
    ORDER BY min(c."position")`;
  const caseIds = picked.map((r) => r.id);
  const noneMatch = new ValidationError(`No case of run #${original.number} matches only=${only}`, [
    {
      path: only === "selected" ? "case_result_ids" : "only",
      message: `Run #${original.number} has no ${SCOPE_WORDS[only]}cases that still exist`,
    },
  ]);
  if (caseIds.length === 0) throw noneMatch;

  const run = await db.$transaction(async (tx) => {
    const selection = { tags: [], tag_match: "any" as const, difficulty: null, case_ids: caseIds };
    const created = await tx.run.create({
      data: {
        workspaceId: ctx.workspaceId,
        suiteId: original.suiteId,
        triggeredBy: ctx.apiKeyId ? "api" : "manual",
        triggeredByUserId: ctx.userId,
        triggeredByKeyId: ctx.apiKeyId,
        options: { ...selection, concurrency: original.concurrency, rerun: { of: original.id, only } },
        concurrency: original.concurrency,
        trials,
        metadata: original.metadata as Prisma.InputJsonValue,
        resolvedVariables: original.resolvedVariables as Prisma.InputJsonValue,
        agentSnapshot: original.agentSnapshot as Prisma.InputJsonValue,
        evalSnapshot: original.evalSnapshot as Prisma.InputJsonValue,
        // A re-run covers some cases: regression alerts compare it only with runs of the same cases.
        selectionKey: selectionKeyOf(selection),
        rerunOfId: original.id,
      },
      select: { id: true },
    });
    const inserted = await insertCaseResults(tx, {
      runId: created.id,
      workspaceId: ctx.workspaceId,
      suiteId: original.suiteId,
      selection,
      repetitions: trials,
    });
    if (inserted === 0) throw noneMatch;
    await copyCaseVariables(tx, original.id, created.id);
    return recordRunTotals(tx, created.id, inserted);
  });
  notifyRunQueued(run.id);
  return toRunDto(run);
}

/** Each case of the re-run gets the variables its case resolved to in the original run. */
async function copyCaseVariables(tx: Tx, fromRunId: string, toRunId: string) {
  await tx.$executeRaw`
    UPDATE "CaseResult" n SET "resolvedVariables" = o."resolvedVariables"
    FROM (SELECT DISTINCT ON ("testCaseId") "testCaseId", "resolvedVariables" FROM "CaseResult"
          WHERE "runId" = ${fromRunId}::uuid AND "testCaseId" IS NOT NULL ORDER BY "testCaseId", "repetition") o
    WHERE n."runId" = ${toRunId}::uuid AND n."testCaseId" = o."testCaseId"`;
}
