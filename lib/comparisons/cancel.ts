/**
 * Cancelling a comparison: no new pair starts, its arm runs get a cancel request (pairs in
 * flight are aborted by the executor's heartbeat) and pending cases become skipped.
 */
import "server-only";
import { db } from "@/lib/db";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import { isUuid } from "@/lib/ids";
import { finishArmRuns } from "./engine";
import { type ComparisonDto } from "./dto";
import { getComparisonUnchecked } from "./read";

/**
 * POST /api/v1/comparisons/{id}/cancel: no new pair starts; pairs in flight are aborted
 * (their unfinished arms end skipped or cancelled) and the comparison ends `cancelled`.
 */
export async function cancelComparison(ctx: WorkspaceContext, id: string): Promise<ComparisonDto> {
  requireRole(ctx, "editor");
  if (!isUuid(id)) throw new NotFoundError("Comparison");
  await db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ status: string }[]>`
      SELECT "status"::text AS status FROM "Comparison" WHERE "id" = ${id}::uuid AND "workspaceId" = ${ctx.workspaceId}::uuid FOR NO KEY UPDATE`;
    if (!locked) throw new NotFoundError("Comparison");
    if (!["pending", "running"].includes(locked.status)) throw new ConflictError(`The comparison is already ${locked.status}`);
    await tx.comparison.update({ where: { id }, data: { cancelRequestedAt: new Date() } });
    await tx.$executeRaw`
      UPDATE "Run" SET "cancelRequestedAt" = coalesce("cancelRequestedAt", now())
      WHERE "comparisonId" = ${id}::uuid AND "status" IN ('pending', 'running')`;
    await tx.$executeRaw`
      UPDATE "CaseResult" c SET "status" = 'skipped', "errorMessage" = 'Comparison cancelled before this case started', "completedAt" = now()
      FROM "Run" r WHERE r."id" = c."runId" AND r."comparisonId" = ${id}::uuid AND c."status" = 'pending'`;
  });
  // Arm runs with nothing in flight end now; the others when their last case returns.
  await finishArmRuns(id);
  return getComparisonUnchecked(ctx, id);
}
