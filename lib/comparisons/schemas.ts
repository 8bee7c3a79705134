import { z } from "zod";
import { pageFields, paginationQuery } from "@/lib/api/query";
import { MAX_RUN_CONCURRENCY, DEFAULT_RUN_CONCURRENCY, caseSelectionFields, runMetadataInput } from "@/lib/runs/schemas";
import { TEXT_LIMITS } from "@/lib/validation/limits";
import { variableValues } from "@/lib/agents/schemas";

/**
 * Request and query schemas of the comparison routes (the A/B engine). No `server-only`:
 * the OpenAPI builder and the Compare dialog import them too.
 */

export const COMPARISON_STATUSES = ["pending", "running", "completed", "cancelled", "failed"] as const;
export type ComparisonStatus = (typeof COMPARISON_STATUSES)[number];
export const COMPARISON_ORDERINGS = ["sequential", "randomized", "concurrent"] as const;
export type ComparisonOrdering = (typeof COMPARISON_ORDERINGS)[number];
export const COMPARISON_SOURCES = ["executed", "runs", "imported"] as const;
export type ComparisonSource = (typeof COMPARISON_SOURCES)[number];
export const VERDICT_CHANGES = ["same", "pass_to_fail", "fail_to_pass", "error"] as const;
export const ARM_ROLES = ["baseline", "variant"] as const;
export type ArmRole = (typeof ARM_ROLES)[number];

export const MAX_REPETITIONS = 20;
export const MAX_RESET_WINDOW_MS = 60_000;
export const MAX_SEED = 2_147_483_647;

/**
 * One arm: the suite's agent with optional overrides. Absent (or null) fields keep the suite
 * agent's value; `variables` are the variables model run-level values for this arm.
 */
export const armInput = z
  .object({
    label: z.string().trim().min(1, "Label cannot be empty").max(TEXT_LIMITS.name).optional(),
    agent_id: z.uuid("agent_id must be a UUID").nullish(),
    model_config_id: z.uuid("model_config_id must be a UUID").nullish(),
    system_prompt: z.string().max(TEXT_LIMITS.prompt).nullish(),
    temperature: z.number().min(0, "Temperature must be between 0 and 2").max(2, "Temperature must be between 0 and 2").nullish(),
    max_tokens: z.number().int("max_tokens must be a whole number").min(1).max(1_000_000).nullish(),
    variables: variableValues.optional(),
  })
  .strict();
export type ArmInput = z.output<typeof armInput>;

/** The A/B engine's RetryPolicy for the agent calls of a comparison. */
export const retryPolicyInput = z
  .object({
    max_attempts: z.number().int().min(1).max(10).default(3),
    initial_delay_ms: z.number().int().min(0).max(60_000).default(100),
    backoff_factor: z.number().min(1).max(10).default(2),
    timeout_ms: z.number().int().min(100).max(600_000).default(30_000),
  })
  .strict();
export type RetryPolicyInput = z.output<typeof retryPolicyInput>;
export const DEFAULT_RETRY: RetryPolicyInput = { max_attempts: 3, initial_delay_ms: 100, backoff_factor: 2, timeout_ms: 30_000 };

const common = {
  name: z.string().trim().min(1, "Name cannot be empty").max(TEXT_LIMITS.name).optional(),
  notes: z.string().max(TEXT_LIMITS.prompt).optional(),
};

/** POST /api/v1/suites/{id}/comparisons: run both arms on the selected cases. */
export const executeComparisonInput = z
  .object({
    ...common,
    baseline: armInput,
    variant: armInput,
    ordering: z.enum(COMPARISON_ORDERINGS).default("sequential"),
    reset_window_ms: z.number().int().min(0).max(MAX_RESET_WINDOW_MS).default(100),
    seed: z.number().int("seed must be a whole number").min(0).max(MAX_SEED).optional(),
    repetitions: z
      .number()
      .int("repetitions must be a whole number")
      .min(1, "repetitions must be at least 1")
      .max(MAX_REPETITIONS, `repetitions must be at most ${MAX_REPETITIONS}`)
      .default(1),
    concurrency: z.number().int().min(1).max(MAX_RUN_CONCURRENCY).default(DEFAULT_RUN_CONCURRENCY),
    retry: retryPolicyInput.default(DEFAULT_RETRY),
    /** Where the comparison comes from (commit, branch, build URL): stored on both arm runs. */
    metadata: runMetadataInput,
    ...caseSelectionFields,
  })
  .strict();
export type ExecuteComparisonInput = z.output<typeof executeComparisonInput>;

/** POST /api/v1/suites/{id}/comparisons: pair two completed runs of the suite (no execution). */
export const compareRunsInput = z
  .object({
    ...common,
    baseline_run_id: z.uuid("baseline_run_id must be a UUID"),
    variant_run_id: z.uuid("variant_run_id must be a UUID"),
  })
  .strict();
export type CompareRunsInput = z.output<typeof compareRunsInput>;

/** Either body; the presence of `baseline_run_id`/`variant_run_id` selects the second. */
export const createComparisonInput = z.union([executeComparisonInput, compareRunsInput]);

export const comparisonListQuery = paginationQuery;

export const PAIR_SORTS = [
  "index",
  // Flipped verdicts first (pass → fail, then fail → pass), then errors, then the rest; ties by index.
  "flipped",
  "latency_diff_ms",
  "-latency_diff_ms",
  "token_overhead",
  "-token_overhead",
  "token_overhead_pct",
  "-token_overhead_pct",
  "latency_improvement_pct",
  "-latency_improvement_pct",
  "response_length_ratio",
  "-response_length_ratio",
] as const;
export type PairSort = (typeof PAIR_SORTS)[number];

export const pairListQuery = z.object({
  verdict_change: z.enum(VERDICT_CHANGES).optional(),
  sort: z.enum(PAIR_SORTS).default("index"),
  ...pageFields({ max: 500 }),
});
export type PairListQuery = z.output<typeof pairListQuery>;

export const comparisonReportQuery = z.object({ format: z.enum(["json", "csv"]).default("json") });

/** The largest value of a PostgreSQL `integer` column (pair index, repetition). */
export const MAX_INT4 = 2_147_483_647;
/**
 * The most tokens one count of an imported execution may claim: a pair's total (prompt +
 * completion) and its variant − baseline difference land in `integer` columns, so each count
 * stays below half of MAX_INT4.
 */
export const MAX_IMPORTED_TOKENS = 1_000_000_000;
/** The longest latency an imported execution may claim: one day, in milliseconds. */
export const MAX_IMPORTED_LATENCY_MS = 86_400_000;

const wholeNumber = (max: number) =>
  z
    .number({ error: "Expected a whole number" })
    .int("Expected a whole number")
    .min(0, "Must be 0 or more")
    .max(max, `Must be at most ${max.toLocaleString("en-US")}`);
const tokenCount = wholeNumber(MAX_IMPORTED_TOKENS);

/** The A/B engine's AgentResponse as a session document stores it. Every number is bounded by the column it ends in. */
const sessionResponse = z.object({
  response: z.string().max(1_000_000),
  prompt_tokens: tokenCount,
  completion_tokens: tokenCount,
  total_tokens: wholeNumber(2 * MAX_IMPORTED_TOKENS).optional(),
  latency_ms: z.number().min(0, "Must be 0 or more").max(MAX_IMPORTED_LATENCY_MS, "Must be at most one day (86,400,000 ms)"),
  tokens_per_ms: z.number().min(0).max(MAX_IMPORTED_TOKENS).optional(),
  model: z.string().max(TEXT_LIMITS.name).default(""),
  timestamp: z.string().max(64).optional(),
  error: z.string().max(TEXT_LIMITS.prompt).nullish(),
  retry_count: wholeNumber(MAX_INT4).default(0),
  /** Assay's verdict (absent in plain A/B engine documents: then `passed`/`failed` cannot be known and the execution counts as `passed` when it has no error). */
  status: z.enum(["passed", "failed", "error", "skipped"]).optional(),
  /** Assay's: why there is no verdict although the agent answered (`error` stays null: the call succeeded). */
  evaluation_error: z.string().max(TEXT_LIMITS.prompt).nullish(),
  case_result_id: z.string().nullish(),
});

const count = wholeNumber(MAX_INT4);
const executionStatsDocument = z.object({
  total_invocations: count,
  successful_invocations: count,
  failed_invocations: count,
  total_retries: count.default(0),
  retry_successes: z.record(z.string().max(8), count).default({}),
  timeouts: count.default(0),
  errors_by_type: z.record(z.string().max(TEXT_LIMITS.identifier), count).default({}),
});

/** POST /api/v1/suites/{id}/comparisons/import: the A/B engine's `TestSession.to_dict()` (Assay's export adds fields; all optional). */
export const sessionDocument = z.object({
  session_id: z.string().min(1).max(TEXT_LIMITS.name),
  start_time: z.string().max(64),
  end_time: z.string().max(64).nullish(),
  baseline_model: z.string().max(TEXT_LIMITS.name).default("baseline"),
  variant_model: z.string().max(TEXT_LIMITS.name).optional(),
  /** The A/B engine's own name for the variant. */
  docstratum_model: z.string().max(TEXT_LIMITS.name).optional(),
  environment: z.record(z.string(), z.unknown()).default({}),
  notes: z.string().max(TEXT_LIMITS.prompt).default(""),
  name: z.string().trim().min(1).max(TEXT_LIMITS.name).optional(),
  /** The A/B engine: where the session's llms.txt context came from ("" or absent: unknown). */
  llms_source_path: z.string().max(TEXT_LIMITS.url).nullish(),
  /** Assay's export: each arm's the A/B engine's ExecutionStats as the engine counted them (kept on import). */
  execution_stats: z.object({ baseline: executionStatsDocument, variant: executionStatsDocument }).optional(),
  results: z
    .array(
      z
        .object({
          question: z.string().max(TEXT_LIMITS.prompt),
          baseline: sessionResponse,
          variant: sessionResponse.optional(),
          docstratum: sessionResponse.optional(),
          timestamp: z.string().max(64).optional(),
          session_id: z.string().max(TEXT_LIMITS.name).optional(),
          metadata: z.record(z.string(), z.unknown()).default({}),
          test_case_id: z.string().nullish(),
          test_case_name: z.string().max(TEXT_LIMITS.name).optional(),
          /** The A/B engine: tokens of the llms.txt context (fixed per session); 0 when unknown. */
          context_tokens: tokenCount.default(0),
          repetition: wholeNumber(MAX_INT4).default(0),
          order: z.array(z.enum(ARM_ROLES)).max(2).optional(),
        })
        .refine((r) => r.variant ?? r.docstratum, { message: "Each result needs a variant (or docstratum) response", path: ["variant"] }),
    )
    .min(1, "A session needs at least one result")
    .max(50_000),
});
export type SessionDocument = z.output<typeof sessionDocument>;
