import "server-only";
import type { z } from "zod";
import type { Prisma } from "@/lib/generated/prisma/client";
import { iso } from "@/lib/serialize";
import type { calibrationResource, labelResource, reviewItemDetailResource, reviewItemResource, reviewerResource } from "./openapi";
import { judgedElements, judgeVerdictOf, type JudgedElements } from "./elements";
import type { JudgeInfo } from "./fingerprint";

/**
 * The review item's shapes: the Prisma selects, the row → DTO mappers (with blind review: the
 * judge's verdicts and the other labels are left out until the caller may see them) and the DTO
 * types, which are the outputs of the resource schemas in ./openapi.ts.
 */

export type ReviewItemDto = z.output<typeof reviewItemResource>;
export type ReviewItemDetail = z.output<typeof reviewItemDetailResource>;
export type ReviewLabelDto = z.output<typeof labelResource>;
export type ReviewerDto = z.output<typeof reviewerResource>;
export type JudgeCalibrationDto = z.output<typeof calibrationResource>;

export const labelSelect = {
  id: true,
  reviewerId: true,
  reviewerKeyId: true,
  verdict: true,
  elements: true,
  comment: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.ReviewLabelSelect;
type LabelRow = Prisma.ReviewLabelGetPayload<{ select: typeof labelSelect }>;

const resultVerdictSelect = {
  name: true,
  testCaseId: true,
  repetition: true,
  status: true,
  humanVerdict: true,
} as const satisfies Prisma.CaseResultSelect;

export const reviewItemSelect = {
  id: true,
  suiteId: true,
  runId: true,
  caseResultId: true,
  status: true,
  source: true,
  requiredReviews: true,
  judgeFingerprint: true,
  judgeInfo: true,
  assigneeId: true,
  createdById: true,
  resolvedVerdict: true,
  resolvedComment: true,
  resolvedById: true,
  resolvedAt: true,
  closedAt: true,
  createdAt: true,
  updatedAt: true,
  suite: { select: { name: true } },
  run: { select: { number: true } },
  caseResult: { select: resultVerdictSelect },
  labels: { select: labelSelect, orderBy: [{ createdAt: "asc" }, { id: "asc" }] },
} as const satisfies Prisma.ReviewItemSelect;
export type ReviewItemRow = Prisma.ReviewItemGetPayload<{ select: typeof reviewItemSelect }>;

export const reviewItemDetailSelect = {
  ...reviewItemSelect,
  caseResult: {
    select: {
      ...resultVerdictSelect,
      caseSnapshot: true,
      transcript: true,
      actualResponse: true,
      responseTruncated: true,
      failureReasons: true,
      errorMessage: true,
      checkResults: true,
      outcomeResults: true,
      metricResults: true,
      toolCallResults: true,
    },
  },
} as const satisfies Prisma.ReviewItemSelect;
export type ReviewItemDetailRow = Prisma.ReviewItemGetPayload<{ select: typeof reviewItemDetailSelect }>;

/** Who is asking: their own label is found by member id or API key id. */
export type Viewer = { userId: string | null; apiKeyId: string | null };

const isMine = (label: Pick<LabelRow, "reviewerId" | "reviewerKeyId">, viewer: Viewer) =>
  (viewer.userId !== null && label.reviewerId === viewer.userId) || (viewer.apiKeyId !== null && label.reviewerKeyId === viewer.apiKeyId);

/** Blind review: the judge (and the other labels) show once the viewer labelled the item, or once it is closed. */
export function judgeRevealed(row: Pick<ReviewItemRow, "status" | "labels">, viewer: Viewer): boolean {
  return row.status !== "open" || row.labels.some((l) => isMine(l, viewer));
}

type ElementVerdicts = Record<string, boolean>;
/** A label's stored element verdicts, each level an object of key → met. */
export function labelElements(raw: unknown): { outcomes: ElementVerdicts; checks: ElementVerdicts; metrics: ElementVerdicts } {
  const e = (raw ?? {}) as Record<string, unknown>;
  const level = (v: unknown): ElementVerdicts =>
    v && typeof v === "object"
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).filter((kv): kv is [string, boolean] => typeof kv[1] === "boolean"))
      : {};
  return { outcomes: level(e.outcomes), checks: level(e.checks), metrics: level(e.metrics) };
}

/** Display names of reviewers (members and API keys), filled by the service. */
export type ReviewerNames = Map<string, string>;

export function toLabelDto(l: LabelRow, names: ReviewerNames): ReviewLabelDto {
  const reviewer: ReviewerDto = l.reviewerId
    ? { type: "user", id: l.reviewerId, name: names.get(l.reviewerId) ?? null }
    : { type: "api_key", id: l.reviewerKeyId!, name: names.get(l.reviewerKeyId!) ?? null };
  return {
    id: l.id,
    reviewer,
    verdict: l.verdict,
    ...labelElements(l.elements),
    comment: l.comment,
    created_at: iso(l.createdAt)!,
    updated_at: iso(l.updatedAt)!,
  };
}

export function toReviewItemDto(row: ReviewItemRow, viewer: Viewer): ReviewItemDto {
  const revealed = judgeRevealed(row, viewer);
  const judge = judgeVerdictOf(row.caseResult.status) ?? "error";
  const human = row.caseResult.humanVerdict;
  const mine = row.labels.find((l) => isMine(l, viewer));
  return {
    id: row.id,
    suite_id: row.suiteId,
    suite_name: row.suite.name,
    run_id: row.runId,
    run_number: row.run.number,
    case_result_id: row.caseResultId,
    test_case_id: row.caseResult.testCaseId,
    case_name: row.caseResult.name,
    trial: row.caseResult.repetition,
    status: row.status,
    source: row.source,
    required_reviews: row.requiredReviews,
    label_count: row.labels.length,
    assignee_id: row.assigneeId,
    created_by_id: row.createdById,
    judge_fingerprint: row.judgeFingerprint,
    judge: row.judgeInfo as JudgeInfo,
    judge_revealed: revealed,
    judge_verdict: revealed ? judge : null,
    human_verdict: human,
    overturned: revealed && human && judge !== "error" ? human !== judge : null,
    my_verdict: mine?.verdict ?? null,
    resolution:
      row.resolvedVerdict && row.resolvedAt
        ? {
            verdict: row.resolvedVerdict,
            comment: row.resolvedComment,
            resolved_by_id: row.resolvedById,
            resolved_at: iso(row.resolvedAt)!,
          }
        : null,
    created_at: iso(row.createdAt)!,
    updated_at: iso(row.updatedAt)!,
    closed_at: iso(row.closedAt),
  };
}

/** Elements without the judge's side, for a reviewer who has not labelled yet. */
function blindElements(elements: JudgedElements): ReviewItemDetail["elements"] {
  const strip = (list: JudgedElements["outcomes"]) => list.map(({ key, label, expected }) => ({ key, label, expected }));
  return { outcomes: strip(elements.outcomes), checks: strip(elements.checks), metrics: strip(elements.metrics) };
}

export function toReviewItemDetail(row: ReviewItemDetailRow, viewer: Viewer, names: ReviewerNames): ReviewItemDetail {
  const base = toReviewItemDto(row, viewer);
  const r = row.caseResult;
  const elements = judgedElements(r);
  const revealed = base.judge_revealed;
  const labels = row.labels.filter((l) => revealed || isMine(l, viewer)).map((l) => toLabelDto(l, names));
  return {
    ...base,
    case: {
      test_case: r.caseSnapshot,
      transcript: Array.isArray(r.transcript) ? r.transcript : [],
      actual_response: r.actualResponse,
      response_truncated: r.responseTruncated,
    },
    elements: revealed ? elements : blindElements(elements),
    judge_result: revealed
      ? {
          status: r.status,
          failure_reasons: r.failureReasons,
          error_message: r.errorMessage,
          check_results: Array.isArray(r.checkResults) ? r.checkResults : [],
          outcome_results: Array.isArray(r.outcomeResults) ? r.outcomeResults : [],
          metric_results: Array.isArray(r.metricResults) ? r.metricResults : [],
          tool_call_results: r.toolCallResults ?? null,
        }
      : null,
    labels,
  };
}
