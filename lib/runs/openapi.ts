import { z } from "zod";
import { featurePart, jsonSchema, outputComponents, responseSchema, type OpenApiPart } from "@/lib/api/openapi-kit";
import { body, conflict, errors, idParam, list, listParameters, ok, queryParameters, ref, tooLarge } from "@/lib/api/openapi-paths";
import { CHANGE_CAUSES } from "./changes";
import {
  caseResultComponents,
  caseResultPaths,
  caseTablePageResource,
  costResource,
  runCaseResource,
  runResultPaths,
} from "./case-results-openapi";
import {
  caseHistoryQuery,
  rerunInput,
  RUN_STATUSES,
  runListQuery,
  runReportQuery,
  runExportQuery,
  workspaceRunListQuery,
  startRunInput,
} from "./schemas";

/**
 * The REST contract of runs: the run resource, the changes since the previous run, the OpenAPI
 * components and the paths of a suite's runs and one run. Case results have their own file
 * (./case-results-openapi.ts), assembled here.
 */

const count = z.number().int();
const timestamp = z.iso.datetime().nullable();

/**
 * `Run.summary` as finalize computes it: the execution model's ReportSummary plus tokens,
 * execution stats and the trial figures. `RunSummary` (./dto.ts) is its output type; the resource
 * shows it partial, as summaries stored before a field existed lack it.
 */
export const runSummaryComputed = z
  .looseObject({
    total_tests: count.describe("Every result of the run: passed + failed"),
    passed: count,
    failed: count.describe("Every result that did not pass: not_met + errors + skipped + unfinished"),
    not_met: count.describe("Results whose expectations were not met (status failed)"),
    errors: count.describe("Results that could not be judged (agent, simulator, judge, configuration errors)"),
    skipped: count.describe("Results never executed"),
    unfinished: count.describe("Results still pending or running (0 once the run ended)"),
    executed: count.describe("passed + not_met + errors"),
    total_cases: count.describe("The same as total_tests (kept for older readers)"),
    pass_rate: z.number().describe("passed / total_tests × 100, one decimal (0 without results)"),
    executed_pass_rate: z.number().describe("passed / executed × 100, one decimal: the run's pass_rate"),
    counting: z.string().describe("Which results each count holds, in words"),
    weighted_pass_rate: z
      .number()
      .describe("executed_pass_rate with hard cases weighing hard_weight and normal ones 1 (the test case format)"),
    hard_weight: z.number(),
    total_duration_ms: count.describe("Sum of the results' durations"),
    wall_time_ms: count.describe("From the first result's start to the last one's end"),
    average_latency_ms: count.nullable(),
    prompt_tokens: count,
    completion_tokens: count,
    total_tokens: count,
    retry_count: count.describe("Agent call retries summed over the cases (the A/B engine's retry policy)"),
    evaluator_retry_count: count.describe("Judge, simulator, check and metric retries summed over the cases"),
    metrics_evaluated: z.record(z.string(), count).describe("Per metric, how many results it was evaluated on"),
    average_scores: z.record(z.string(), z.number()).describe("Per metric, the average normalised (0..1) score"),
    metric_pass_rates: z.record(z.string(), z.number()).describe("Per metric, the share of evaluations that passed, 0–100"),
    execution_stats: z.object({
      total_invocations: count,
      successful_invocations: count,
      failed_invocations: count,
      retries: count,
      cached_calls: count,
      by_purpose: z.record(z.string(), z.object({ invocations: count, failed: count, retries: count })),
      errors_by_type: z.record(z.string(), count),
    }),
    trials: count.describe("Trials per case (1–20): every trial is its own case result"),
    judged_cases: count.describe(
      "Cases with at least one judged trial (passed or failed; errors are not judged): the denominator of the rates below",
    ),
    pass_at_1: z
      .number()
      .nullable()
      .describe(
        "Mean over judged cases of the case's pass rate (passed / judged trials), 0..1; with one trial, the pass rate over judged cases",
      ),
    pass_at_1_ci95: z
      .tuple([z.number(), z.number()])
      .nullable()
      .describe("95% interval [low, high] of pass_at_1 (0..1), by pass_at_1_ci95_method"),
    pass_at_1_ci95_method: z.string().describe("How the interval is computed"),
    pass_at_k: z.number().nullable().describe("Share of judged cases with at least one passing trial, 0..1"),
    pass_all_k: z.number().nullable().describe("Share of judged cases whose every judged trial passed (pass^k), 0..1"),
    flaky_cases: count.describe("Cases that both passed and failed across their trials"),
    error_only_cases: count.describe("Cases whose every executed trial errored (no verdict)"),
  })
  .describe(
    "The execution model's ReportSummary + tokens + execution stats + trial figures. total_tests counts every result (the report's len(results)) and failed every result " +
      "that did not pass, so total_tests = passed + failed; not_met, errors, skipped and unfinished break failed down. pass_rate = passed / total_tests × 100; " +
      "executed_pass_rate = passed / executed × 100 is the run's own pass_rate (skipped results not counted). Summaries stored under older rules are recounted when read; " +
      "fields added later are absent from summaries stored before them.",
  );
/** Human review's figures, read with the run (they change after it ended, as reviewers label its results). */
const reviewFigures = {
  reviewed: count.describe("Results with a human verdict (from agreed or resolved review items)"),
  overturned: count.describe("Results whose human verdict differs from the judge's"),
  pass_rate_reviewed: z
    .number()
    .describe("executed_pass_rate over effective statuses (the human verdict where there is one, else the judge's), one decimal"),
};
const runSummary = runSummaryComputed.extend(reviewFigures).partial();

/** A run. Totals update live while it executes; summary is set when it ends. */
export const runResource = z
  .object({
    id: z.uuid(),
    suite_id: z.uuid(),
    number: count.describe("The run's number within its suite (#42), never reused"),
    experiment: z
      .boolean()
      .describe("A comparison arm or a matrix combination: not part of the suite's history (trend, latest run, regression baseline)"),
    status: z.enum(RUN_STATUSES),
    triggered_by: z.enum(["manual", "schedule", "api"]),
    triggered_by_user_id: z.uuid().nullable().describe("The member who started it; null for schedules and API keys"),
    metadata: z
      .record(z.string(), z.string())
      .describe("Where the run comes from, as its caller said: {commit, branch, build_url, …} (string values, at most 20 keys)"),
    agent_hash: z
      .string()
      .nullable()
      .describe("Hash of the agent configuration the run used (prompt, tools, model, parameters, variable values)"),
    eval_hash: z.string().nullable().describe("Hash of the evaluation settings the run used (judge and simulator models, metrics)"),
    rate_limit_waits: z
      .number()
      .int()
      .nullable()
      .describe(
        "Running cases whose model or agent call is waiting for the provider's rate limit right now (GET /runs/{id}); null in lists, where it is not counted",
      ),
    total_cases: count,
    passed_cases: count,
    failed_cases: count,
    skipped_cases: count,
    error_cases: count,
    done_cases: count.describe("passed + failed + skipped + error cases so far"),
    pass_rate: z.number().describe("passed / (total - skipped) × 100"),
    prompt_tokens: count,
    completion_tokens: count,
    cost: costResource.describe("The sum of the case results' costs, set when the run ends (null while it runs)"),
    concurrency: count.describe("Cases executed at the same time"),
    trials: count.describe("How many times each selected case runs (1–20); every trial is its own case result"),
    reviewed_cases: reviewFigures.reviewed,
    overturned_cases: reviewFigures.overturned,
    pass_rate_reviewed: reviewFigures.pass_rate_reviewed.describe(
      "pass_rate over effective statuses: a result's human verdict where a review gave one, else the judge's (0–100, one decimal)",
    ),
    rerun_of: z.uuid().nullable().describe("The run this one re-runs some cases of (POST /api/v1/runs/{id}/rerun); null otherwise"),
    options: z
      .record(z.string(), z.unknown())
      .describe("The case selection and execution options: {tags, tag_match, difficulty, case_ids, concurrency}"),
    started_at: timestamp,
    completed_at: timestamp,
    cancel_requested_at: timestamp.describe("Set when a cancel was asked for"),
    created_at: z.iso.datetime(),
    error_message: z.string().nullable(),
    summary: runSummary.nullable(),
    agent_snapshot: z.record(z.string(), z.unknown()).describe("The agent as it was when the run started (URL secrets masked)"),
    variant_snapshot: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe("A comparison variant arm's agent as it ran (URL secrets masked); null otherwise"),
    resolved_variables: z.record(z.string(), z.unknown()).describe("The variables model's resolution: {values, sources}"),
    comparison_id: z.uuid().nullable().describe("Set on a comparison's arm runs"),
    arm_index: count.nullable().describe("0 for a comparison's baseline arm, 1 for its variant"),
    matrix_id: z.uuid().nullable().describe("Set on a matrix's runs (one per combination)"),
    combination_index: count.nullable().describe("The combination of the matrix this run executes (0-based)"),
  })
  .describe("A run. Totals update live while it executes; summary is set when it ends.");

const fieldDiff = z
  .object({ field: z.string(), before: z.unknown(), after: z.unknown() })
  .describe("One field that differs; before/after are the stored values (absent: the field was not set)");

/** A case whose verdict changed since the suite's previous completed run. */
export const verdictChange = z.object({
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

/**
 * Cases whose verdict changed since the suite's previous completed ordinary run, each with why
 * (lib/runs/changes.ts): the case changed, the agent changed, both, or neither (possibly flaky).
 */
export const runChanges = z.object({
  previous_run_id: z.uuid().nullable().describe("The suite's previous completed ordinary run (experiments are never compared)"),
  previous_run_number: z.number().int().nullable(),
  agent_changed: z.boolean(),
  evaluation_changed: z.boolean(),
  regressions: z.array(verdictChange).describe("Passed before, failed or errored now"),
  fixes: z.array(verdictChange).describe("Failed or errored before, passed now"),
});

/** A run's changes with what changed, field by field (lib/runs/change-details.ts): GET /api/v1/runs/{id}/changes. */
export const runChangesResource = runChanges
  .extend({
    agent_fields: z
      .array(fieldDiff)
      .describe("What differs in the agent configuration: system_prompt, tools, model, temperature, variables.NAME, …"),
    evaluation_fields: z.array(fieldDiff).describe("What differs in the evaluation settings: judge_model, metrics, …"),
    case_fields: z
      .array(z.object({ test_case_id: z.uuid(), name: z.string(), fields: z.array(fieldDiff) }))
      .describe("Per flipped case whose content changed: the fields that differ"),
  })
  .describe("Verdicts that flipped since the previous run, and what changed between the two runs");

/** GET /api/v1/test-cases/{id}/history. */
export const caseHistoryResource = z
  .object({
    test_case_id: z.uuid(),
    flip_rate: z
      .number()
      .nullable()
      .describe("Verdict changes between consecutive judged results (oldest to newest) / (judged results − 1); null with fewer than two"),
    results: z.array(
      z.object({
        id: z.uuid(),
        status: z.enum(["passed", "failed", "error"]),
        trial: count,
        run_id: z.uuid(),
        run_number: count,
        created_at: z.iso.datetime(),
        completed_at: timestamp,
      }),
    ),
  })
  .describe("A test case's last results in its suite's history (comparison arms and matrix combinations left out), newest first");

/** A row of the workspace's runs list: the run's figures without snapshots, options or summary, with its suite. */
const runListItemResource = z.object({
  id: z.uuid(),
  number: count,
  suite_id: z.uuid(),
  suite_name: z.string(),
  experiment: z.boolean().describe("A comparison arm or matrix combination"),
  metadata: z.record(z.string(), z.string()),
  status: z.enum(RUN_STATUSES),
  triggered_by: z.enum(["manual", "schedule", "api"]),
  created_at: z.iso.datetime(),
  started_at: timestamp,
  completed_at: timestamp,
  total: count,
  done: count,
  passed: count,
  failed: count,
  errors: count,
  skipped: count,
  pass_rate: z.number().nullable().describe("passed / (passed + failed + errors) × 100, one decimal; null before any verdict"),
  duration_ms: z.number().nullable(),
  comparison_id: z.uuid().nullable(),
  arm_index: count.nullable(),
  matrix_id: z.uuid().nullable(),
  combination_index: count.nullable(),
});

function paths() {
  const runId = idParam;
  return {
    "/api/v1/runs": {
      get: {
        operationId: "listWorkspaceRuns",
        tags: ["Runs"],
        summary: "List the workspace's runs across its suites (newest first)",
        description:
          "Role: viewer. Filters: `suite_id`, `status`, `trigger`, `kind` (ordinary runs by default; `experiment` or `all`) and " +
          "`metadata` as `key:value` (runs whose metadata has exactly that value, e.g. `branch:main`). A 400 names the invalid parameter.",
        parameters: listParameters(workspaceRunListQuery, {
          metadata: "`key:value`: runs whose metadata key has exactly this value (e.g. `branch:main`)",
          kind: "ordinary (default): the suites' histories; experiment: comparison arms and matrix combinations; all",
        }),
        responses: { "200": list("RunListItem"), ...errors },
      },
    },
    "/api/v1/suites/{id}/runs": {
      parameters: [idParam],
      get: {
        operationId: "listRuns",
        tags: ["Runs"],
        summary: "List a suite's runs (newest first)",
        description: "Role: viewer.",
        parameters: listParameters(runListQuery),
        responses: { "200": list("Run"), ...errors },
      },
      post: {
        operationId: "startRun",
        tags: ["Runs"],
        summary: "Start a run",
        description:
          "Role: editor. Runs the suite's active cases, optionally narrowed by tags/difficulty (or exactly `case_ids`); 202 with the pending run. 400 when no case matches. " +
          "Variables resolve per case by the variables model (run > suite > test > type; a test-locked value wins); `preset` (a preset's name or id) applies its values first and `variables` override them. " +
          "A 400 names `variables.NAME` and the case when a value does not resolve. " +
          "`trials` (1–20) runs every case that many times, each trial its own case result (trial 0 of every case first); absent: the preset's trials, else the suite's `default_trials`.",
        requestBody: body("RunStartInput"),
        responses: { "202": ok("The pending Run", ref("Run")), ...errors, ...tooLarge() },
      },
    },
    "/api/v1/runs/{id}": {
      parameters: [runId],
      get: {
        operationId: "getRun",
        tags: ["Runs"],
        summary: "Get a run (status, totals, summary)",
        description: "Role: viewer.",
        responses: { "200": ok("Run", ref("Run")), ...errors },
      },
    },
    "/api/v1/runs/{id}/changes": {
      parameters: [runId],
      get: {
        operationId: "getRunChanges",
        tags: ["Runs"],
        summary: "What changed since the previous run",
        description:
          "Role: viewer. The cases whose verdict flipped since the suite's previous completed ordinary run (comparison arms and matrix combinations are experiments and never compared), " +
          "each with its cause: `test` (the case's content or the suite's evaluation settings changed), `agent` (the agent configuration changed), `both`, or `neither` (possibly flaky). " +
          "`agent_fields`, `evaluation_fields` and `case_fields` list what differs, field by field.",
        responses: { "200": ok("RunChanges", ref("RunChanges")), ...errors },
      },
    },
    ...runResultPaths(),
    "/api/v1/runs/{id}/rerun": {
      parameters: [runId],
      post: {
        operationId: "rerunRun",
        tags: ["Runs"],
        summary: "Re-run some cases of a finished run",
        description:
          "Role: editor. A new run over the cases of this run that `only` names — `failed` (a trial failed), `errors` (a trial errored), `flaky` (passed and failed), `all`, " +
          "or `selected`: the cases of the results listed in `case_result_ids` (required with it, refused with the other scopes; ids of other runs match nothing) — " +
          "with the original run's agent and evaluation snapshots, variables and concurrency, and `trials` (default: the original's); linked by `rerun_of`. " +
          "202 with the pending run; 400 when no case matches; 409 for a run still going, a comparison's or a matrix's run, or a suite in the trash.",
        requestBody: body("RerunInput"),
        responses: { "202": ok("The pending Run", ref("Run")), ...errors, ...conflict, ...tooLarge() },
      },
    },
    "/api/v1/test-cases/{id}/history": {
      parameters: [idParam],
      get: {
        operationId: "getCaseHistory",
        tags: ["Runs"],
        summary: "A test case's last results across runs, with its flip rate",
        description: "Role: viewer. Newest first, every trial its own entry; comparison arms and matrix combinations are left out.",
        parameters: queryParameters(caseHistoryQuery, { limit: "How many results (2–200, default 20)" }),
        responses: { "200": ok("CaseHistory", ref("CaseHistory")), ...errors },
      },
    },
    "/api/v1/runs/{id}/cancel": {
      parameters: [runId],
      post: {
        operationId: "cancelRun",
        tags: ["Runs"],
        summary: "Cancel a run",
        description: "Role: editor. No new cases start; pending ones are skipped; 409 when the run already ended.",
        responses: { "200": ok("The Run", ref("Run")), ...errors, ...conflict },
      },
    },
    "/api/v1/runs/{id}/report": {
      parameters: [runId],
      get: {
        operationId: "getRunReport",
        tags: ["Runs"],
        summary: "A run report",
        description: "Role: viewer. json (the execution model's report), markdown, csv or junit (JUnit XML for CI).",
        parameters: queryParameters(runReportQuery, { format: "json, markdown, csv or junit" }),
        responses: { "200": { description: "The report file" }, ...errors },
      },
    },
    "/api/v1/runs/{id}/export": {
      parameters: [runId],
      get: {
        operationId: "exportRunTranscripts",
        tags: ["Runs"],
        summary: "A run's transcripts as OpenAI chat JSONL",
        description:
          "Role: viewer. format=openai-jsonl: one `{messages, tools}` line per finished case result (every trial its own line; errors and skipped cases have no answer and are left out), " +
          "assistant tool calls as `tool_calls` and their results as `tool` messages — the format OpenAI's fine-tuning and Evals APIs read. Streamed.",
        parameters: queryParameters(runExportQuery, { format: "openai-jsonl (the default and only format)" }),
        responses: {
          "200": { description: "The JSONL file", content: { "application/x-ndjson": { schema: { type: "string" } } } },
          ...errors,
        },
      },
    },
    ...caseResultPaths(),
  };
}

export function runsOpenApi(): OpenApiPart {
  return featurePart(
    "Runs",
    "Executions of a suite's cases: start, follow, cancel, read the case results and download reports (JSON, Markdown, CSV, JUnit). Read: viewer; start/cancel: editor.",
    {
      paths: paths(),
      schemas: {
        Run: responseSchema(runResource),
        RunListItem: responseSchema(runListItemResource),
        RunCase: responseSchema(runCaseResource),
        CaseHistory: responseSchema(caseHistoryResource),
        ...caseResultComponents(),
        ...outputComponents({ RunChanges: runChangesResource, CaseTablePage: caseTablePageResource }),
      },
      requests: { RunStartInput: jsonSchema(startRunInput), RerunInput: jsonSchema(rerunInput) },
    },
  );
}
