import { z } from "zod";
import { featurePart, jsonSchema, namedComponents, type OpenApiPart } from "@/lib/api/openapi-kit";
import { body, conflict, errors, idParam, list, listParameters, ok, queryParameters, ref, tooLarge } from "@/lib/api/openapi-paths";
import {
  armInput,
  COMPARISON_ORDERINGS,
  COMPARISON_SOURCES,
  COMPARISON_STATUSES,
  comparisonListQuery,
  comparisonReportQuery,
  createComparisonInput,
  pairListQuery,
  retryPolicyInput,
  sessionDocument,
  VERDICT_CHANGES,
} from "./schemas";

/**
 * The REST contract of A/B comparisons: the response resources (nested ones published as their own
 * components and referenced by `$ref`), the session document and the paths.
 */

const nullableNumber = z.number().nullable();

const interval = z.tuple([z.number(), z.number()]).nullable();

export const execution = z
  .object({
    case_result_id: z
      .string()
      .nullable()
      .describe("The arm's case result (its transcript, checks and LLM calls); null for imported sessions"),
    response: z.string().describe("The agent's final answer"),
    prompt_tokens: z.number().int(),
    completion_tokens: z.number().int(),
    total_tokens: z.number().int().describe("prompt_tokens + completion_tokens"),
    latency_ms: z
      .number()
      .describe("Sum of the agent call durations only (no queue, limiter, backoff or judging time); 0 when the call failed"),
    turn_latencies_ms: z.array(z.number()).describe("Agent latency per turn (one entry for a single-turn case)"),
    tokens_per_ms: z.number().describe("completion_tokens / latency_ms; 0 when latency_ms is 0"),
    model: z.string(),
    timestamp: z.string().nullable(),
    error: z.string().nullable().describe("The agent call's error (the A/B engine: the execution succeeded when this is null)"),
    evaluation_error: z
      .string()
      .nullable()
      .optional()
      .describe("Why there is no verdict although the agent answered (a judge error: status error, error null)"),
    retry_count: z.number().int().describe("Retries of the agent calls only"),
    status: z.enum(["passed", "failed", "error", "skipped"]).describe("Assay's verdict for this execution"),
  })
  .describe("One arm's execution of one case (the A/B engine's AgentResponse plus Assay's verdict)");

const locationEstimate = z
  .object({
    n: z.number().int().describe("Pairs where both arms' agent calls succeeded"),
    mean: nullableNumber,
    median: nullableNumber,
    ci95: interval.describe("95 % percentile-bootstrap interval of the mean (fixed seed); null without data"),
    median_ci95: interval.describe("95 % bootstrap interval of the median; null without data"),
  })
  .describe("Location of one per-pair diff (variant − baseline) over the pairs where both arms' agent calls succeeded");

const wilcoxon = z.object({
  method: z.literal("wilcoxon_signed_rank"),
  p_value: nullableNumber.describe("Two-sided; null when every difference is zero or there is no data"),
  statistic: nullableNumber.describe("V, the sum of the ranks of the positive differences"),
  n: z.number().int(),
  zeros: z.number().int(),
  exact: z.boolean().describe("true: exact null distribution; false: normal approximation"),
});

export const armExecutionStats = z
  .object({
    total_invocations: z.number().int(),
    successful_invocations: z.number().int(),
    failed_invocations: z.number().int(),
    retry_successes: z.record(z.string(), z.number().int()).describe("Calls that succeeded after retrying, by attempt number"),
    timeouts: z.number().int(),
    errors_by_type: z.record(z.string(), z.number().int()),
    total_retries: z.number().int(),
    success_rate: nullableNumber,
  })
  .describe("The A/B engine's ExecutionStats of one arm's agent calls");

const armSummary = z.object({
  pass_rate: nullableNumber.describe("passed / (passed + failed + errors) × 100, one decimal"),
  passed: z.number().int(),
  failed: z.number().int(),
  errors: z.number().int(),
  skipped: z.number().int(),
  tokens: z.object({ prompt: z.number().int(), completion: z.number().int(), total: z.number().int(), mean_total: nullableNumber }),
  latency_ms: z.object({ mean: nullableNumber, p50: nullableNumber, p95: nullableNumber }),
  execution_stats: armExecutionStats,
});

export const comparisonSummary = z
  .object({
    pairs: z.number().int(),
    comparable_pairs: z
      .number()
      .int()
      .describe(
        "Pairs where both arms' agent calls succeeded (a judge error does not count against it): the n behind diffs and the latency/token tests",
      ),
    baseline: armSummary,
    variant: armSummary,
    diffs: z.object({
      token_overhead: locationEstimate,
      token_overhead_pct: locationEstimate,
      latency_diff_ms: locationEstimate,
      response_length_ratio: locationEstimate,
    }),
    verdict_changes: z.object({
      same: z.number().int(),
      pass_to_fail: z.number().int(),
      fail_to_pass: z.number().int(),
      error: z.number().int(),
    }),
    success_rate: nullableNumber.describe("Share of pairs where both arms' agent calls succeeded, as a percentage"),
    tests: z.object({
      latency: wilcoxon,
      tokens: wilcoxon,
      pass_fail: z.object({
        method: z.literal("mcnemar_exact"),
        p_value: nullableNumber.describe("Two-sided; null when no pair flipped"),
        b: z.number().int().describe("pass → fail"),
        c: z.number().int().describe("fail → pass"),
      }),
    }),
    verdict: z.string().describe("The page's one-sentence verdict in plain language"),
  })
  .describe("Statistics over the pairs, computed when the comparison ends (and on import)");

export const armExecuted = z.object({
  agent_calls: z.number().int().describe("Agent calls recorded for this arm so far"),
  models: z
    .array(
      z.object({
        model: z.string().nullable(),
        temperature: z.number().nullable().describe("As sent; null when the request left it to the endpoint"),
        max_tokens: z.number().nullable().describe("As sent; null when the request left it to the endpoint"),
        calls: z.number().int(),
      }),
    )
    .describe("Each distinct model, temperature and max tokens the agent calls named, most used first"),
});

export const comparisonArm = armInput
  .extend({
    role: z.string().describe("baseline or variant"),
    label: z.string(),
    run_id: z.uuid().nullable().describe("The run that executed this arm (or the paired run); null for imported sessions"),
    run_number: z.int().nullable().describe("That run's number within the suite (#42); null without a run"),
    resolved: z
      .object({
        agent_id: z.uuid().nullish(),
        agent_name: z.string().nullish(),
        model: z.string().nullish(),
        base_url: z.string().nullish(),
        kind: z.string().optional(),
      })
      .describe("What the arm resolved to when it was created (never a key)"),
    executed: armExecuted
      .nullable()
      .describe("What the arm really ran, read from its recorded agent calls (not from the request); null for imported sessions"),
  })
  .describe("One arm as given (the suite's agent with these overrides), with its label");

export const comparison = z
  .object({
    id: z.uuid(),
    suite_id: z.uuid(),
    name: z.string(),
    notes: z.string(),
    source: z.enum(COMPARISON_SOURCES).describe("executed: both arms ran; runs: two existing runs paired; imported: a session document"),
    status: z.enum(COMPARISON_STATUSES),
    ordering: z.enum(COMPARISON_ORDERINGS),
    seed: z.number().int().describe("Seed of the randomized order and of the bootstrap"),
    reset_window_ms: z.number().int(),
    repetitions: z.number().int(),
    concurrency: z.number().int(),
    retry: retryPolicyInput,
    selection: z.object({
      tags: z.array(z.string()).optional(),
      tag_match: z.string().optional(),
      difficulty: z.string().nullish(),
      case_ids: z.array(z.string()).nullish(),
    }),
    baseline: comparisonArm.nullable(),
    variant: comparisonArm.nullable(),
    arms: z.array(comparisonArm).describe("Every arm in order (baseline, variant)"),
    total_pairs: z.number().int(),
    completed_pairs: z.number().int(),
    session_id: z.string().nullable().describe("Imported sessions: the document's session_id"),
    llms_source_path: z.string().nullable().describe("Imported sessions: the A/B engine's llms_source_path; null when unknown"),
    error_message: z.string().nullable(),
    cancel_requested: z.boolean(),
    started_at: z.iso.datetime().nullable(),
    completed_at: z.iso.datetime().nullable(),
    duration_ms: z.number().int().nullable(),
    environment: z.record(z.string(), z.unknown()).describe("Assay and Node versions, the arms' models and base URLs (no secrets)"),
    summary: comparisonSummary.nullable().describe("Set when the comparison ends"),
    created_at: z.iso.datetime(),
  })
  .describe("A/B comparison of a suite: baseline vs variant on the same cases");

export const comparisonPair = z
  .object({
    index: z.number().int(),
    test_case_id: z.uuid().nullable(),
    test_case_name: z.string(),
    question: z.string(),
    repetition: z.number().int(),
    order: z.array(z.string()).describe('Arm roles in the order they ran, e.g. ["variant", "baseline"]'),
    baseline: execution.nullable().describe("null until the arm finished"),
    variant: execution.nullable(),
    token_overhead: z.number().int().nullable().describe("variant.total_tokens − baseline.total_tokens"),
    token_overhead_pct: nullableNumber.describe("token_overhead / baseline.total_tokens × 100; 0 when the baseline used no tokens"),
    latency_diff_ms: nullableNumber.describe("variant.latency_ms − baseline.latency_ms"),
    latency_improvement_pct: nullableNumber.describe(
      "latency_diff_ms / baseline.latency_ms × 100 (positive: the variant was slower); 0 when the baseline took 0 ms",
    ),
    response_length_ratio: nullableNumber.describe("len(variant.response) / len(baseline.response); 1 when the baseline response is empty"),
    both_successful: z
      .boolean()
      .nullable()
      .describe("Both agent calls succeeded (the A/B engine); the pair's timing and tokens feed the diffs"),
    verdict_change: z
      .enum(VERDICT_CHANGES)
      .nullable()
      .describe("error when either arm has no verdict (agent error, judge error or skipped): left out of the pass/fail test"),
    metadata: z.record(z.string(), z.unknown()),
    context_tokens: z
      .number()
      .int()
      .describe("The A/B engine's context_tokens (the llms.txt context of an imported session); 0 when unknown"),
    completed_at: z.iso.datetime().nullable(),
  })
  .describe("One case × repetition with both executions and the A/B engine's diffs (variant − baseline)");

function paths() {
  const tags = ["Comparisons"];
  return {
    "/api/v1/suites/{id}/comparisons": {
      parameters: [idParam],
      get: {
        operationId: "listComparisons",
        tags,
        summary: "List a suite's comparisons (newest first)",
        description: "Role: viewer.",
        parameters: listParameters(comparisonListQuery),
        responses: { "200": list("Comparison"), ...errors },
      },
      post: {
        operationId: "createComparison",
        tags,
        summary: "Start a comparison",
        description:
          "Role: editor. Either two arms to execute on the suite's selected cases (`baseline`, `variant`: the suite's agent with overrides; they must differ in at least one field), " +
          "or two completed runs of this suite to pair by test case (`baseline_run_id`, `variant_run_id`; nothing is executed). 202 with the pending comparison; poll GET /api/v1/comparisons/{id}.",
        requestBody: body("ComparisonInput"),
        responses: { "202": ok("The pending Comparison", ref("Comparison")), ...errors, ...tooLarge() },
      },
    },
    "/api/v1/suites/{id}/comparisons/import": {
      parameters: [idParam],
      post: {
        operationId: "importComparison",
        tags,
        summary: "Import a session document as a comparison",
        description:
          "Role: editor. Loads an A/B engine session document (the JSON report of a comparison, or TestSession.to_dict()) as a read-only comparison with the same diffs and statistics.",
        requestBody: body("ComparisonSessionDocument"),
        responses: { "201": ok("The imported Comparison", ref("Comparison")), ...errors, ...tooLarge("10 MB") },
      },
    },
    "/api/v1/comparisons/{id}": {
      parameters: [idParam],
      get: {
        operationId: "getComparison",
        tags,
        summary: "Get a comparison (status, progress, summary)",
        description: "Role: viewer. `summary` is set when the comparison ends.",
        responses: { "200": ok("Comparison", ref("Comparison")), ...errors },
      },
    },
    "/api/v1/comparisons/{id}/pairs": {
      parameters: [idParam],
      get: {
        operationId: "listComparisonPairs",
        tags,
        summary: "A comparison's pairs (case × repetition, paginated)",
        description: "Role: viewer.",
        parameters: listParameters(pairListQuery, {
          verdict_change: "Only pairs with this verdict change",
          sort: "index (default, the run order) or a diff, ascending; prefix - for descending",
          limit: "Page size (1–500, default 50)",
        }),
        responses: { "200": list("ComparisonPair"), ...errors },
      },
    },
    "/api/v1/comparisons/{id}/cancel": {
      parameters: [idParam],
      post: {
        operationId: "cancelComparison",
        tags,
        summary: "Cancel a comparison",
        description: "Role: editor. No new executions start; 409 when the comparison already ended.",
        responses: { "200": ok("The Comparison", ref("Comparison")), ...errors, ...conflict },
      },
    },
    "/api/v1/comparisons/{id}/report": {
      parameters: [idParam],
      get: {
        operationId: "getComparisonReport",
        tags,
        summary: "A comparison report",
        description:
          "Role: viewer. json: the A/B engine's session document (importable back, and loadable by the A/B engine's own TestSession.from_dict: the variant under both " +
          "variant and docstratum, context_tokens per result (0 when unknown), llms_source_path (null when unknown)); csv: one row per pair with the columns question, baseline_tokens, variant_tokens, token_overhead, " +
          "baseline_latency_ms, variant_latency_ms, latency_diff_ms, response_length_ratio, baseline_status, variant_status, verdict_change (latencies with two decimals). Sent as an attachment.",
        parameters: queryParameters(comparisonReportQuery, { format: "json (default) or csv" }),
        responses: {
          "200": {
            description: "The report file",
            content: { "application/json": { schema: ref("ComparisonSession") }, "text/csv": { schema: { type: "string" } } },
          },
          ...errors,
        },
      },
    },
  };
}

export function comparisonsOpenApi(): OpenApiPart {
  return featurePart(
    "Comparisons",
    "A/B comparisons (the A/B engine): baseline vs variant on the same cases, or two runs paired by test case, with per-pair latency and token diffs, " +
      "bootstrap intervals and Wilcoxon/McNemar tests; JSON session and CSV reports, session import. Read: viewer; start/cancel/import: editor.",
    {
      paths: paths(),
      schemas: {
        ...namedComponents({
          Execution: execution,
          LocationEstimate: locationEstimate,
          ArmExecutionStats: armExecutionStats,
          ComparisonArmSummary: armSummary,
          ComparisonSummary: comparisonSummary,
          ComparisonArm: comparisonArm,
          Comparison: comparison,
          ComparisonPair: comparisonPair,
        }),
        ComparisonSession: {
          ...jsonSchema(sessionDocument),
          description:
            "The A/B engine's session document (TestSession.to_dict()): what the JSON report writes and the import reads back. Assay's report adds fields (test_case_id, repetition, order, status); all are optional on import.",
        },
      },
      requests: { ComparisonInput: jsonSchema(createComparisonInput), ComparisonSessionDocument: jsonSchema(sessionDocument) },
    },
  );
}
