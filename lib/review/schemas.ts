import { z } from "zod";
import { booleanQuery, paginationQuery } from "@/lib/api/query";
import { TEXT_LIMITS } from "@/lib/validation/limits";

/**
 * Query and input schemas of human review: review items, labels, resolution, the queue's
 * filters, the labels export and a suite's review settings. No `server-only`: the OpenAPI
 * builder and the review pages import them too.
 */

export const REVIEW_ITEM_STATUSES = ["open", "agreed", "conflict", "resolved"] as const;
export type ReviewItemStatus = (typeof REVIEW_ITEM_STATUSES)[number];
export const REVIEW_ITEM_SOURCES = ["manual", "failed", "sampled", "flaky"] as const;
export const HUMAN_VERDICTS = ["pass", "fail"] as const;
export type HumanVerdictValue = (typeof HUMAN_VERDICTS)[number];

/** At most this many case results per "Send to review" (a run page's bulk selection). */
export const MAX_ITEMS_PER_REQUEST = 500;

const verdict = z.enum(HUMAN_VERDICTS, { error: "verdict must be pass or fail" });
const comment = z
  .string({ error: "comment must be a string" })
  .trim()
  .max(TEXT_LIMITS.description, `At most ${TEXT_LIMITS.description} characters`)
  .nullish()
  .transform((v) => v || null);

/** POST /api/v1/review-items: the case results to review, optionally assigned to a member. */
export const createReviewItemsInput = z.object({
  case_result_ids: z
    .array(z.uuid("Each case result id must be a UUID"), { error: "case_result_ids must be a list of case result ids" })
    .min(1, "Give at least one case result")
    .max(MAX_ITEMS_PER_REQUEST, `At most ${MAX_ITEMS_PER_REQUEST} case results at once`),
  assignee_id: z.uuid("assignee_id must be a member's user id").nullish(),
});
export type CreateReviewItemsInput = z.output<typeof createReviewItemsInput>;

/** PATCH /api/v1/review-items/{id}: assignment (null unassigns). */
export const updateReviewItemInput = z.object({
  assignee_id: z.uuid("assignee_id must be a member's user id").nullable(),
});

const elementVerdicts = (what: string) =>
  z.record(z.string().max(500), z.boolean({ error: `Each ${what} verdict must be true (met) or false (not met)` }), {
    error: `${what}s must be an object of name → true/false`,
  });

/**
 * POST /api/v1/review-items/{id}/labels: the overall verdict and, optionally, a verdict per judged
 * element the case has — its expected outcome labels, its `llm_judge` checks by index, its
 * metrics by name (met: true) — and a comment.
 */
export const labelInput = z.object({
  verdict,
  outcomes: elementVerdicts("outcome").optional(),
  checks: elementVerdicts("check").optional(),
  metrics: elementVerdicts("metric").optional(),
  comment,
});
export type LabelInput = z.output<typeof labelInput>;

/** POST /api/v1/review-items/{id}/resolve: an admin's verdict on an item in conflict. */
export const resolveInput = z.object({ verdict, comment });

/** GET /api/v1/review-items: the queue's filters, keyset pages newest first. */
export const reviewItemListQuery = paginationQuery.extend({
  status: z.enum(REVIEW_ITEM_STATUSES, { error: "status must be open, agreed, conflict or resolved" }).optional(),
  suite_id: z.uuid("suite_id must be a UUID").optional(),
  run_id: z.uuid("run_id must be a UUID").optional(),
  assigned_to: z.union([z.literal("me"), z.uuid()], { error: "assigned_to must be me or a member's user id" }).optional(),
  overturned: booleanQuery("overturned"),
  /** Open items the caller has not labelled yet (their to-do list). */
  todo: booleanQuery("todo"),
});
export type ReviewItemListQuery = z.output<typeof reviewItemListQuery>;

/** GET /api/v1/review-items/export: the labels of closed items as JSONL. */
export const reviewExportQuery = z.object({
  suite_id: z.uuid("suite_id must be a UUID").optional(),
  run_id: z.uuid("run_id must be a UUID").optional(),
});

/** A suite's review rules, applied when one of its runs finishes. */
export const reviewRulesSchema = z.object({
  failed: z.boolean({ error: "review_rules.failed must be true or false" }).default(false),
  passed_sample_percent: z
    .number({ error: "passed_sample_percent must be a number" })
    .min(0, "passed_sample_percent must be between 0 and 100")
    .max(100, "passed_sample_percent must be between 0 and 100")
    .default(0),
  flaky: z.boolean({ error: "review_rules.flaky must be true or false" }).default(false),
});
export type ReviewRules = z.output<typeof reviewRulesSchema>;
export const DEFAULT_REVIEW_RULES: ReviewRules = { failed: false, passed_sample_percent: 0, flaky: false };

/** The review fields of a suite's create/update input. */
export const suiteReviewSettings = {
  review_rules: reviewRulesSchema,
  required_reviews: z
    .number({ error: "required_reviews must be a number" })
    .int("required_reviews must be a whole number")
    .min(1, "required_reviews must be between 1 and 5")
    .max(5, "required_reviews must be between 1 and 5"),
  calibration_min_labels: z
    .number({ error: "calibration_min_labels must be a number" })
    .int("calibration_min_labels must be a whole number")
    .min(1, "calibration_min_labels must be at least 1")
    .max(100_000, "calibration_min_labels must be at most 100000"),
  calibration_trusted_kappa: z
    .number({ error: "calibration_trusted_kappa must be a number" })
    .min(-1, "calibration_trusted_kappa must be between -1 and 1")
    .max(1, "calibration_trusted_kappa must be between -1 and 1"),
};
