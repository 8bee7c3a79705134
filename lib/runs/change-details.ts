/**
 * What changed between a run and the suite's previous completed ordinary run, field by field:
 * the agent configuration (the system prompt as text, tools, model, parameters, variable values),
 * the evaluation settings, and the content of each case whose verdict flipped and whose content
 * changed. The "What changed" view of the changes card and GET /api/v1/runs/{id}/changes read it
 * on demand; the card itself polls the lighter `changesSincePreviousRun`.
 */
import "server-only";
import { db } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { isUuid } from "@/lib/ids";
import { agentDiff, caseDiff, evaluationDiff } from "./changes";
import { changesSincePreviousRun } from "./service";
import type { RunChangeDetails } from "./dto";

type SnapshotRow = { id: string; agentSnapshot: unknown; evalSnapshot: unknown; resolvedVariables: unknown };

export async function runChangeDetails(ctx: WorkspaceContext, runId: string): Promise<RunChangeDetails> {
  if (!isUuid(runId)) throw new NotFoundError("Run");
  const changes = await changesSincePreviousRun(ctx, runId);
  const empty = { agent_fields: [], evaluation_fields: [], case_fields: [] };
  if (!changes.previous_run_id) return { ...changes, ...empty };
  const ids = [runId, changes.previous_run_id];
  const snapshots = await db.run.findMany({
    where: { id: { in: ids }, workspaceId: ctx.workspaceId },
    select: { id: true, agentSnapshot: true, evalSnapshot: true, resolvedVariables: true },
  });
  const current = snapshots.find((r) => r.id === runId) as SnapshotRow | undefined;
  const previous = snapshots.find((r) => r.id === changes.previous_run_id) as SnapshotRow | undefined;
  if (!current || !previous) return { ...changes, ...empty };

  const edited = [...changes.regressions, ...changes.fixes].filter((c) => c.case_changed);
  const caseRows = edited.length
    ? await db.$queryRaw<{ test_case_id: string; run_id: string; snapshot: unknown }[]>`
        SELECT DISTINCT ON (c."testCaseId", c."runId") c."testCaseId"::text AS test_case_id, c."runId"::text AS run_id,
               c."caseSnapshot" AS snapshot
        FROM "CaseResult" c
        WHERE c."runId" = ANY(${ids}::uuid[]) AND c."workspaceId" = ${ctx.workspaceId}::uuid AND c."variant" = 'baseline'
          AND c."testCaseId" = ANY(${edited.map((c) => c.test_case_id)}::uuid[])
        ORDER BY c."testCaseId", c."runId", c."position"`
    : [];
  const snapshotOf = (testCaseId: string, id: string) => caseRows.find((r) => r.test_case_id === testCaseId && r.run_id === id)?.snapshot;
  return {
    ...changes,
    agent_fields: agentDiff(previous.agentSnapshot, current.agentSnapshot, previous.resolvedVariables, current.resolvedVariables),
    evaluation_fields: evaluationDiff(previous.evalSnapshot, current.evalSnapshot),
    case_fields: edited.map((c) => ({
      test_case_id: c.test_case_id,
      name: c.name,
      fields: caseDiff(snapshotOf(c.test_case_id, changes.previous_run_id!), snapshotOf(c.test_case_id, runId)),
    })),
  };
}
