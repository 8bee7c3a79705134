/**
 * Test cases: read, create, update, status changes (draft → active → archived, restore), soft
 * delete and duplicate; listing and bulk edits live in ./list.ts and ./bulk.ts and are re-exported
 * here so callers import one module. Called by the case pages and actions and the /api/v1
 * test-case routes. Every query is scoped by `workspaceId`; input is validated with the same zod
 * schema as the form and the import, and archived cases are read-only.
 */
import "server-only";
import { isDeepStrictEqual } from "node:util";
import { db } from "@/lib/db";
import { ConflictError, NotFoundError, ValidationError, prismaErrorCode, zodIssues } from "@/lib/errors";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import { isUuid } from "@/lib/ids";
import type { z } from "zod";
import type { Tx } from "@/lib/db";
import {
  RUNNABLE_MESSAGE,
  caseSourceInput,
  isRunnable,
  testCaseFields,
  testCasePatch,
  type CaseSource,
  type TestCaseStatus,
} from "@/lib/test-cases/schemas";
import { testCaseSelect, toColumns, toTestCaseDocument, toTestCaseDto, type TestCaseDto } from "@/lib/test-cases/dto";
import {
  assertWithinTurnCap,
  liveCaseWhere,
  loadLiveCase,
  lockLiveSuite,
  nextSortOrder,
  parseTestCase,
} from "@/lib/test-cases/suite-guards";
import { assertCaseFitsAgent, suiteVariableDefinitions } from "@/lib/test-cases/variable-guards";
import { assertCaseFiles } from "@/lib/files/service";

export { toTestCaseDto, type TestCaseDto, type TestCaseDocument } from "@/lib/test-cases/dto";
export { listTestCases, listSuiteTags, listTestCaseIds, type TestCaseListPage } from "@/lib/test-cases/list";
export { reorderTestCases, bulkSetStatus, bulkTags } from "@/lib/test-cases/bulk";

export const ARCHIVED_READ_ONLY = "Archived test cases are read-only; restore it first";
export const COPY_SUFFIX = " (copy)";

/** A status to set, or `restore`: archived → active when the case can run, else draft. */
export type StatusChange = TestCaseStatus | "restore";

export async function getTestCase(ctx: WorkspaceContext, id: string): Promise<TestCaseDto> {
  requireRole(ctx, "viewer");
  return loadLiveCase(ctx, id);
}

/** Creates a case at the end of the suite (or at `sort_order` when given). */
export async function createTestCase(ctx: WorkspaceContext, suiteId: string, raw: unknown): Promise<TestCaseDto> {
  requireRole(ctx, "editor");
  const data = parseTestCase(raw);
  const sourceInput = parseCaseSource(raw);
  return db.$transaction(async (tx) => {
    await lockLiveSuite(tx, ctx, suiteId);
    assertCaseFitsAgent(data, await suiteVariableDefinitions(ctx, suiteId, tx));
    await assertWithinTurnCap(ctx, data, tx);
    await assertCaseFiles(ctx, data.files, tx);
    const sortOrder = data.sort_order ?? (await nextSortOrder(tx, ctx, suiteId));
    const row = await tx.testCase.create({
      data: {
        ...toColumns(data),
        workspaceId: ctx.workspaceId,
        suiteId,
        sortOrder,
        ...(sourceInput ? { source: await resolveCaseSource(tx, ctx, sourceInput) } : {}),
      },
      select: testCaseSelect,
    });
    return toTestCaseDto(row);
  });
}

/** The optional `source` sent beside a new case's fields (400 at `source…` when malformed). */
function parseCaseSource(raw: unknown): z.output<typeof caseSourceInput> {
  const value = raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as { source?: unknown }).source : undefined;
  const parsed = caseSourceInput.safeParse(value);
  if (!parsed.success) throw new ValidationError("Please fix the highlighted fields", zodIssues(parsed.error, ["source"]));
  return parsed.data;
}

/** The origin as recorded: the conversation's service and start, or the case result's run and time (400 when not in the workspace). */
async function resolveCaseSource(tx: Tx, ctx: WorkspaceContext, input: NonNullable<z.output<typeof caseSourceInput>>): Promise<CaseSource> {
  if (input.type === "conversation") {
    const c = await tx.trafficConversation.findFirst({
      where: { id: input.conversation_id, workspaceId: ctx.workspaceId },
      select: { serviceName: true, startedAt: true },
    });
    if (!c)
      throw new ValidationError("Unknown conversation", [
        { path: "source.conversation_id", message: "No such conversation in this workspace" },
      ]);
    return { type: "conversation", conversation_id: input.conversation_id, service: c.serviceName, time: c.startedAt.toISOString() };
  }
  const r = await tx.caseResult.findFirst({
    where: { id: input.case_result_id, workspaceId: ctx.workspaceId },
    select: { runId: true, createdAt: true },
  });
  if (!r)
    throw new ValidationError("Unknown case result", [{ path: "source.case_result_id", message: "No such case result in this workspace" }]);
  return { type: "case_result", case_result_id: input.case_result_id, run_id: r.runId, time: r.createdAt.toISOString() };
}

const FIELD_NAMES = Object.keys(testCaseFields.shape) as (keyof typeof testCaseFields.shape)[];

/**
 * PATCH: the fields present in `raw` replace the stored ones; the merged case is validated as a
 * whole (so e.g. activating a case that cannot run fails at `status`). Archived cases accept
 * only a status change.
 */
export async function updateTestCase(ctx: WorkspaceContext, id: string, raw: unknown): Promise<TestCaseDto> {
  requireRole(ctx, "editor");
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
    throw new ValidationError("Send the fields to change as a JSON object", [{ path: "", message: "Expected an object" }]);
  }
  const patch = testCasePatch.safeParse(raw);
  if (!patch.success) throw new ValidationError("Please fix the highlighted fields", zodIssues(patch.error));
  const current = await loadLiveCase(ctx, id);

  // Only the keys the client sent: the patch schema fills defaults for absent ones.
  const sent = FIELD_NAMES.filter((k) => Object.hasOwn(raw, k));
  const changes: Record<string, unknown> = {};
  for (const k of sent) changes[k] = (patch.data as Record<string, unknown>)[k];
  const merged = parseTestCase({ ...toTestCaseDocument(current), ...changes });
  const sortOrder = typeof changes.sort_order === "number" ? changes.sort_order : current.sort_order;
  assertCaseFitsAgent(merged, await suiteVariableDefinitions(ctx, current.suite_id));
  await assertWithinTurnCap(ctx, merged);

  if (current.status === "archived") {
    const before = testCaseFields.safeParse(toTestCaseDocument(current));
    const { status: _a, sort_order: _b, ...after } = merged;
    const unchanged = before.success && sortOrder === current.sort_order && isDeepStrictEqual(after, omitStatus(before.data));
    if (!unchanged) throw new ConflictError(ARCHIVED_READ_ONLY);
  }

  try {
    // In one transaction with the file check: the referenced files stay locked until the case row is written.
    const row = await db.$transaction(async (tx) => {
      await assertCaseFiles(ctx, merged.files, tx);
      return tx.testCase.update({
        where: { id, workspaceId: ctx.workspaceId, deletedAt: null },
        data: { ...toColumns(merged), sortOrder },
        select: testCaseSelect,
      });
    });
    return toTestCaseDto(row);
  } catch (err) {
    if (prismaErrorCode(err) === "P2025") throw new NotFoundError("Test case");
    throw err;
  }
}

function omitStatus<T extends { status: unknown; sort_order?: unknown }>(c: T) {
  const { status: _s, sort_order: _o, ...rest } = c;
  return rest;
}

/** One-click lifecycle changes: activate, archive, back to draft, restore. */
export async function setTestCaseStatus(ctx: WorkspaceContext, id: string, change: StatusChange): Promise<TestCaseDto> {
  requireRole(ctx, "editor");
  const current = await loadLiveCase(ctx, id);
  const target: TestCaseStatus =
    change !== "restore" ? change : current.status !== "archived" ? current.status : isRunnable(current) ? "active" : "draft";
  if (target === current.status) return current;
  if (target === "active" && !isRunnable(current)) {
    throw new ValidationError(RUNNABLE_MESSAGE, [{ path: "status", message: RUNNABLE_MESSAGE }]);
  }
  const { count } = await db.testCase.updateMany({ where: liveCaseWhere(ctx, id), data: { status: target } });
  if (count === 0) throw new NotFoundError("Test case");
  return loadLiveCase(ctx, id);
}

/** Soft delete; restoreTestCase brings it back. */
export async function deleteTestCase(ctx: WorkspaceContext, id: string): Promise<void> {
  requireRole(ctx, "editor");
  if (!isUuid(id)) throw new NotFoundError("Test case");
  const { count } = await db.testCase.updateMany({ where: liveCaseWhere(ctx, id), data: { deletedAt: new Date() } });
  if (count === 0) throw new NotFoundError("Test case");
}

export async function restoreTestCase(ctx: WorkspaceContext, id: string): Promise<TestCaseDto> {
  requireRole(ctx, "editor");
  if (!isUuid(id)) throw new NotFoundError("Test case");
  const { count } = await db.testCase.updateMany({
    where: { id, workspaceId: ctx.workspaceId, suite: { deletedAt: null } },
    data: { deletedAt: null },
  });
  if (count === 0) throw new NotFoundError("Test case");
  return loadLiveCase(ctx, id);
}

export function copyName(name: string): string {
  return name.slice(0, 255 - COPY_SUFFIX.length) + COPY_SUFFIX;
}

/** Copies a case as a draft named "<name> (copy)", placed right after the original. */
export async function duplicateTestCase(ctx: WorkspaceContext, id: string): Promise<TestCaseDto> {
  requireRole(ctx, "editor");
  if (!isUuid(id)) throw new NotFoundError("Test case");
  return db.$transaction(async (tx) => {
    const located = await tx.testCase.findFirst({ where: liveCaseWhere(ctx, id), select: { suiteId: true } });
    if (!located) throw new NotFoundError("Test case");
    await lockLiveSuite(tx, ctx, located.suiteId);
    const original = await loadLiveCase(ctx, id, tx);
    await tx.testCase.updateMany({
      where: { suiteId: original.suite_id, workspaceId: ctx.workspaceId, sortOrder: { gt: original.sort_order } },
      data: { sortOrder: { increment: 1 } },
    });
    const data = parseTestCase({ ...toTestCaseDocument(original), name: copyName(original.name), status: "draft" });
    await assertWithinTurnCap(ctx, data, tx);
    const row = await tx.testCase.create({
      data: { ...toColumns(data), workspaceId: ctx.workspaceId, suiteId: original.suite_id, sortOrder: original.sort_order + 1 },
      select: testCaseSelect,
    });
    return toTestCaseDto(row);
  });
}
