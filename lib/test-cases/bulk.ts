import "server-only";
import { z } from "zod";
import { db } from "@/lib/db";
import { ValidationError, zodIssues } from "@/lib/errors";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import {
  RUNNABLE_MESSAGE,
  bulkStatusInput,
  bulkTagsInput,
  isRunnable,
  reorderInput,
  type Persona,
  type TestCaseStatus,
} from "@/lib/test-cases/schemas";
import { lockLiveSuite, requireLiveSuite } from "@/lib/test-cases/suite-guards";

export const NOT_FOUND_REASON = "Test case not found in this suite";
export const REORDER_MESSAGE = "Send every live case of the suite exactly once, in the new order";

function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw new ValidationError("Please fix the highlighted fields", zodIssues(r.error));
  return r.data;
}

/** `ids` are all of the suite's live case ids in their new order; sort orders become 0..n-1. */
export async function reorderTestCases(ctx: WorkspaceContext, suiteId: string, ids: string[]): Promise<void> {
  requireRole(ctx, "editor");
  const input = parse(reorderInput, { ids });
  await db.$transaction(async (tx) => {
    await lockLiveSuite(tx, ctx, suiteId);
    const live = await tx.testCase.findMany({
      where: { suiteId, workspaceId: ctx.workspaceId, deletedAt: null },
      select: { id: true },
    });
    const wanted = new Set(input.ids);
    const complete = wanted.size === input.ids.length && wanted.size === live.length && live.every((c) => wanted.has(c.id));
    if (!complete) throw new ValidationError(REORDER_MESSAGE, [{ path: "ids", message: REORDER_MESSAGE }]);
    await tx.$executeRaw`
      UPDATE "TestCase" AS t SET "sortOrder" = (v.ord - 1)::int
      FROM unnest(${input.ids}::uuid[]) WITH ORDINALITY AS v(id, ord)
      WHERE t."id" = v.id AND t."suiteId" = ${suiteId}::uuid AND t."workspaceId" = ${ctx.workspaceId}::uuid`;
  });
}

/** Sets the status of selected cases; cases that cannot run are skipped when activating. */
export async function bulkSetStatus(
  ctx: WorkspaceContext,
  suiteId: string,
  ids: string[],
  status: TestCaseStatus,
): Promise<{ updated: number; skipped: { id: string; reason: string }[] }> {
  requireRole(ctx, "editor");
  const input = parse(bulkStatusInput, { ids, status });
  await requireLiveSuite(ctx, suiteId);
  const unique = [...new Set(input.ids)];
  const rows = await db.testCase.findMany({
    where: { id: { in: unique }, suiteId, workspaceId: ctx.workspaceId, deletedAt: null },
    select: { id: true, initialMessage: true, persona: true },
  });
  const found = new Map(rows.map((r) => [r.id, r]));
  const skipped: { id: string; reason: string }[] = [];
  const eligible: string[] = [];
  for (const id of unique) {
    const row = found.get(id);
    if (!row) skipped.push({ id, reason: NOT_FOUND_REASON });
    else if (input.status === "active" && !isRunnable({ initial_message: row.initialMessage, persona: row.persona as Persona | null })) {
      skipped.push({ id, reason: RUNNABLE_MESSAGE });
    } else eligible.push(id);
  }
  const { count } =
    eligible.length === 0
      ? { count: 0 }
      : await db.testCase.updateMany({
          where: { id: { in: eligible }, suiteId, workspaceId: ctx.workspaceId, deletedAt: null },
          data: { status: input.status },
        });
  return { updated: count, skipped };
}

/**
 * Adds and removes tags on selected cases in one statement (order kept, duplicates dropped;
 * a tag both added and removed ends up removed). Archived cases are read-only and left alone.
 */
export async function bulkTags(
  ctx: WorkspaceContext,
  suiteId: string,
  ids: string[],
  add: string[],
  remove: string[],
): Promise<{ updated: number }> {
  requireRole(ctx, "editor");
  const input = parse(bulkTagsInput, { ids, add, remove });
  await requireLiveSuite(ctx, suiteId);
  if (input.add.length === 0 && input.remove.length === 0) return { updated: 0 };
  const updated = await db.$executeRaw`
    UPDATE "TestCase" AS t SET
      "tags" = ARRAY(
        SELECT u.tag FROM unnest(array_cat(t."tags", ${input.add}::text[])) WITH ORDINALITY AS u(tag, ord)
        WHERE NOT (u.tag = ANY(${input.remove}::text[]))
        GROUP BY u.tag ORDER BY min(u.ord)),
      "updatedAt" = now()
    WHERE t."id" = ANY(${[...new Set(input.ids)]}::uuid[]) AND t."suiteId" = ${suiteId}::uuid
      AND t."workspaceId" = ${ctx.workspaceId}::uuid AND t."deletedAt" IS NULL AND t."status" <> 'archived'`;
  return { updated };
}
