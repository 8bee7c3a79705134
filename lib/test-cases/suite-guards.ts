/**
 * Guards every test case write goes through: the suite must be live and in the caller's workspace
 * (optionally row-locked so sort orders are allocated one writer at a time), the case must be live
 * in a live suite, a whole case must pass `testCaseInput`, and its `max_turns` must fit the
 * workspace's safety cap. Shared by the test case service,
 * bulk edits, import/export and the list; the suite checks also by the features that start or
 * list work of a suite (runs, comparisons, matrices).
 */
import "server-only";
import { db, type Tx } from "@/lib/db";
import { NotFoundError, ValidationError, zodIssues } from "@/lib/errors";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { isUuid } from "@/lib/ids";
import { testCaseInput, type TestCaseData } from "@/lib/test-cases/schemas";
import { testCaseSelect, toTestCaseDto, type TestCaseDto } from "@/lib/test-cases/dto";
import { turnCapIssue } from "@/lib/test-cases/turn-cap";

/** The suite, if it is live and in the caller's workspace; NotFound otherwise. */
export async function requireLiveSuite(ctx: WorkspaceContext, suiteId: string, client: Tx | typeof db = db) {
  if (!isUuid(suiteId)) throw new NotFoundError("Suite");
  const suite = await client.suite.findFirst({
    where: { id: suiteId, workspaceId: ctx.workspaceId, deletedAt: null },
    select: { id: true, name: true },
  });
  if (!suite) throw new NotFoundError("Suite");
  return suite;
}

/** The suite, live or in the trash (its history stays readable), if it is in the caller's workspace; NotFound otherwise. */
export async function requireSuite(ctx: WorkspaceContext, suiteId: string): Promise<{ id: string }> {
  if (!isUuid(suiteId)) throw new NotFoundError("Suite");
  const suite = await db.suite.findFirst({ where: { id: suiteId, workspaceId: ctx.workspaceId }, select: { id: true } });
  if (!suite) throw new NotFoundError("Suite");
  return suite;
}

/**
 * Inside a transaction: checks the suite like requireLiveSuite and locks its row, so writes that
 * allocate or shift sort orders in that suite run one after another. FOR NO KEY UPDATE does not
 * block concurrent inserts that only reference the suite.
 */
export async function lockLiveSuite(tx: Tx, ctx: WorkspaceContext, suiteId: string) {
  if (!isUuid(suiteId)) throw new NotFoundError("Suite");
  const rows = await tx.$queryRaw<{ id: string; name: string }[]>`
    SELECT "id", "name" FROM "Suite"
    WHERE "id" = ${suiteId}::uuid AND "workspaceId" = ${ctx.workspaceId}::uuid AND "deletedAt" IS NULL
    FOR NO KEY UPDATE`;
  const suite = rows[0];
  if (!suite) throw new NotFoundError("Suite");
  return suite;
}

/** The next free sort order at the end of a suite (deleted cases keep their places). */
export async function nextSortOrder(tx: Tx, ctx: WorkspaceContext, suiteId: string): Promise<number> {
  const agg = await tx.testCase.aggregate({
    where: { suiteId, workspaceId: ctx.workspaceId },
    _max: { sortOrder: true },
  });
  return agg._max.sortOrder === null ? 0 : agg._max.sortOrder + 1;
}

/** Where-clause for a live case of a live suite in the caller's workspace. */
export function liveCaseWhere(ctx: WorkspaceContext, id: string) {
  return { id, workspaceId: ctx.workspaceId, deletedAt: null, suite: { deletedAt: null } };
}

export async function loadLiveCase(ctx: WorkspaceContext, id: string, client: Tx | typeof db = db): Promise<TestCaseDto> {
  if (!isUuid(id)) throw new NotFoundError("Test case");
  const row = await client.testCase.findFirst({ where: liveCaseWhere(ctx, id), select: testCaseSelect });
  if (!row) throw new NotFoundError("Test case");
  return toTestCaseDto(row);
}

/** The workspace's safety cap on conversation turns. */
export async function workspaceTurnCap(ctx: WorkspaceContext, client: Tx | typeof db = db): Promise<number> {
  const workspace = await client.workspace.findUnique({ where: { id: ctx.workspaceId }, select: { maxTurnsCap: true } });
  if (!workspace) throw new NotFoundError("Workspace");
  return workspace.maxTurnsCap;
}

/** ValidationError at `max_turns` when the case asks for more turns than the workspace's safety cap allows. */
export async function assertWithinTurnCap(ctx: WorkspaceContext, data: Pick<TestCaseData, "max_turns">, client: Tx | typeof db = db) {
  const issue = turnCapIssue(data.max_turns, await workspaceTurnCap(ctx, client));
  if (issue) throw new ValidationError("Please fix the highlighted fields", [issue]);
}

/** Validates a whole case; issue paths are relative to the case (`checks.0.threshold`). */
export function parseTestCase(raw: unknown): TestCaseData {
  const parsed = testCaseInput.safeParse(raw);
  if (!parsed.success) throw new ValidationError("Please fix the highlighted fields", zodIssues(parsed.error));
  return parsed.data;
}
