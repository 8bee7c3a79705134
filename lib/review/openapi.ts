import { z } from "zod";
import { featurePart, jsonSchema, outputComponents, type OpenApiPart } from "@/lib/api/openapi-kit";
import { body, conflict, errors, idParam, list, listParameters, ok, queryParameters, ref, tooLarge } from "@/lib/api/openapi-paths";
import {
  createReviewItemsInput,
  HUMAN_VERDICTS,
  labelInput,
  resolveInput,
  REVIEW_ITEM_SOURCES,
  REVIEW_ITEM_STATUSES,
  reviewExportQuery,
  reviewItemListQuery,
  updateReviewItemInput,
} from "./schemas";

/**
 * The REST contract of human review and judge calibration: the review item, label and
 * calibration resources and their paths. The DTO types (./dto.ts) are these schemas' outputs.
 */

const iso = z.iso.datetime();
const count = z.number().int();
const verdict = z.enum(HUMAN_VERDICTS);

export const reviewerResource = z.object({
  type: z.enum(["user", "api_key"]),
  id: z.uuid(),
  name: z.string().nullable().describe("The member's name or email, or the API key's name"),
});

const elementVerdicts = z.record(z.string(), z.boolean()).describe("Element key → met (true) or not met (false)");

export const labelResource = z.object({
  id: z.uuid(),
  reviewer: reviewerResource,
  verdict,
  outcomes: elementVerdicts.describe("Expected outcome label → met"),
  checks: elementVerdicts.describe("Index of an llm_judge check in the case's checks → met"),
  metrics: elementVerdicts.describe("Metric name → met"),
  comment: z.string().nullable(),
  created_at: iso,
  updated_at: iso,
});

const judgeInfo = z.object({
  model_config_name: z.string().nullable(),
  base_url: z.string().nullable(),
  model: z.string().nullable(),
  rubric_hash: z.string().describe("Hash of the judge prompts and rubrics the code sends"),
  criteria_hash: z.string().describe("Hash of the suite's metric configuration (custom prompts, thresholds, model overrides)"),
});

export const reviewItemResource = z
  .object({
    id: z.uuid(),
    suite_id: z.uuid(),
    suite_name: z.string(),
    run_id: z.uuid(),
    run_number: count.describe("The run's number within its suite (#42)"),
    case_result_id: z.uuid(),
    test_case_id: z.uuid().nullable(),
    case_name: z.string(),
    trial: count.describe("Which trial of its case the result is (0-based)"),
    status: z
      .enum(REVIEW_ITEM_STATUSES)
      .describe(
        "open until it has required_reviews labels; then agreed (every label gave the same verdict) or conflict; resolved by an admin",
      ),
    source: z
      .enum(REVIEW_ITEM_SOURCES)
      .describe("manual (a person sent it), or the suite's review rule that queued it: failed, sampled, flaky"),
    required_reviews: count,
    label_count: count,
    assignee_id: z.uuid().nullable(),
    created_by_id: z.uuid().nullable(),
    judge_fingerprint: z.string().describe("Which judge gave the verdicts under review (endpoint, model, prompts, suite criteria)"),
    judge: judgeInfo,
    judge_revealed: z
      .boolean()
      .describe("Blind review: false until the caller has labelled the item (or it is no longer open); judge_verdict is then null"),
    judge_verdict: z
      .enum(["pass", "fail", "error"])
      .nullable()
      .describe("The judge's overall verdict (error: it gave none); null while hidden"),
    human_verdict: verdict.nullable().describe("Set when the item is agreed or resolved"),
    overturned: z.boolean().nullable().describe("The human verdict differs from the judge's; null while hidden or without both"),
    my_verdict: verdict.nullable().describe("The caller's own label's verdict, if they labelled"),
    resolution: z
      .object({ verdict, comment: z.string().nullable(), resolved_by_id: z.uuid().nullable(), resolved_at: iso })
      .nullable()
      .describe("An admin's resolution of a conflict"),
    created_at: iso,
    updated_at: iso,
    closed_at: iso.nullable().describe("When the item stopped being open"),
  })
  .describe("A case result (one trial of a case) waiting for, or given, human labels");

const element = z.object({
  key: z.string().describe("Outcome label, check index or metric name: the key a label uses"),
  label: z.string(),
  expected: z.unknown(),
  judge_met: z.boolean().nullable().optional().describe("The judge's verdict on this element; absent while the judge is hidden"),
  judge_reasoning: z.string().nullable().optional(),
});

export const reviewItemDetailResource = reviewItemResource
  .extend({
    case: z.object({
      test_case: z.unknown().describe("The case as it ran (its snapshot): expected outcomes, checks, expected tool calls, persona"),
      transcript: z.array(z.unknown()),
      actual_response: z.string().nullable(),
      response_truncated: z.boolean(),
    }),
    elements: z
      .object({ outcomes: z.array(element), checks: z.array(element), metrics: z.array(element) })
      .describe("What a label may give a verdict on besides the overall one"),
    judge_result: z
      .object({
        status: z.string(),
        failure_reasons: z.array(z.string()),
        error_message: z.string().nullable(),
        check_results: z.array(z.unknown()),
        outcome_results: z.array(z.unknown()),
        metric_results: z.array(z.unknown()),
        tool_call_results: z.unknown().nullable(),
      })
      .nullable()
      .describe("The judge's verdicts and reasoning; null while hidden"),
    labels: z.array(labelResource).describe("Every label once the judge is revealed to the caller; before that only the caller's own"),
  })
  .describe("A review item with what a reviewer needs to label it");

export const createdReviewItems = z.object({
  data: z.array(reviewItemResource),
  created: count.describe("Items created by this request (the rest were already queued)"),
});

const confusion = z.object({
  judge_pass_human_pass: count,
  judge_pass_human_fail: count,
  judge_fail_human_pass: count,
  judge_fail_human_fail: count,
});

const levelAgreement = z.object({
  n: count.describe("Labelled judgements"),
  agreement: z.number().nullable().describe("Raw agreement, 0..1"),
  kappa: z.number().nullable().describe("Cohen's kappa; null when undefined"),
  kappa_ci95: z.tuple([z.number(), z.number()]).nullable().describe("95% interval of kappa (large-sample standard error)"),
  confusion,
  failure_recall: z.number().nullable().describe("Of the results humans failed, the share the judge failed"),
  failure_precision: z.number().nullable().describe("Of the results the judge failed, the share humans failed"),
});

export const JUDGE_STATUSES = ["uncalibrated", "trusted", "doubtful"] as const;

const fingerprintCalibration = z.object({
  fingerprint: z.string(),
  judge: judgeInfo,
  status: z.enum(JUDGE_STATUSES),
  first_labelled_at: iso.nullable(),
  last_labelled_at: iso.nullable(),
  levels: z.object({ overall: levelAgreement, outcomes: levelAgreement, checks: levelAgreement, metrics: levelAgreement }),
  inter_reviewer: z
    .object({
      items: count,
      method: z.enum(["cohen", "fleiss"]),
      agreement: z.number().nullable(),
      kappa: z.number().nullable(),
      kappa_ci95: z.tuple([z.number(), z.number()]).nullable(),
    })
    .nullable()
    .describe("Agreement between reviewers over items with two or more labels (Cohen's kappa for two, Fleiss' for more)"),
  disagreements: count.describe("Items whose human verdict differs from the judge's"),
});

export const calibrationResource = z
  .object({
    suite_id: z.uuid(),
    status: z.enum(JUDGE_STATUSES).describe("The status of the suite's current judge"),
    current_fingerprint: z.string(),
    current_judge: judgeInfo,
    thresholds: z.object({ min_labels: count, trusted_kappa: z.number() }),
    fingerprints: z.array(fingerprintCalibration).describe("The current judge first, then past judges by their last label, newest first"),
  })
  .describe(
    "How far to trust the suite's judge: per judge fingerprint and level, agreement with human verdicts. uncalibrated: fewer than min_labels overall judgements; " +
      "trusted: kappa's 95% lower bound ≥ trusted_kappa; doubtful otherwise.",
  );

function paths() {
  const tags = ["Review"];
  const item = { parameters: [idParam] };
  return {
    "/api/v1/review-items": {
      get: {
        operationId: "listReviewItems",
        tags,
        summary: "List review items (newest first)",
        description: "Role: viewer. Judge verdicts stay hidden (judge_revealed: false) on open items the caller has not labelled.",
        parameters: listParameters(reviewItemListQuery, {
          status: "Only items in this state",
          suite_id: "Only this suite's items",
          run_id: "Only this run's items",
          assigned_to: "me, or a member's user id: only items assigned to them",
          overturned: "true: only items whose human verdict differs from the judge's (the disagreements)",
          todo: "true: only open items the caller has not labelled, assigned to them or to nobody",
        }),
        responses: { "200": list("ReviewItem"), ...errors },
      },
      post: {
        operationId: "createReviewItems",
        tags,
        summary: "Send case results to review",
        description:
          "Role: editor. One item per case result: a result already queued is returned as it is. The results must be finished (passed, failed or error). " +
          "The item takes its suite's required_reviews and the judge fingerprint of its run.",
        requestBody: body("CreateReviewItemsInput"),
        responses: { "201": ok("The items", ref("CreatedReviewItems")), ...errors, ...conflict, ...tooLarge() },
      },
    },
    "/api/v1/review-items/export": {
      get: {
        operationId: "exportReviewLabels",
        tags,
        summary: "Export the labels of closed items as JSONL",
        description:
          "Role: viewer. One JSON object per line and item that is no longer open: the case, transcript, judge verdicts, human verdicts, labels and comments (for tuning a judge prompt).",
        parameters: queryParameters(reviewExportQuery, { suite_id: "Only this suite's items", run_id: "Only this run's items" }),
        responses: { "200": { description: "JSON Lines", content: { "application/x-ndjson": { schema: { type: "string" } } } }, ...errors },
      },
    },
    "/api/v1/review-items/{id}": {
      ...item,
      get: {
        operationId: "getReviewItem",
        tags,
        summary: "Get a review item with its transcript and labels",
        description:
          "Role: viewer. Blind: the judge's verdicts, reasoning and the other reviewers' labels appear once the caller has labelled it or it is closed.",
        responses: { "200": ok("ReviewItemDetail", ref("ReviewItemDetail")), ...errors },
      },
      patch: {
        operationId: "updateReviewItem",
        tags,
        summary: "Assign a review item",
        description: "Role: editor. assignee_id: a member of the workspace, or null to unassign.",
        requestBody: body("UpdateReviewItemInput"),
        responses: { "200": ok("ReviewItem", ref("ReviewItem")), ...errors, ...tooLarge() },
      },
    },
    "/api/v1/review-items/{id}/labels": {
      ...item,
      post: {
        operationId: "labelReviewItem",
        tags,
        summary: "Label a review item (one label per reviewer, editable while open)",
        description:
          "Role: editor. The reviewer is the member (or the API key) calling. When the item has its required labels it becomes agreed (the human verdict is set on the result) or conflict. " +
          "409 when the item is no longer open; 400 naming the field for an element the case does not have.",
        requestBody: body("LabelInput"),
        responses: { "200": ok("ReviewItemDetail, judge revealed", ref("ReviewItemDetail")), ...errors, ...conflict, ...tooLarge() },
      },
    },
    "/api/v1/review-items/{id}/resolve": {
      ...item,
      post: {
        operationId: "resolveReviewItem",
        tags,
        summary: "Resolve a conflict",
        description: "Role: admin. Sets the human verdict of an item in conflict; 409 for an item that is not in conflict.",
        requestBody: body("ResolveInput"),
        responses: { "200": ok("ReviewItemDetail", ref("ReviewItemDetail")), ...errors, ...conflict, ...tooLarge() },
      },
    },
    "/api/v1/suites/{id}/judge-calibration": {
      parameters: [idParam],
      get: {
        operationId: "getJudgeCalibration",
        tags,
        summary: "How well the suite's judge agrees with human verdicts",
        description:
          "Role: viewer. Per judge fingerprint and level (overall, outcomes, llm_judge checks, metrics): n, agreement, Cohen's kappa with its 95% interval, the confusion matrix.",
        responses: { "200": ok("JudgeCalibration", ref("JudgeCalibration")), ...errors },
      },
    },
  };
}

export function reviewOpenApi(): OpenApiPart {
  return featurePart(
    "Review",
    "Human review of case results and judge calibration. Items are created by a person or by a suite's review rules when a run finishes; " +
      "reviewers label blind; agreed or resolved items give the result a human verdict, which counts as its effective status.",
    {
      paths: paths(),
      schemas: outputComponents({
        ReviewItem: reviewItemResource,
        ReviewItemDetail: reviewItemDetailResource,
        ReviewLabel: labelResource,
        CreatedReviewItems: createdReviewItems,
        JudgeCalibration: calibrationResource,
      }),
      requests: {
        CreateReviewItemsInput: jsonSchema(createReviewItemsInput),
        UpdateReviewItemInput: jsonSchema(updateReviewItemInput),
        LabelInput: jsonSchema(labelInput),
        ResolveInput: jsonSchema(resolveInput),
      },
    },
  );
}
