import { z } from "zod";
import { responseSchema } from "@/lib/api/openapi-kit";
import { errors, idParam, list, listParameters, ok, queryParameters, ref } from "@/lib/api/openapi-paths";
import type { ProcessedFileInput } from "@/lib/files/types";
import type { Prisma } from "@/lib/generated/prisma/client";
import { CASE_SORT_KEYS } from "./case-sort";
import { CASE_STAGES } from "./dto";
import { CASE_RESULT_STATUSES, caseResultListQuery, caseTableQuery, MAX_CASE_SEARCH, runCasesQuery, STABILITIES } from "./schemas";

/**
 * The REST contract of case results, assembled into the runs part (./openapi.ts): one case result
 * with its LLM calls, a run's results, its case table and its test cases' trial figures, and their paths.
 */

const count = z.number().int();
const timestamp = z.iso.datetime().nullable();

const usd = (what: string) => z.number().nullable().describe(`${what}, USD; null when its model configuration has no prices`);
/**
 * What LLM calls cost at the model configurations' prices as they were when the run started
 * (later price edits never change it). Null as a whole when nothing is known (no result written
 * yet, results from before costs were recorded, no prices at all).
 */
export const costResource = z
  .object({
    agent: usd("The agent's calls"),
    simulator: usd("The simulated user's calls"),
    judge: usd("The judge's calls (outcome verdicts, LLM checks, metrics)"),
    total: usd("agent + simulator + judge; also null when a part that used tokens has no prices"),
  })
  .nullable();

const jsonObject = z.record(z.string(), z.unknown());

/** The execution model's MetricResult, as a case result stores it. */
const metricResult = z
  .looseObject({
    metric_name: z.string(),
    score: z.number().nullable(),
    threshold: z.number().nullable(),
    normalized_score: z.number().nullable(),
    normalized_threshold: z.number().nullable(),
    scale: count.nullable(),
    passed: z
      .boolean()
      .nullable()
      .describe(
        "Whether the score reached the threshold; null when the metric could not be evaluated (`error` says why): such a metric is " +
          "neither passed nor failed and makes the case an error only under fail_on_error. A passed case never has a metric with passed: false",
      ),
    error: z.string().nullable().describe("Why the metric could not be evaluated"),
    retry_count: count.describe("Retries of this metric's judge call (retry_on_failure)"),
    evaluation_time_ms: count.min(0).describe("Time taken to evaluate, in milliseconds"),
    model_used: z.string().nullable().describe("The model that scored it (null when none was called)"),
    raw_score: z.number().nullable().describe("The judge's answer on 1..scale (the same as score; kept for older readers)"),
    reasoning: z.string().nullable().describe("The judge's reasoning before its score"),
  })
  .partial();

const transcriptMessage = z
  .looseObject({ role: z.string(), content: z.string().nullable(), tool_calls: z.array(z.unknown()), tool_call_id: z.string() })
  .partial();

const END_REASONS = [
  "single_turn",
  "simulator_ended",
  "agent_ended",
  "max_turns",
  "safety_cap",
  "token_cap",
  "repetition",
  "error",
] as const;

/** One case result (one case × repetition × arm of a run). */
export const caseResultResource = z.object({
  id: z.uuid(),
  run_id: z.uuid(),
  test_case_id: z.uuid().nullable(),
  variant: z.enum(["baseline", "variant"]).describe("The arm: variant only on a paired A/B run's variant results"),
  position: count.describe("The result's place in the run's order (trials interleave: trial 0 of every case first)"),
  trial: count.describe("Which trial of its case this is (0-based); a comparison's repetition"),
  status: z.enum(CASE_RESULT_STATUSES),
  stage: z
    .enum(CASE_STAGES)
    .describe(
      "The execution model's state: pending → processing_files → files_ready | files_failed → executing_agent → agent_complete | agent_failed → evaluating → complete | evaluation_failed (live while running)",
    ),
  name: z.string().describe("The case's name when the run started"),
  tags: z.array(z.string()),
  test_case: z.unknown().describe("The case as it was when the run started (its snapshot)"),
  processed_files: z
    .array(z.custom<ProcessedFileInput>().meta({ $ref: "#/components/schemas/ProcessedFileInput" }))
    .describe("The execution model's TestResult.processed_files: one per file of the case (empty without files)"),
  transcript: z
    .array(transcriptMessage)
    .optional()
    .describe(
      "The conversation. In lists (GET /api/v1/runs/{id}/results) present only with `include=transcript`; always present on GET /api/v1/case-results/{id}",
    ),
  actual_response: z.string().nullable(),
  response_truncated: z.boolean().describe("actual_response was cut to the stored maximum"),
  check_results: z.array(z.unknown()),
  tool_call_results: jsonObject.nullable(),
  outcome_results: z.array(z.unknown()),
  metric_results: z
    .array(metricResult)
    .describe(
      "The execution model's MetricResult: score and threshold on the metric's scale (1..scale), normalized_score/normalized_threshold on 0..1 (absent on results stored before thresholds moved to the scale, whose score is on 0..1)",
    ),
  prompt_tokens: count,
  completion_tokens: count,
  cost: costResource.describe("What this result's LLM calls cost, by part"),
  latency_ms: count.nullable(),
  duration_ms: count.nullable(),
  retry_count: count.describe("Retries of the agent calls only"),
  evaluator_retry_count: count.describe("Retries of the judge, simulator, check and metric calls"),
  turns: count.describe("Conversation turns taken"),
  resolved_variables: z
    .object({ values: z.record(z.string(), z.unknown()), sources: z.record(z.string(), z.string()) })
    .nullable()
    .describe("The variables model's ResolvedTestVariables of this case: {values, sources} with sources run, suite, test or type"),
  metrics_passed: count.describe("metric_results that passed"),
  metrics_total: count.describe("metric_results evaluated"),
  error_message: z.string().nullable().describe("Errors only (status error); a skipped case's note. Never set on a passed case"),
  error_type: z.string().nullable().describe("agent, simulator, timeout, judge, cancelled, config, worker_lost"),
  errors: z.array(z.string()).describe("The execution model's errors: empty unless status is error"),
  failure_reasons: z.array(z.string()).describe("Why a failed case failed; empty otherwise"),
  end_reason: z
    .enum(END_REASONS)
    .nullable()
    .describe("How the conversation ended; safety_cap/token_cap are the workspace's caps, max_turns the case's own"),
  stopped_by_safety_cap: z.boolean().describe("The workspace safety cap ended the conversation (not the case's max_turns)"),
  human_verdict: z
    .enum(["pass", "fail"])
    .nullable()
    .describe("The human verdict of the result's agreed or resolved review item; the judge's verdict (status) is never overwritten"),
  human_verdict_by_id: z.uuid().nullable().describe("The member whose label or resolution gave the human verdict"),
  human_verdict_at: timestamp,
  effective_status: z.enum(CASE_RESULT_STATUSES).describe("The human verdict where there is one (passed/failed), else status"),
  overturned: z.boolean().describe("The human verdict differs from the judge's"),
  started_at: timestamp,
  completed_at: timestamp,
});

/** One row of a run's case table: the columns the run page shows, and why a failure failed in one line. */
export const caseTableRowResource = caseResultResource
  .pick({
    id: true,
    test_case_id: true,
    variant: true,
    position: true,
    trial: true,
    status: true,
    stage: true,
    name: true,
    tags: true,
    prompt_tokens: true,
    completion_tokens: true,
    latency_ms: true,
    duration_ms: true,
    retry_count: true,
    turns: true,
    error_message: true,
    error_type: true,
    failure_reasons: true,
    stopped_by_safety_cap: true,
    human_verdict: true,
  })
  .extend({
    failure_reason: z
      .object({
        text: z
          .string()
          .describe("One line: the first failing check's detail, the first outcome not met, the pass rule's reason, or the error"),
        more: count.describe("How many further failure reasons the result has"),
      })
      .nullable()
      .describe("Why a failed or errored result did not pass; null for other statuses"),
    review_status: z
      .enum(["open", "agreed", "conflict", "resolved"])
      .nullable()
      .describe("The result's review item's state, if it was sent to review"),
    cost_usd: z
      .number()
      .nonnegative()
      .nullable()
      .describe("What this result's LLM calls cost in USD; null when unknown (no prices when the run started, or not finished)"),
  });

/** One page of a run's case table with the filter chips' counts. */
export const caseTablePageResource = z.object({
  data: z.array(caseTableRowResource),
  total: count.describe("Results matching every filter: what the pages page through"),
  counts: z
    .record(z.enum(CASE_RESULT_STATUSES), count)
    .describe("Per status, the results matching the other filters (search, tag, variant, trial): the filter chips"),
  page: count.describe("This page (1-based)"),
  limit: count.describe("Page size"),
});

/** One LLM call of a case result (agent, simulator, judge, checks, metrics): the exact request and the raw response. */
export const llmCallResource = z.object({
  id: z.uuid(),
  purpose: z.string().describe("agent, simulator, judge, metric or check"),
  model: z.string().nullable(),
  request: z.custom<Prisma.JsonValue>().describe("The request body as sent"),
  response: z.string().nullable().describe("The raw response body; null when none arrived"),
  error: z.string().nullable(),
  attempts: count,
  latency_ms: count.nullable(),
  cached: z.boolean().describe("Answered from the run's call cache without calling the model (attempts 0)"),
  created_at: z.iso.datetime(),
});

/** One test case of a run with its trials' figures (GET /api/v1/runs/{id}/cases). */
export const runCaseResource = z
  .object({
    test_case_id: z.uuid().nullable().describe("null when the case was deleted since"),
    name: z.string(),
    tags: z.array(z.string()),
    trials: count.describe("Trials executed: results that passed, failed or errored (skipped and unfinished ones are not counted)"),
    passed_trials: count,
    errored_trials: count.describe("Trials that errored: reported apart, never counted as failures"),
    pass_rate: z.number().nullable().describe("passed_trials / judged trials (trials − errored_trials), 0..1; null when none was judged"),
    pass_at_k: z.boolean().describe("At least one trial passed"),
    pass_all_k: z.boolean().describe("Every judged trial passed (pass^k); false when none was judged"),
    stability: z
      .enum(STABILITIES)
      .nullable()
      .describe("stable_pass, flaky (passed and failed), stable_fail, error (every executed trial errored); null before any trial ran"),
    results: z
      .array(z.object({ id: z.uuid(), trial: count, status: z.enum(CASE_RESULT_STATUSES) }))
      .describe("One entry per trial, in trial order: the case result to open"),
  })
  .describe("A test case of a run with its trials' figures");

/** The paths of a run's case results, under /api/v1/runs/{id}. */
export function runResultPaths() {
  return {
    "/api/v1/runs/{id}/results": {
      parameters: [idParam],
      get: {
        operationId: "listCaseResults",
        tags: ["Runs"],
        summary: "A run's case results (paginated)",
        description:
          "Role: viewer. Case order (position, then baseline before variant), keyset-paginated (limit up to 500). " +
          "Each result's `transcript` (the largest field) is present only with `include=transcript`; without it the field is omitted and never read. " +
          "GET /api/v1/case-results/{id} always returns one result's transcript and LLM calls.",
        parameters: listParameters(caseResultListQuery, {
          limit: "Page size (1–500, default 100)",
          include:
            "Comma-separated extras to embed in each result: `transcript` (the conversation). Unknown names are a 400. Without it, `transcript` is omitted.",
        }),
        responses: { "200": list("CaseResult"), ...errors },
      },
    },
    "/api/v1/runs/{id}/case-results": {
      parameters: [idParam],
      get: {
        operationId: "listCaseTable",
        tags: ["Runs"],
        summary: "A run's case results for triage: filtered, searched, sorted, counted",
        description:
          "Role: viewer. The run page's table: slim rows (no transcript, snapshot or verdict details) with `failure_reason`, the one line that says why a failed or errored result did not pass. " +
          "Default order is failures first (failed, errors, passed, then the rest; case order within each). `q` searches case names, tags and response text (case-insensitive, literal: % and _ match themselves). " +
          "Offset pages (`page`, `limit` up to 200) with `total`, and `counts` per status for the other filters. For every field and transcripts, page GET /api/v1/runs/{id}/results by cursor.",
        parameters: queryParameters(caseTableQuery, {
          status: "Only results with this status",
          tag: "Only results with this tag",
          q: `Search in case name, tags and response text (at most ${MAX_CASE_SEARCH} characters)`,
          variant: "Only this arm (baseline or variant)",
          trial: "Only this trial (0-based) of every case",
          sort: `Order by ${CASE_SORT_KEYS.join(", ")} (default status: failures first)`,
          dir: "asc (default) or desc",
          page: "Page number (1-based, default 1)",
          limit: "Page size (1–200, default 50)",
        }),
        responses: { "200": ok("CaseTablePage", ref("CaseTablePage")), ...errors },
      },
    },
    "/api/v1/runs/{id}/cases": {
      parameters: [idParam],
      get: {
        operationId: "listRunCases",
        tags: ["Runs"],
        summary: "A run's test cases with their trials' figures (paginated)",
        description:
          "Role: viewer. One row per test case in case order: trials, passed and errored trials, pass_rate, pass_at_k, pass_all_k and stability, " +
          "with one entry per trial (the case result to open). Keyset-paginated (limit up to 500); `stability` and `tag` filter.",
        parameters: listParameters(runCasesQuery, {
          stability: STABILITIES.join(", "),
          tag: "Only cases with this tag",
        }),
        responses: { "200": list("RunCase"), ...errors },
      },
    },
  };
}

/** The path of one case result. */
export function caseResultPaths() {
  return {
    "/api/v1/case-results/{id}": {
      parameters: [idParam],
      get: {
        operationId: "getCaseResult",
        tags: ["Runs"],
        summary: "One case result with every LLM call's request and raw response",
        description: "Role: viewer. Always includes the case's `transcript` and its `llm_calls` (one row: no `include` needed).",
        responses: { "200": ok("CaseResultDetail", ref("CaseResultDetail")), ...errors },
      },
    },
  };
}

/** The components of one case result: as lists send it, and with its transcript and LLM calls. */
export function caseResultComponents() {
  return {
    // `transcript` is sent by lists only on `include=transcript`; one case result always has it (CaseResultDetail).
    CaseResult: responseSchema(caseResultResource),
    CaseResultDetail: {
      allOf: [
        { $ref: "#/components/schemas/CaseResult" },
        {
          type: "object",
          required: ["transcript", "llm_calls"],
          properties: {
            llm_calls: {
              type: "array",
              description: "Every LLM call of the case (agent, simulator, judge, checks, metrics): the exact request and the raw response",
              items: responseSchema(llmCallResource),
            },
          },
        },
      ],
    },
  };
}
