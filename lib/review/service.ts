/**
 * Human review: review items (one per case result), reviewers' labels, conflicts and their
 * resolution, and the human verdict a result gets from them. The judge's verdict (the result's
 * status) is never overwritten: the human verdict sits beside it, and the run keeps counters of
 * its results' human verdicts (reviewedCases, overturnedCases, reviewPassDelta), updated in the
 * transaction that sets one, so run summaries show the reviewed pass rate without a scan.
 *
 * Items are created by a person (the case view, the run page, POST /api/v1/review-items) or by
 * the suite's review rules when a run finishes (./rules.ts, which shares `queueResults`). Every
 * query is scoped by `workspaceId`; reads are viewer, labels and sending editor, resolving admin.
 */
import "server-only";
import { db } from "@/lib/db";
import { actorNames } from "@/lib/workspaces/members";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ConflictError, NotFoundError, ValidationError } from "@/lib/errors";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import { isUuid } from "@/lib/ids";
import { pageNewestFirst } from "@/lib/serialize";
import { judgedElements, judgeVerdictOf, unknownElementIssues } from "./elements";
import { runJudgeFingerprint } from "./fingerprint";
import {
  reviewItemDetailSelect,
  reviewItemSelect,
  toReviewItemDetail,
  toReviewItemDto,
  type ReviewerNames,
  type ReviewItemDetail,
  type ReviewItemDetailRow,
  type ReviewItemDto,
  type ReviewItemRow,
  type Viewer,
} from "./dto";
import type { CreateReviewItemsInput, HumanVerdictValue, LabelInput, ReviewItemListQuery } from "./schemas";

type Tx = Prisma.TransactionClient;
type Source = "manual" | "failed" | "sampled" | "flaky";

const viewerOf = (ctx: WorkspaceContext): Viewer => ({ userId: ctx.userId, apiKeyId: ctx.apiKeyId });

/** The member an "assigned to me" means: the signed-in member, or the member who created the API key. */
async function memberOf(ctx: WorkspaceContext): Promise<string | null> {
  if (ctx.userId) return ctx.userId;
  if (!ctx.apiKeyId) return null;
  const key = await db.apiKey.findFirst({ where: { id: ctx.apiKeyId, workspaceId: ctx.workspaceId }, select: { createdById: true } });
  return key?.createdById ?? null;
}

/** Names of the reviewers of these items (members by name or email, API keys by name). */
function reviewerNames(workspaceId: string, rows: Pick<ReviewItemRow, "labels">[]): Promise<ReviewerNames> {
  const labels = rows.flatMap((r) => r.labels);
  return actorNames(workspaceId, {
    userIds: labels.flatMap((l) => (l.reviewerId ? [l.reviewerId] : [])),
    keyIds: labels.flatMap((l) => (l.reviewerKeyId ? [l.reviewerKeyId] : [])),
  });
}

/**
 * Queues case results of one run for review, one item per result (a result already queued is
 * left as it is). Results that are not finished with a verdict or an error are skipped. Returns
 * how many items were created. Used by "Send to review" and by the review rules.
 */
export async function queueResults(
  tx: Tx,
  args: {
    workspaceId: string;
    runId: string;
    caseResultIds: string[];
    source: Source;
    createdById: string | null;
    assigneeId?: string | null;
  },
): Promise<number> {
  if (args.caseResultIds.length === 0) return 0;
  const run = await tx.run.findFirst({
    where: { id: args.runId, workspaceId: args.workspaceId },
    select: { suiteId: true, evalSnapshot: true, suite: { select: { requiredReviews: true } } },
  });
  if (!run) return 0;
  const { fingerprint, info } = runJudgeFingerprint(run.evalSnapshot);
  const created = await tx.reviewItem.createMany({
    data: args.caseResultIds.map((caseResultId) => ({
      workspaceId: args.workspaceId,
      suiteId: run.suiteId,
      runId: args.runId,
      caseResultId,
      source: args.source,
      requiredReviews: run.suite.requiredReviews,
      judgeFingerprint: fingerprint,
      judgeInfo: info,
      createdById: args.createdById,
      assigneeId: args.assigneeId ?? null,
    })),
    skipDuplicates: true,
  });
  return created.count;
}

const REVIEWABLE = ["passed", "failed", "error"] as const;

async function requireAssignee(workspaceId: string, assigneeId: string | null | undefined): Promise<void> {
  if (!assigneeId) return;
  const member = await db.membership.findFirst({ where: { workspaceId, userId: assigneeId }, select: { userId: true } });
  if (!member)
    throw new ValidationError("Assign the item to a member of this workspace", [
      { path: "assignee_id", message: "Not a member of this workspace" },
    ]);
}

/** POST /api/v1/review-items, "Send to review": one item per finished case result, in one transaction. */
export async function createReviewItems(
  ctx: WorkspaceContext,
  input: CreateReviewItemsInput,
): Promise<{ data: ReviewItemDto[]; created: number }> {
  requireRole(ctx, "editor");
  const ids = [...new Set(input.case_result_ids)];
  const results = await db.caseResult.findMany({
    where: { id: { in: ids }, workspaceId: ctx.workspaceId },
    select: { id: true, runId: true, status: true },
  });
  if (results.length < ids.length) {
    const found = new Set(results.map((r) => r.id));
    const missing = ids.findIndex((id) => !found.has(id));
    throw new NotFoundError(`Case result ${ids[missing]}`);
  }
  const unfinished = results.find((r) => !(REVIEWABLE as readonly string[]).includes(r.status));
  if (unfinished) {
    const index = input.case_result_ids.indexOf(unfinished.id);
    const message = `Case result ${unfinished.id} is ${unfinished.status}: only passed, failed or errored results can be reviewed`;
    throw new ConflictError(message, [{ path: `case_result_ids.${index}`, message }]);
  }
  await requireAssignee(ctx.workspaceId, input.assignee_id);
  const createdById = await memberOf(ctx);
  const byRun = Map.groupBy(results, (r) => r.runId);
  const created = await db.$transaction(async (tx) => {
    let n = 0;
    for (const [runId, rows] of byRun) {
      n += await queueResults(tx, {
        workspaceId: ctx.workspaceId,
        runId,
        caseResultIds: rows.map((r) => r.id),
        source: "manual",
        createdById,
        assigneeId: input.assignee_id ?? null,
      });
    }
    return n;
  });
  const rows = await db.reviewItem.findMany({
    where: { workspaceId: ctx.workspaceId, caseResultId: { in: ids } },
    select: reviewItemSelect,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return { data: rows.map((r) => toReviewItemDto(r, viewerOf(ctx))), created };
}

/** The filter of an item list (API, Review page, the suite's disagreements). */
async function listWhere(ctx: WorkspaceContext, q: ReviewItemListQuery): Promise<Prisma.ReviewItemWhereInput> {
  const and: Prisma.ReviewItemWhereInput[] = [{ workspaceId: ctx.workspaceId }];
  if (q.status) and.push({ status: q.status });
  if (q.suite_id) and.push({ suiteId: q.suite_id });
  if (q.run_id) and.push({ runId: q.run_id });
  if (q.assigned_to) {
    const member = q.assigned_to === "me" ? await memberOf(ctx) : q.assigned_to;
    // "me" for an API key nobody created matches nothing.
    and.push({ assigneeId: member ?? "00000000-0000-0000-0000-000000000000" });
  }
  if (q.overturned) {
    and.push({
      OR: [{ caseResult: { humanVerdict: "pass", status: "failed" } }, { caseResult: { humanVerdict: "fail", status: "passed" } }],
    });
  }
  if (q.todo) {
    const member = await memberOf(ctx);
    and.push({ status: "open" });
    and.push({ labels: { none: ctx.userId ? { reviewerId: ctx.userId } : { reviewerKeyId: ctx.apiKeyId ?? undefined } } });
    and.push({ OR: [{ assigneeId: null }, ...(member ? [{ assigneeId: member }] : [])] });
  }
  return { AND: and };
}

/** GET /api/v1/review-items and the Review page's queue: newest first, keyset pages. */
export async function listReviewItems(
  ctx: WorkspaceContext,
  q: ReviewItemListQuery,
): Promise<{ data: ReviewItemDto[]; next_cursor: string | null }> {
  requireRole(ctx, "viewer");
  const { page, next_cursor } = await pageNewestFirst(q, async (query) => {
    const where = await listWhere(ctx, q);
    return db.reviewItem.findMany({ ...query, where: { AND: [where, query.where] }, select: reviewItemSelect });
  });
  return { data: page.map((r) => toReviewItemDto(r, viewerOf(ctx))), next_cursor };
}

/** How many items wait for the caller: open, not labelled by them, assigned to them or to nobody (the nav's count). */
export async function countMyOpenItems(ctx: WorkspaceContext): Promise<number> {
  requireRole(ctx, "viewer");
  const where = await listWhere(ctx, { todo: true, overturned: false, limit: 1 });
  return db.reviewItem.count({ where });
}

/** The ids of the queue around an item, for the labelling view's next/previous (same filters, newest first). */
export async function neighbourItems(
  ctx: WorkspaceContext,
  id: string,
  q: ReviewItemListQuery,
): Promise<{ previous: string | null; next: string | null; position: number; total: number }> {
  requireRole(ctx, "viewer");
  const where = await listWhere(ctx, q);
  // A queue is worked a page at a time: its first 1,000 ids are enough to place an item and its neighbours.
  const ids = (
    await db.reviewItem.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: 1000, select: { id: true } })
  ).map((r) => r.id);
  const i = ids.indexOf(id);
  return {
    previous: i > 0 ? ids[i - 1]! : null,
    next: i >= 0 && i + 1 < ids.length ? ids[i + 1]! : i < 0 ? (ids[0] ?? null) : null,
    position: i + 1,
    total: ids.length,
  };
}

async function detailRow(ctx: WorkspaceContext, id: string) {
  if (!isUuid(id)) throw new NotFoundError("Review item");
  const row = await db.reviewItem.findFirst({ where: { id, workspaceId: ctx.workspaceId }, select: reviewItemDetailSelect });
  if (!row) throw new NotFoundError("Review item");
  return row;
}

/** GET /api/v1/review-items/{id} and the labelling view: blind until the caller labelled it. */
export async function getReviewItem(ctx: WorkspaceContext, id: string): Promise<ReviewItemDetail> {
  requireRole(ctx, "viewer");
  const row = await detailRow(ctx, id);
  return toReviewItemDetail(row, viewerOf(ctx), await reviewerNames(ctx.workspaceId, [row]));
}

/** PATCH /api/v1/review-items/{id}: assign to a member, or unassign (null). */
export async function updateReviewItem(ctx: WorkspaceContext, id: string, input: { assignee_id: string | null }): Promise<ReviewItemDto> {
  requireRole(ctx, "editor");
  if (!isUuid(id)) throw new NotFoundError("Review item");
  const existing = await db.reviewItem.findFirst({ where: { id, workspaceId: ctx.workspaceId }, select: { id: true } });
  if (!existing) throw new NotFoundError("Review item");
  await requireAssignee(ctx.workspaceId, input.assignee_id);
  const row = await db.reviewItem.update({ where: { id }, data: { assigneeId: input.assignee_id }, select: reviewItemSelect });
  return toReviewItemDto(row, viewerOf(ctx));
}

/**
 * Sets a result's human verdict and the run's review counters, in the caller's transaction. A
 * result gets its human verdict once (its item closes then), so the counters only ever add.
 */
async function setHumanVerdict(tx: Tx, item: { caseResultId: string; runId: string }, verdict: HumanVerdictValue, byId: string | null) {
  const result = await tx.caseResult.update({
    where: { id: item.caseResultId },
    data: { humanVerdict: verdict, humanVerdictById: byId, humanVerdictAt: new Date() },
    select: { status: true },
  });
  const judge = judgeVerdictOf(result.status);
  const passDelta = verdict === "pass" && result.status !== "passed" ? 1 : verdict === "fail" && result.status === "passed" ? -1 : 0;
  await tx.run.update({
    where: { id: item.runId },
    data: {
      reviewedCases: { increment: 1 },
      overturnedCases: { increment: judge && judge !== verdict ? 1 : 0 },
      reviewPassDelta: { increment: passDelta },
    },
  });
}

/** Locks the item for a label or a resolution: concurrent reviewers close it exactly once. */
async function lockItem(tx: Tx, workspaceId: string, id: string) {
  const locked = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "ReviewItem" WHERE "id" = ${id}::uuid AND "workspaceId" = ${workspaceId}::uuid FOR NO KEY UPDATE`;
  if (locked.length === 0) throw new NotFoundError("Review item");
  return tx.reviewItem.findUniqueOrThrow({
    where: { id },
    select: {
      id: true,
      runId: true,
      caseResultId: true,
      status: true,
      requiredReviews: true,
      caseResult: { select: { caseSnapshot: true, checkResults: true, outcomeResults: true, metricResults: true } },
    },
  });
}

/**
 * POST /api/v1/review-items/{id}/labels: the caller's label (created, or replaced while the item
 * is open). With its required labels the item closes: agreed when every label gave the same
 * verdict (the result gets it as its human verdict), conflict otherwise.
 */
export async function labelReviewItem(ctx: WorkspaceContext, id: string, input: LabelInput): Promise<ReviewItemDetail> {
  requireRole(ctx, "editor");
  if (!isUuid(id)) throw new NotFoundError("Review item");
  const reviewer = ctx.userId ? { reviewerId: ctx.userId } : { reviewerKeyId: ctx.apiKeyId! };
  const byMember = await memberOf(ctx);
  await db.$transaction(async (tx) => {
    const item = await lockItem(tx, ctx.workspaceId, id);
    if (item.status !== "open") throw new ConflictError(`This item is ${item.status}: labels can change only while it is open`);
    const issues = unknownElementIssues(input, judgedElements(item.caseResult));
    if (issues.length) throw new ValidationError("The label names elements this case does not have", issues);
    const data = {
      verdict: input.verdict,
      elements: { outcomes: input.outcomes ?? {}, checks: input.checks ?? {}, metrics: input.metrics ?? {} },
      comment: input.comment,
    };
    const mine = await tx.reviewLabel.findFirst({ where: { itemId: id, ...reviewer }, select: { id: true } });
    if (mine) await tx.reviewLabel.update({ where: { id: mine.id }, data });
    else await tx.reviewLabel.create({ data: { workspaceId: ctx.workspaceId, itemId: id, ...reviewer, ...data } });

    const verdicts = (await tx.reviewLabel.findMany({ where: { itemId: id }, select: { verdict: true } })).map((l) => l.verdict);
    if (verdicts.length < item.requiredReviews) return;
    const agreed = verdicts.every((v) => v === verdicts[0]);
    await tx.reviewItem.update({ where: { id }, data: { status: agreed ? "agreed" : "conflict", closedAt: new Date() } });
    if (agreed) await setHumanVerdict(tx, item, verdicts[0]!, byMember);
  });
  return getReviewItem(ctx, id);
}

/** POST /api/v1/review-items/{id}/resolve: an admin decides an item in conflict; the result gets that human verdict. */
export async function resolveReviewItem(
  ctx: WorkspaceContext,
  id: string,
  input: { verdict: HumanVerdictValue; comment: string | null },
): Promise<ReviewItemDetail> {
  requireRole(ctx, "admin");
  if (!isUuid(id)) throw new NotFoundError("Review item");
  const byMember = await memberOf(ctx);
  await db.$transaction(async (tx) => {
    const item = await lockItem(tx, ctx.workspaceId, id);
    if (item.status !== "conflict") throw new ConflictError(`This item is ${item.status}: only an item in conflict is resolved`);
    await tx.reviewItem.update({
      where: { id },
      data: {
        status: "resolved",
        resolvedVerdict: input.verdict,
        resolvedComment: input.comment,
        resolvedById: byMember,
        resolvedAt: new Date(),
      },
    });
    await setHumanVerdict(tx, item, input.verdict, byMember);
  });
  return getReviewItem(ctx, id);
}

/** The review item of each of these case results, for the run page's badges and the case view. */
export async function reviewItemsOfResults(
  ctx: WorkspaceContext,
  caseResultIds: string[],
): Promise<Map<string, { id: string; status: ReviewItemDto["status"] }>> {
  requireRole(ctx, "viewer");
  if (caseResultIds.length === 0) return new Map();
  const rows = await db.reviewItem.findMany({
    where: { workspaceId: ctx.workspaceId, caseResultId: { in: caseResultIds } },
    select: { id: true, status: true, caseResultId: true },
  });
  return new Map(rows.map((r) => [r.caseResultId, { id: r.id, status: r.status }]));
}

const EXPORT_PAGE = 200;

/**
 * GET /api/v1/review-items/export: one JSON line per closed item (agreed, conflict, resolved) —
 * the case, transcript, judge verdicts, human verdict, every label and comment — read a page at a
 * time in (createdAt, id) order, so a large export never holds every item.
 */
export function exportReviewLabels(ctx: WorkspaceContext, q: { suite_id?: string; run_id?: string }): AsyncGenerator<string> {
  // Checked before the first line is asked for: a refused export answers 403, not an empty stream.
  requireRole(ctx, "viewer");
  return exportLines(ctx, q);
}

async function* exportLines(ctx: WorkspaceContext, q: { suite_id?: string; run_id?: string }): AsyncGenerator<string> {
  let after: { createdAt: Date; id: string } | null = null;
  for (;;) {
    const cursor: { createdAt: Date; id: string } | null = after;
    const rows: ReviewItemDetailRow[] = await db.reviewItem.findMany({
      where: {
        workspaceId: ctx.workspaceId,
        status: { not: "open" },
        ...(q.suite_id ? { suiteId: q.suite_id } : {}),
        ...(q.run_id ? { runId: q.run_id } : {}),
        ...(cursor ? { OR: [{ createdAt: { gt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { gt: cursor.id } }] } : {}),
      },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: EXPORT_PAGE,
      select: reviewItemDetailSelect,
    });
    if (rows.length === 0) return;
    const names = await reviewerNames(ctx.workspaceId, rows);
    for (const row of rows) {
      const d = toReviewItemDetail(row, viewerOf(ctx), names);
      yield (
        JSON.stringify({
          item_id: d.id,
          suite_id: d.suite_id,
          run_id: d.run_id,
          case_result_id: d.case_result_id,
          case: { test_case_id: d.test_case_id, name: d.case_name, trial: d.trial, snapshot: d.case.test_case },
          transcript: d.case.transcript,
          actual_response: d.case.actual_response,
          judge: {
            fingerprint: d.judge_fingerprint,
            ...d.judge,
            verdict: judgeVerdictOf(row.caseResult.status) ?? "error",
            result: d.judge_result,
          },
          human: { status: d.status, verdict: d.human_verdict, resolution: d.resolution },
          labels: d.labels,
        }) + "\n"
      );
    }
    const last = rows[rows.length - 1]!;
    after = { createdAt: last.createdAt, id: last.id };
    if (rows.length < EXPORT_PAGE) return;
  }
}
