import { z } from "zod";
import { CHANGE_CAUSES } from "@/lib/runs/changes";
import { modelConfigInput, modelConfigPatch } from "@/lib/model-configs/schemas";
import { agentInput, agentPatch } from "@/lib/agents/schemas";
import type { ArmDto, ComparisonDto, ComparisonPairDto, ComparisonSummaryDto, ExecutionDto } from "@/lib/comparisons/dto";
import {
  armInput,
  COMPARISON_ORDERINGS,
  COMPARISON_SOURCES,
  COMPARISON_STATUSES,
  createComparisonInput,
  retryPolicyInput,
  sessionDocument,
  VERDICT_CHANGES,
} from "@/lib/comparisons/schemas";
import { startRunInput } from "@/lib/runs/schemas";
import type { MatrixDto, MatrixSummaryDto } from "@/lib/matrices/dto";
import { createMatrixInput, MATRIX_STATUSES } from "@/lib/matrices/schemas";
import { cleanupResponse, retentionSettingsPatch, retentionSettingsResponse } from "@/lib/retention/schemas";
import type { AlertDto } from "@/lib/alerts/dto";
import type { RunChangeDetails } from "@/lib/runs/dto";
import type { WebhookDeliveryDto, WebhookDto } from "@/lib/webhooks/dto";
import { DELIVERY_STATUSES, webhookInput, webhookPatch } from "@/lib/webhooks/schemas";
import { suiteInput, suitePatch } from "@/lib/suites/schemas";
import { testCaseInput, testCasePatch } from "@/lib/test-cases/schemas";
import { presetInput, presetPatch } from "@/lib/presets/schemas";
import { FILE_TYPES, fileInputSchema } from "@/lib/files/schemas";
import { filePreviewBody } from "@/lib/files/preview";
import { CASE_STAGES } from "@/lib/runs/dto";
import type { StoredFileDetailDto, StoredFileDto } from "@/lib/files/dto";

/**
 * `components.schemas` of the OpenAPI document (lib/api/openapi.ts holds the paths), generated
 * from the zod schemas in `lib/<feature>/schemas.ts` in two views of one schema:
 * - requests (bodies, query parameters): `io: "input"`, what a client may send, so a field with a
 *   server default (`schedule_type`, `tags`, `concurrency`…) is optional;
 * - responses: `io: "output"`, what the server returns after parsing, so those fields are
 *   required. Our transforms only normalise values (`"" → null`, dedupe tags), so a transform's
 *   output is described by its input schema (zod cannot see through a function).
 */

export type JsonSchema = Record<string, unknown>;
type Io = "input" | "output";

/** A zod schema as JSON Schema 2020-12 (the OpenAPI 3.1 dialect), in the input or output view. */
export function jsonSchema(schema: z.core.$ZodType, io: Io = "input"): JsonSchema {
  const out = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    target: "draft-2020-12",
    override: ({ zodSchema, jsonSchema: node }) => {
      const def = zodSchema._zod.def;
      if (io === "output" && def.type === "pipe" && def.out._zod.def.type === "transform") {
        const inner = jsonSchema(def.in, "output");
        for (const key of Object.keys(node)) delete (node as JsonSchema)[key];
        Object.assign(node, inner);
      }
    },
  }) as JsonSchema;
  delete out.$schema;
  return out;
}

/** Drops `additionalProperties: false` everywhere: responses may gain fields; clients must not reject them. */
function openObjects(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(openObjects);
  if (!node || typeof node !== "object") return;
  const obj = node as JsonSchema;
  if (obj.additionalProperties === false) delete obj.additionalProperties;
  Object.values(obj).forEach(openObjects);
}

/**
 * A response resource: the output view of `schema` plus the server-set fields, as one object
 * (not `allOf`, so generated clients get one flat type).
 */
function resource(schema: z.ZodType, extra: z.ZodObject, opts: { omit?: string[]; description?: string } = {}): JsonSchema {
  const base = jsonSchema(schema, "output") as { properties?: Record<string, JsonSchema>; required?: string[] };
  const more = jsonSchema(extra, "output") as { properties?: Record<string, JsonSchema>; required?: string[] };
  const properties: Record<string, JsonSchema> = { ...base.properties, ...more.properties };
  for (const key of opts.omit ?? []) delete properties[key];
  const required = [...new Set([...(base.required ?? []), ...(more.required ?? [])])].filter((k) => k in properties);
  const out: JsonSchema = { type: "object", ...(opts.description ? { description: opts.description } : {}), properties, required };
  openObjects(out);
  return out;
}

/** A PATCH body: the fields of a create, none required, and no `default` (an omitted field keeps its stored value). */
function patchBody(schema: z.ZodType): JsonSchema {
  const out = jsonSchema(schema, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
  for (const prop of Object.values(out.properties ?? {})) delete prop.default;
  delete out.required;
  return out;
}

// Server-set fields every single resource carries.
const serverFields = z.object({
  id: z.uuid(),
  created_at: z.iso.datetime().describe("Set by the server on creation"),
  updated_at: z.iso.datetime().describe("Set by the server on every update"),
});

const modelConfigResource = z.object({
  id: z.uuid(),
  name: z.string(),
  base_url: z.string(),
  model: z.string(),
  embedding_model: z.string().nullable(),
  api_key_hint: z.string().nullable().describe("A masked hint such as ••••abcd; the key itself is write-only and never returned"),
  temperature: z.number().nullable(),
  max_tokens: z.number().int().nullable(),
  input_price_per_mtok: z.number().nullable().describe("Price per million prompt tokens (matrix cost estimates); null when not set"),
  output_price_per_mtok: z.number().nullable().describe("Price per million completion tokens; null when not set"),
  supports_vision: z.boolean().describe("The model accepts images: image files of test cases are sent to it as image_url parts (spec 000)"),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});

const errorCodes = [
  "invalid_input",
  "unauthorized",
  "forbidden",
  "not_found",
  "conflict",
  "payload_too_large",
  "unsupported_media_type",
  "internal_error",
] as const;
const errorEnvelope = z.object({
  error: z.object({
    code: z.enum(errorCodes),
    message: z.string(),
    issues: z
      .array(
        z.object({
          path: z.string().describe("Dotted field path, e.g. checks.0.threshold (imports: <case index>.<field>)"),
          message: z.string(),
        }),
      )
      .describe("One entry per invalid field; empty for errors that are not about a field"),
  }),
});

const importResult = z
  .looseObject({
    imported: z.number().int().describe("Number of cases written"),
    skipped: z.number().int().describe("Invalid cases left out (valid_only=true)"),
    errors: z
      .array(z.object({ index: z.number().int(), path: z.string(), message: z.string() }))
      .describe("Issues of the skipped cases: the case index and the field path within that case"),
  })
  .describe("Outcome of an import");

const runResource = {
  type: "object",
  description: "A run. Totals update live while it executes; summary (spec 000 ReportSummary + execution stats) is set when it ends.",
  properties: {
    id: { type: "string", format: "uuid" },
    suite_id: { type: "string", format: "uuid" },
    number: { type: "integer", description: "The run's number within its suite (#42), never reused" },
    experiment: {
      type: "boolean",
      description: "A comparison arm or a matrix combination: not part of the suite's history (trend, latest run, regression baseline)",
    },
    status: { enum: ["pending", "running", "completed", "failed", "cancelled"] },
    triggered_by: { enum: ["manual", "schedule", "api"] },
    metadata: {
      type: "object",
      additionalProperties: { type: "string" },
      description: "Where the run comes from, as its caller said: {commit, branch, build_url, …} (string values, at most 20 keys)",
    },
    agent_hash: {
      type: ["string", "null"],
      description: "Hash of the agent configuration the run used (prompt, tools, model, parameters, variable values)",
    },
    eval_hash: {
      type: ["string", "null"],
      description: "Hash of the evaluation settings the run used (judge and simulator models, metrics)",
    },
    total_cases: { type: "integer" },
    passed_cases: { type: "integer" },
    failed_cases: { type: "integer" },
    skipped_cases: { type: "integer" },
    error_cases: { type: "integer" },
    pass_rate: { type: "number", description: "passed / (total - skipped) × 100" },
    started_at: { type: ["string", "null"], format: "date-time" },
    completed_at: { type: ["string", "null"], format: "date-time" },
    error_message: { type: ["string", "null"] },
    summary: {
      type: ["object", "null"],
      description:
        "Spec 000 ReportSummary + tokens + execution stats. total_tests counts every result (the report's len(results)) and failed every result " +
        "that did not pass, so total_tests = passed + failed; not_met, errors, skipped and unfinished break failed down. pass_rate = passed / total_tests × 100 " +
        "(spec); executed_pass_rate = passed / executed × 100 is the run's own pass_rate (skipped results not counted). Summaries stored under older rules are recounted when read.",
      properties: {
        total_tests: { type: "integer", description: "Every result of the run: passed + failed" },
        passed: { type: "integer" },
        failed: { type: "integer", description: "Every result that did not pass: not_met + errors + skipped + unfinished" },
        not_met: { type: "integer", description: "Results whose expectations were not met (status failed)" },
        errors: { type: "integer", description: "Results that could not be judged (agent, simulator, judge, configuration errors)" },
        skipped: { type: "integer", description: "Results never executed" },
        unfinished: { type: "integer", description: "Results still pending or running (0 once the run ended)" },
        executed: { type: "integer", description: "passed + not_met + errors" },
        total_cases: { type: "integer", description: "The same as total_tests (kept for older readers)" },
        pass_rate: { type: "number", description: "passed / total_tests × 100, one decimal (0 without results)" },
        executed_pass_rate: { type: "number", description: "passed / executed × 100, one decimal: the run's pass_rate" },
        counting: { type: "string", description: "Which results each count holds, in words" },
        weighted_pass_rate: {
          type: "number",
          description: "executed_pass_rate with hard cases weighing hard_weight and normal ones 1 (spec 001)",
        },
        hard_weight: { type: "number" },
        retry_count: { type: "integer", description: "Agent call retries summed over the cases (spec 003)" },
        evaluator_retry_count: { type: "integer", description: "Judge, simulator, check and metric retries summed over the cases" },
        average_scores: { type: "object", description: "Per metric, the average normalised (0..1) score" },
      },
    },
    agent_snapshot: { type: "object", description: "The agent as it was when the run started" },
    resolved_variables: { type: "object", description: "Spec 004: {values, sources}" },
    comparison_id: { type: ["string", "null"], format: "uuid", description: "Set on a comparison's arm runs" },
    arm_index: { type: ["integer", "null"], description: "0 for a comparison's baseline arm, 1 for its variant" },
    matrix_id: { type: ["string", "null"], format: "uuid", description: "Set on a matrix's runs (one per combination)" },
    combination_index: { type: ["integer", "null"], description: "The combination of the matrix this run executes (0-based)" },
  },
};
/** Spec 000 ProcessedFileInput (case results, reports and the file preview). */
const processedFileResource = {
  type: "object",
  description: "Spec 000 ProcessedFileInput: one file of the case as the agent received it",
  properties: {
    original: { $ref: "#/components/schemas/FileInput" },
    markdown_content: {
      type: "string",
      description: "The extracted content as markdown; empty only when `error` is set (stored results keep at most 20,000 characters)",
    },
    metadata: {
      type: "object",
      description:
        "name, size_bytes, format, sha256, cache (hit | miss of the extraction cache), url_cache for URLs (downloaded | not_modified | disabled), plus the extractor's (pages, sheets, slides, width/height…)",
    },
    cached_path: {
      type: ["string", "null"],
      description: "`file:<id>` of a URL's stored download (cache: true); null for uploaded files and cache: false",
    },
    processing_time_ms: { type: "integer", minimum: 0 },
    error: {
      type: ["string", "null"],
      description: "Why the file could not be processed (the case is then an error at stage files_failed)",
    },
  },
  required: ["original", "markdown_content", "metadata", "cached_path", "processing_time_ms", "error"],
};

const caseResultResource = {
  type: "object",
  properties: {
    id: { type: "string", format: "uuid" },
    test_case_id: { type: ["string", "null"], format: "uuid" },
    status: { enum: ["pending", "running", "passed", "failed", "skipped", "error"] },
    stage: {
      enum: [...CASE_STAGES],
      description:
        "Spec 000 execution state: pending → processing_files → files_ready | files_failed → executing_agent → agent_complete | agent_failed → evaluating → complete | evaluation_failed (live while running)",
    },
    processed_files: {
      type: "array",
      items: { $ref: "#/components/schemas/ProcessedFileInput" },
      description: "Spec 000 TestResult.processed_files: one per file of the case (empty without files)",
    },
    transcript: {
      type: "array",
      description:
        "The conversation. In lists (GET /api/v1/runs/{id}/results) present only with `include=transcript`; always present on GET /api/v1/case-results/{id}",
      items: {
        type: "object",
        properties: {
          role: { type: "string" },
          content: { type: ["string", "null"] },
          tool_calls: { type: "array" },
          tool_call_id: { type: "string" },
        },
      },
    },
    actual_response: { type: ["string", "null"] },
    check_results: { type: "array" },
    tool_call_results: { type: ["object", "null"] },
    outcome_results: { type: "array" },
    metric_results: {
      type: "array",
      description:
        "Spec 000 MetricResult: score and threshold on the metric's scale (1..scale), normalized_score/normalized_threshold on 0..1 (absent on results stored before thresholds moved to the scale, whose score is on 0..1)",
      items: {
        type: "object",
        properties: {
          metric_name: { type: "string" },
          score: { type: ["number", "null"] },
          threshold: { type: ["number", "null"] },
          normalized_score: { type: ["number", "null"] },
          normalized_threshold: { type: ["number", "null"] },
          scale: { type: ["integer", "null"] },
          passed: {
            type: ["boolean", "null"],
            description:
              "Whether the score reached the threshold; null when the metric could not be evaluated (`error` says why): such a metric is " +
              "neither passed nor failed and makes the case an error only under fail_on_error. A passed case never has a metric with passed: false",
          },
          error: { type: ["string", "null"], description: "Why the metric could not be evaluated" },
          retry_count: { type: "integer", description: "Retries of this metric's judge call (retry_on_failure)" },
          evaluation_time_ms: { type: "integer", minimum: 0, description: "Spec 000: time taken to evaluate, in milliseconds" },
          model_used: { type: ["string", "null"], description: "Spec 000: the model that scored it (null when none was called)" },
          raw_score: {
            type: ["number", "null"],
            description: "The judge's answer on 1..scale (the same as score; kept for older readers)",
          },
          reasoning: { type: ["string", "null"], description: "The judge's reasoning before its score" },
        },
      },
    },
    prompt_tokens: { type: "integer" },
    completion_tokens: { type: "integer" },
    latency_ms: { type: ["integer", "null"] },
    duration_ms: { type: ["integer", "null"] },
    retry_count: { type: "integer", description: "Retries of the agent calls only (spec 003)" },
    evaluator_retry_count: { type: "integer", description: "Retries of the judge, simulator, check and metric calls" },
    resolved_variables: {
      type: ["object", "null"],
      description: "Spec 004 ResolvedTestVariables of this case: {values, sources} with sources run, suite, test or type",
    },
    metrics_passed: { type: "integer", description: "Spec 000: metric_results that passed" },
    metrics_total: { type: "integer", description: "Spec 000: metric_results evaluated" },
    error_message: {
      type: ["string", "null"],
      description: "Errors only (status error); a skipped case's note. Never set on a passed case",
    },
    error_type: { type: ["string", "null"], description: "agent, simulator, timeout, judge, cancelled, config, worker_lost" },
    errors: { type: "array", items: { type: "string" }, description: "Spec 000 errors: empty unless status is error" },
    failure_reasons: { type: "array", items: { type: "string" }, description: "Why a failed case failed; empty otherwise" },
    end_reason: {
      type: ["string", "null"],
      enum: ["single_turn", "simulator_ended", "agent_ended", "max_turns", "safety_cap", "token_cap", "repetition", "error", null],
      description: "How the conversation ended; safety_cap/token_cap are the workspace's caps, max_turns the case's own",
    },
    stopped_by_safety_cap: { type: "boolean", description: "The workspace safety cap ended the conversation (not the case's max_turns)" },
  },
};

const suiteServerFields = serverFields.extend({
  deleted_at: z.iso.datetime().nullable().describe("Set while the suite is in the trash"),
  last_pass_rate: z
    .number()
    .nullable()
    .optional()
    .describe("List responses only: pass rate (0–100) of the last completed run that executed a case; null without one"),
  recent_pass_rates: z
    .array(z.number())
    .optional()
    .describe("List responses only: pass rates of the last (up to 20) completed runs, oldest first; the last is last_pass_rate"),
});
const testCaseServerFields = serverFields.extend({
  suite_id: z.uuid(),
  sort_order: z.number().int().describe("Position in the suite, set by the server"),
});

// ── Comparisons (issue 8, spec 003) ─────────────────────────────────────────────────────────
// Response shapes of the comparison DTOs (lib/comparisons/dto.ts), written as zod so the nested
// components reference each other ($ref) through one registry; `satisfies z.ZodType<…Dto>` makes
// the compiler fail when a DTO gains a field these do not describe.

const nullableNumber = z.number().nullable();
const interval = z.tuple([z.number(), z.number()]).nullable();

const execution = z
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
    error: z.string().nullable().describe("The agent call's error (spec 003: the execution succeeded when this is null)"),
    evaluation_error: z
      .string()
      .nullable()
      .optional()
      .describe("Why there is no verdict although the agent answered (a judge error: status error, error null)"),
    retry_count: z.number().int().describe("Retries of the agent calls only"),
    status: z.enum(["passed", "failed", "error", "skipped"]).describe("Assay's verdict for this execution"),
  })
  .describe("One arm's execution of one case (spec 003 AgentResponse plus Assay's verdict)") satisfies z.ZodType<ExecutionDto>;

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

const armExecutionStats = z
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
  .describe("Spec 003 ExecutionStats of one arm's agent calls");

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

const comparisonSummary = z
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
  .describe("Statistics over the pairs, computed when the comparison ends (and on import)") satisfies z.ZodType<ComparisonSummaryDto>;

const comparisonArm = armInput
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
    executed: z
      .object({
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
      })
      .nullable()
      .describe("What the arm really ran, read from its recorded agent calls (not from the request); null for imported sessions"),
  })
  .describe("One arm as given (the suite's agent with these overrides), with its label") satisfies z.ZodType<ArmDto>;

const comparison = z
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
    llms_source_path: z.string().nullable().describe("Imported sessions: spec 003 llms_source_path; null when unknown"),
    error_message: z.string().nullable(),
    cancel_requested: z.boolean(),
    started_at: z.iso.datetime().nullable(),
    completed_at: z.iso.datetime().nullable(),
    duration_ms: z.number().int().nullable(),
    environment: z.record(z.string(), z.unknown()).describe("Assay and Node versions, the arms' models and base URLs (no secrets)"),
    summary: comparisonSummary.nullable().describe("Set when the comparison ends"),
    created_at: z.iso.datetime(),
  })
  .describe("A/B comparison of a suite: baseline vs variant on the same cases") satisfies z.ZodType<ComparisonDto>;

const comparisonPair = z
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
    both_successful: z.boolean().nullable().describe("Both agent calls succeeded (spec 003); the pair's timing and tokens feed the diffs"),
    verdict_change: z
      .enum(VERDICT_CHANGES)
      .nullable()
      .describe("error when either arm has no verdict (agent error, judge error or skipped): left out of the pass/fail test"),
    metadata: z.record(z.string(), z.unknown()),
    context_tokens: z.number().int().describe("Spec 003 context_tokens (the llms.txt context of an imported session); 0 when unknown"),
    completed_at: z.iso.datetime().nullable(),
  })
  .describe("One case × repetition with both executions and spec 003's diffs (variant − baseline)") satisfies z.ZodType<ComparisonPairDto>;

/** The comparison components, nested ones as $refs (`#/components/schemas/<name>`). */
function comparisonComponents(): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  registry.add(execution, { id: "Execution" });
  registry.add(locationEstimate, { id: "LocationEstimate" });
  registry.add(armExecutionStats, { id: "ArmExecutionStats" });
  registry.add(armSummary, { id: "ComparisonArmSummary" });
  registry.add(comparisonSummary, { id: "ComparisonSummary" });
  registry.add(comparisonArm, { id: "ComparisonArm" });
  registry.add(comparison, { id: "Comparison" });
  registry.add(comparisonPair, { id: "ComparisonPair" });
  const { schemas } = z.toJSONSchema(registry, {
    io: "output",
    target: "draft-2020-12",
    unrepresentable: "any",
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonSchema> };
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
    openObjects(schema);
  }
  return schemas;
}

// ── Matrix runs (issue 9, spec 004 phase 3) ─────────────────────────────────────────────────

const matrixValue = z.union([z.string(), z.number(), z.boolean()]);
const matrixSummary = z.object({
  id: z.uuid(),
  suite_id: z.uuid(),
  name: z.string(),
  status: z.enum(MATRIX_STATUSES).describe("Follows the runs: pending, running, then completed, cancelled or failed (every run failed)"),
  axes: z.record(z.string(), z.array(matrixValue)).describe("{NAME: [values]} as given; combinations are their cartesian product"),
  repetitions: z.int(),
  concurrency: z.int(),
  selection: z.object({
    tags: z.array(z.string()).optional(),
    tag_match: z.string().optional(),
    difficulty: z.string().nullable().optional(),
    case_ids: z.array(z.string()).nullable().optional(),
  }),
  total_combinations: z.int(),
  finished_combinations: z.int(),
  cancel_requested: z.boolean(),
  started_at: z.iso.datetime().nullable(),
  completed_at: z.iso.datetime().nullable(),
  created_at: z.iso.datetime(),
}) satisfies z.ZodType<MatrixSummaryDto>;
const matrixCombination = z
  .object({
    index: z.int().describe("0-based, in expansion order (the first axis varies slowest)"),
    values: z.record(z.string(), matrixValue),
    label: z.string().describe('e.g. Temperature=0.7, AIConfiguration="gpt-a"'),
    run_id: z.uuid().nullable().describe("The combination's run (GET /api/v1/runs/{id})"),
    run_number: z.int().nullable().describe("That run's number within the suite (#42)"),
    status: z.enum(MATRIX_STATUSES),
    model: z.object({ id: z.string().nullable(), name: z.string().nullable(), model: z.string().nullable() }).nullable(),
    total_cases: z.int(),
    completed_cases: z.int(),
    passed: z.int(),
    failed: z.int(),
    errors: z.int(),
    skipped: z.int(),
    pass_rate: z.number().describe("passed / (passed + failed + errors) × 100"),
    latency_p50_ms: z.number().nullable(),
    latency_p95_ms: z.number().nullable(),
    mean_total_tokens: z.number().nullable().describe("Mean prompt + completion tokens per executed case"),
    prompt_tokens: z.int(),
    completion_tokens: z.int(),
    estimated_cost: z
      .number()
      .nullable()
      .describe("prompt_tokens × input_price_per_mtok + completion_tokens × output_price_per_mtok, per million; null without both prices"),
  })
  .describe("One combination of variable values: one run with its statistics over every repetition");
const matrix = matrixSummary
  .extend({
    combinations: z.array(matrixCombination),
    best_combination: matrixCombination
      .pick({ index: true, values: true, label: true, run_id: true, pass_rate: true, estimated_cost: true, latency_p50_ms: true })
      .nullable()
      .describe("Highest pass rate, then lowest estimated cost, then lowest p50 latency; null until a combination executed a case"),
  })
  .describe("A matrix run: the suite's cases once per combination of variable values") satisfies z.ZodType<MatrixDto>;

function matrixComponents(): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  registry.add(matrixCombination, { id: "MatrixCombination" });
  registry.add(matrixSummary, { id: "MatrixSummary" });
  registry.add(matrix, { id: "Matrix" });
  const { schemas } = z.toJSONSchema(registry, {
    io: "output",
    target: "draft-2020-12",
    unrepresentable: "any",
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonSchema> };
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
    openObjects(schema);
  }
  return schemas;
}

// ── Regression alerts and webhooks (issue 10) ────────────────────────────────────────────────

const iso = z.iso.datetime();
const alertResource = z
  .object({
    id: z.uuid(),
    suite_id: z.uuid(),
    suite_name: z.string(),
    run_id: z.uuid().describe("The run whose pass rate dropped"),
    run_number: z.number().int().describe("The run's number within its suite (#42)"),
    run_metadata: z.record(z.string(), z.string()).describe("Where the run comes from, as its caller said (commit, branch, build_url, …)"),
    baseline_run_id: z
      .uuid()
      .nullable()
      .describe("The run it was compared with: the pinned baseline or the previous run with the same case selection"),
    baseline_run_number: z.number().int().nullable(),
    agent_changed: z
      .boolean()
      .describe("The agent configuration (prompt, tools, model, parameters, variable values) differs from the baseline's"),
    evaluation_changed: z
      .boolean()
      .describe(
        "The suite's evaluation settings (judge and simulator models, metrics) differ from the baseline's: counted as the test changing",
      ),
    explanation: z
      .string()
      .describe(
        "Why the verdicts flipped, in one sentence (the alert's first line), e.g. that every flip follows a case edit; empty when no case flipped",
      ),
    previous_pass_rate: z.number().describe("The baseline's pass rate, in percent"),
    pass_rate: z.number().describe("The run's pass rate, in percent"),
    drop_points: z.number().describe("previous_pass_rate − pass_rate, in percentage points"),
    flipped_cases: z
      .array(
        z.object({
          test_case_id: z.uuid(),
          name: z.string(),
          from: z.literal("passed"),
          to: z.enum(["failed", "error"]),
          case_result_id: z.uuid().describe("The case's result in the alerted run"),
          case_changed: z.boolean().describe("The case's content (what it sends and how it is judged) differs from the baseline's"),
          cause: z
            .enum(CHANGE_CAUSES)
            .nullable()
            .describe("test: the case or the evaluation changed; agent: the agent changed; both; neither: possibly flaky"),
        }),
      )
      .describe("Cases that passed in the baseline and failed or errored in this run (at most 1,000)"),
    acknowledged_at: iso.nullable(),
    acknowledged_by: z
      .object({ type: z.enum(["user", "api_key"]), id: z.uuid(), name: z.string().nullable() })
      .nullable()
      .describe("The member or API key that acknowledged the alert"),
    created_at: iso,
  })
  .describe("A regression alert: a completed run's pass rate dropped by at least the suite's threshold") satisfies z.ZodType<AlertDto>;

const webhookResource = z
  .object({
    id: z.uuid(),
    url: z.string(),
    events: z.array(z.string()),
    enabled: z.boolean(),
    description: z.string(),
    has_secret: z.literal(true).describe("The signing secret is write-only: it is never returned"),
    created_at: iso,
    updated_at: iso,
  })
  .describe("A webhook endpoint of the workspace") satisfies z.ZodType<WebhookDto>;

const deliveryResource = z
  .object({
    id: z.uuid().describe("Sent as X-Assay-Delivery"),
    webhook_id: z.uuid(),
    event: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.int(),
    next_attempt_at: iso.nullable().describe("When the next attempt is due (pending deliveries only)"),
    last_status_code: z.int().nullable(),
    last_duration_ms: z.int().nullable(),
    last_response: z.string().nullable().describe("The first 1 KB of the last response body"),
    last_error: z.string().nullable(),
    attempt_log: z.array(
      z.object({
        at: iso,
        status_code: z.int().nullable(),
        duration_ms: z.int(),
        error: z.string().nullable(),
        response_excerpt: z.string().nullable(),
      }),
    ),
    payload: z.unknown().describe("The JSON body sent: {event, created_at, text, <object>}"),
    created_at: iso,
    delivered_at: iso.nullable(),
  })
  .describe("One event sent (or to be sent) to one webhook, with every attempt") satisfies z.ZodType<WebhookDeliveryDto>;

const storedFileResource = z
  .object({
    id: z.uuid().describe('Referenced by a test case file as `path: "file:<id>"`'),
    name: z.string().describe("The uploaded file's name (the first upload's, when the same content was uploaded again)"),
    size_bytes: z.int(),
    content_type: z.string().describe("Sniffed from the content (never the client's claim), e.g. application/pdf"),
    type: z
      .enum(FILE_TYPES)
      .nullable()
      .describe(
        "The spec 000 type the content can be read as; a case file's declared type must match it (text and csv are interchangeable)",
      ),
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .describe("Hex SHA-256 of the content; files are deduplicated by it per workspace"),
    origin: z.enum(["upload", "url"]).describe("upload: POST /api/v1/files or a zip import; url: downloaded for a URL file"),
    created_at: iso,
  })
  .describe("A file of the workspace's file store") satisfies z.ZodType<StoredFileDto>;

const storedFileDetail = storedFileResource
  .extend({
    reference_count: z.int().describe("Live test cases whose files reference this file; while > 0 it cannot be deleted (409)"),
    referenced_by: z
      .array(z.object({ id: z.uuid(), name: z.string(), suite_id: z.uuid() }))
      .describe("The first 20 of those test cases, by name"),
  })
  .describe("A stored file with the live test cases that reference it") satisfies z.ZodType<StoredFileDetailDto>;

function fileComponents(): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {
    StoredFile: jsonSchema(storedFileResource, "output"),
    StoredFileDetail: jsonSchema(storedFileDetail, "output"),
    FileInput: {
      ...jsonSchema(fileInputSchema, "input"),
      description:
        'Spec 000 FileInput on a test case: exactly one of `path` ("file:<id>" of a stored file) or `url`; at most 10 per case. `cache` (URLs only) defaults to true.',
    },
    ProcessedFileInput: processedFileResource,
    FilePreview: {
      ...processedFileResource,
      description: "What the agent will see for one file: the ProcessedFileInput a run would produce, with an image's size",
      properties: {
        ...processedFileResource.properties,
        image: {
          type: ["object", "null"],
          description: "Images: what a vision model receives (resized); null for other files and failures",
          properties: {
            media_type: { type: "string" },
            width: { type: "integer" },
            height: { type: "integer" },
            data_url_chars: { type: "integer" },
            data_url: { type: ["string", "null"], description: "The data URL when at most 100,000 characters, else null" },
          },
          required: ["media_type", "width", "height", "data_url_chars", "data_url"],
        },
      },
      required: [...processedFileResource.required, "image"],
    },
  };
  Object.values(out).forEach(openObjects);
  return out;
}

const baselinePin = z.object({ suite_id: z.uuid(), baseline_run_id: z.uuid().nullable() });

const fieldDiff = z
  .object({ field: z.string(), before: z.unknown(), after: z.unknown() })
  .describe("One field that differs; before/after are the stored values (absent: the field was not set)");
const verdictChange = z.object({
  id: z.uuid().describe("The case result in this run"),
  test_case_id: z.uuid(),
  name: z.string(),
  before: z.string().describe("Status in the previous run"),
  after: z.string().describe("Status in this run"),
  case_changed: z.boolean().describe("The case's content (what it sends and how it is judged) differs between the two runs"),
  cause: z
    .enum(CHANGE_CAUSES)
    .describe("test: the case or the evaluation changed; agent: the agent changed; both; neither: possibly flaky"),
});
const runChangesResource = z
  .object({
    previous_run_id: z.uuid().nullable().describe("The suite's previous completed ordinary run (experiments are never compared)"),
    previous_run_number: z.number().int().nullable(),
    agent_changed: z.boolean(),
    evaluation_changed: z.boolean(),
    regressions: z.array(verdictChange).describe("Passed before, failed or errored now"),
    fixes: z.array(verdictChange).describe("Failed or errored before, passed now"),
    agent_fields: z
      .array(fieldDiff)
      .describe("What differs in the agent configuration: system_prompt, tools, model, temperature, variables.NAME, …"),
    evaluation_fields: z.array(fieldDiff).describe("What differs in the evaluation settings: judge_model, metrics, …"),
    case_fields: z
      .array(z.object({ test_case_id: z.uuid(), name: z.string(), fields: z.array(fieldDiff) }))
      .describe("Per flipped case whose content changed: the fields that differ"),
  })
  .describe("Verdicts that flipped since the previous run, and what changed between the two runs") satisfies z.ZodType<RunChangeDetails>;

function alertWebhookComponents(): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {
    Alert: jsonSchema(alertResource, "output"),
    Webhook: jsonSchema(webhookResource, "output"),
    WebhookDelivery: jsonSchema(deliveryResource, "output"),
    BaselinePin: jsonSchema(baselinePin, "output"),
    RunChanges: jsonSchema(runChangesResource, "output"),
  };
  Object.values(out).forEach(openObjects);
  return out;
}

/**
 * Requests: what a client sends (input view). They are published under
 * `components.requestBodies`, not `components.schemas`: generators such as openapi-typescript
 * make a property with a `default` required in a schema component (a response, in their view)
 * but never inside a request body, so defaulted fields stay optional in generated clients.
 */
export const requestSchemas = {
  ModelConfigInput: jsonSchema(modelConfigInput),
  ModelConfigPatch: patchBody(modelConfigPatch),
  AgentInput: jsonSchema(agentInput),
  AgentPatch: patchBody(agentPatch),
  SuiteInput: jsonSchema(suiteInput),
  SuitePatch: patchBody(suitePatch),
  TestCaseInput: jsonSchema(testCaseInput),
  TestCasePatch: patchBody(testCasePatch),
  RunStartInput: jsonSchema(startRunInput),
  ComparisonInput: jsonSchema(createComparisonInput),
  ComparisonSessionDocument: jsonSchema(sessionDocument),
  MatrixInput: jsonSchema(createMatrixInput),
  RetentionSettingsPatch: jsonSchema(retentionSettingsPatch),
  WebhookInput: jsonSchema(webhookInput),
  WebhookPatch: patchBody(webhookPatch),
  PresetInput: jsonSchema(presetInput),
  PresetPatch: patchBody(presetPatch),
  FilePreviewInput: jsonSchema(filePreviewBody),
} satisfies Record<string, JsonSchema>;
export type RequestSchemaName = keyof typeof requestSchemas;

/** Only on an update that moved the endpoint to another origin: the stored secrets it dropped. */
const secretWarnings = z
  .array(z.string())
  .optional()
  .describe(
    'Set when an update moved the URL to another origin and stored secrets were cleared, e.g. "api_key cleared because base_url changed origin"',
  );

export const componentSchemas: Record<string, JsonSchema> = {
  // Responses: what the server returns (output view).
  ModelConfig: resource(modelConfigResource, z.object({ warnings: secretWarnings })),
  Agent: resource(agentInput, serverFields.extend({ warnings: secretWarnings }), {
    description: "An agent; HTTP header values are masked (••••1234)",
  }),
  Suite: resource(suiteInput, suiteServerFields),
  TestCase: resource(testCaseInput, testCaseServerFields),
  Preset: resource(presetInput, serverFields.extend({ suite_id: z.uuid() }), {
    description: "A named set of run-level variable values of a suite (spec 004 presets)",
  }),
  TestCaseDocument: resource(testCaseInput, z.object({}), {
    omit: ["sort_order"],
    description: "One case as export writes it (spec 001 fields plus checks, mode and ground_truth); import accepts it back",
  }),
  // Hand-written (the run DTOs have no zod schema); every listed field is always sent.
  Run: { ...runResource, required: Object.keys(runResource.properties) },
  // `transcript` is sent by lists only on `include=transcript`; one case result always has it (CaseResultDetail).
  CaseResult: { ...caseResultResource, required: Object.keys(caseResultResource.properties).filter((k) => k !== "transcript") },
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
            items: { type: "object" },
          },
        },
      },
    ],
  },
  ImportResult: jsonSchema(importResult, "output"),
  ...comparisonComponents(),
  ComparisonSession: {
    ...jsonSchema(sessionDocument),
    description:
      "Spec 003 session document (TestSession.to_dict()): what the JSON report writes and the import reads back. Assay's report adds fields (test_case_id, repetition, order, status); all are optional on import.",
  },
  ...matrixComponents(),
  ...alertWebhookComponents(),
  ...fileComponents(),
  RetentionSettings: jsonSchema(retentionSettingsResponse, "output"),
  CleanupResult: jsonSchema(cleanupResponse, "output"),
  ServerFields: resource(serverFields, z.object({})),
  Error: jsonSchema(errorEnvelope, "output"),
};
