import { z } from "zod";
import { DIFFICULTIES } from "@/lib/test-cases/schemas";
import { REPORT_FORMATS } from "@/lib/runs/report-formats";
import { pageFields, wholeNumberQuery } from "@/lib/api/query";
import { TEXT_LIMITS } from "@/lib/validation/limits";
import { variableValues } from "@/lib/agents/schemas";
import { CASE_SORT_KEYS, SORT_DIRS } from "@/lib/runs/case-sort";

export const RUN_STATUSES = ["pending", "running", "completed", "failed", "cancelled"] as const;
export const CASE_RESULT_STATUSES = ["pending", "running", "passed", "failed", "skipped", "error"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export type CaseResultStatus = (typeof CASE_RESULT_STATUSES)[number];

/** What a list of case results may embed on request (`?include=transcript`). */
export const CASE_RESULT_INCLUDES = ["transcript"] as const;
export type CaseResultInclude = (typeof CASE_RESULT_INCLUDES)[number];

export const MAX_RUN_CONCURRENCY = 64;
export const MAX_TRIALS = 20;

/**
 * How many times each selected case runs (1–20): every trial is an ordinary case result. Absent
 * or null in a body: the preset's trials, else the suite's `default_trials`.
 */
export const trialsInput = z
  .number({ error: "trials must be a whole number" })
  .int("trials must be a whole number")
  .min(1, "trials must be at least 1")
  .max(MAX_TRIALS, `trials must be at most ${MAX_TRIALS}`);
export const DEFAULT_RUN_CONCURRENCY = 8;

/**
 * Which of the suite's cases a run (comparison, matrix) takes: the active ones, narrowed by tags
 * and difficulty, or exactly `case_ids`. Shared by every body that selects cases.
 */
export const caseSelectionFields = {
  /** Narrow the active cases to these tags (any of them unless tag_match is "all"). */
  tags: z.array(z.string().trim().min(1).max(TEXT_LIMITS.tag)).max(50).default([]),
  tag_match: z.enum(["any", "all"]).default("any"),
  difficulty: z
    .enum(DIFFICULTIES)
    .nullish()
    .transform((v) => v ?? null),
  /** Run exactly these cases (any status except deleted) instead of the active ones. */
  case_ids: z
    .array(z.uuid())
    .max(10_000)
    .nullish()
    .transform((v) => v ?? null),
};

export const MAX_RUN_METADATA_KEYS = 20;
export const MAX_RUN_METADATA_VALUE = 2000;

/**
 * What a run's caller says about where it comes from — `{commit, branch, build_url, …}`: string
 * values, at most MAX_RUN_METADATA_KEYS keys. Shown on the run list, the run page, the trend's
 * tooltips and alerts; the CLI fills commit, branch and build URL from the CI's environment.
 */
export const runMetadataInput = z
  .record(
    z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, "Metadata keys are 1–64 letters, digits, dots, dashes or underscores"),
    z
      .string({ error: "Metadata values must be strings" })
      .max(MAX_RUN_METADATA_VALUE, `Metadata values are at most ${MAX_RUN_METADATA_VALUE} characters`),
  )
  .refine((m) => Object.keys(m).length <= MAX_RUN_METADATA_KEYS, `At most ${MAX_RUN_METADATA_KEYS} metadata keys`)
  .default({});

/** Options for starting a run (suite page form and POST /api/v1/suites/{id}/runs). */
export const startRunInput = z
  .object({
    ...caseSelectionFields,
    concurrency: z
      .number({ error: "Concurrency must be a whole number" })
      .int("Concurrency must be a whole number")
      .min(1, "Concurrency must be at least 1")
      .max(MAX_RUN_CONCURRENCY, `Concurrency must be at most ${MAX_RUN_CONCURRENCY}`)
      .default(DEFAULT_RUN_CONCURRENCY),
    trials: trialsInput.nullish().transform((v) => v ?? null),
    /** The variables model run-level variable values (highest priority). */
    variables: variableValues.default({}),
    /**
     * A preset of the suite (its id or name) whose values apply first; `variables` override them
     * (the CLI's `--preset`).
     */
    preset: z
      .string({ error: "Preset must be a preset name or id" })
      .trim()
      .min(1, "Preset must be a preset name or id")
      .max(TEXT_LIMITS.shortName)
      .nullish()
      .transform((v) => v ?? null),
    metadata: runMetadataInput,
  })
  .strict();
export type StartRunInput = z.input<typeof startRunInput>;
export type StartRunOptions = z.output<typeof startRunInput>;

/**
 * Which runs a list shows: the suite's history (manual, scheduled, API/CLI runs: the default),
 * its experiments (comparison arms and matrix combinations), or all of them.
 */
export const RUN_KINDS = ["ordinary", "experiment", "all"] as const;
export type RunKind = (typeof RUN_KINDS)[number];

export const runListQuery = z.object({
  status: z.enum(RUN_STATUSES).optional(),
  kind: z.enum(RUN_KINDS).default("ordinary"),
  ...pageFields(),
});

export const RUN_TRIGGERS = ["manual", "schedule", "api"] as const;

/**
 * A metadata filter, `key:value` (`branch:main`): runs whose metadata has that key with exactly
 * that value. The key follows the metadata keys' rule; the value is everything after the first colon.
 */
export const runMetadataFilter = z
  .string()
  .max(MAX_RUN_METADATA_VALUE + 65)
  .transform((v, c) => {
    const at = v.indexOf(":");
    const key = at < 0 ? "" : v.slice(0, at).trim();
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(key)) {
      c.addIssue({ code: "custom", message: "Write a metadata filter as key:value, for example branch:main" });
      return z.NEVER;
    }
    const value = v.slice(at + 1).trim();
    if (value.includes("\u0000")) {
      c.addIssue({ code: "custom", message: "Metadata values cannot contain NUL characters" });
      return z.NEVER;
    }
    return { key, value };
  });

/** The filters of the workspace's runs list (the Runs page and GET /api/v1/runs). */
export const workspaceRunFilters = {
  suite_id: z.uuid("Must be a suite id").optional(),
  status: z.enum(RUN_STATUSES).optional(),
  trigger: z.enum(RUN_TRIGGERS).optional(),
  metadata: runMetadataFilter.optional(),
  kind: z.enum(RUN_KINDS).default("ordinary"),
};

export const workspaceRunListQuery = z.object({
  ...workspaceRunFilters,
  ...pageFields(),
});
export type WorkspaceRunListQuery = z.output<typeof workspaceRunListQuery>;

export const caseResultListQuery = z.object({
  status: z.enum(CASE_RESULT_STATUSES).optional(),
  tag: z.string().trim().min(1).max(TEXT_LIMITS.tag).optional(),
  variant: z.enum(["baseline", "variant"]).optional(),
  /** Only this trial (0-based) of every case. */
  trial: wholeNumberQuery("trial", 0, MAX_TRIALS - 1).optional(),
  ...pageFields({ max: 500, fallback: 100 }),
  /** `include=transcript` (a comma list): what each result embeds besides its columns; without it no transcript is read. */
  include: z
    .string()
    .max(200)
    .regex(/^[a-z_]+(,[a-z_]+)*$/, "A comma-separated list, e.g. transcript")
    .transform((v) => [...new Set(v.split(","))])
    .pipe(z.array(z.enum(CASE_RESULT_INCLUDES, { error: `Unknown include; allowed: ${CASE_RESULT_INCLUDES.join(", ")}` })))
    .optional(),
});
export type CaseResultListQuery = z.output<typeof caseResultListQuery>;

/** The longest search a case table takes (a phrase of an answer, not a document). */
export const MAX_CASE_SEARCH = 200;
/** The largest page of a case table (its UI shows 50). */
export const MAX_CASE_TABLE_LIMIT = 200;

/**
 * A run's case table (the run page, GET /api/v1/runs/{id}/case-results, the case view's
 * previous/next links): filters, a search, an order and a page. Offset pages: the table shows
 * "1–50 of 300" and jumps between pages; a run's results do not move once it finished.
 */
export const caseTableQuery = z.object({
  status: z.enum(CASE_RESULT_STATUSES, { error: `status is one of ${CASE_RESULT_STATUSES.join(", ")}` }).optional(),
  tag: z.string().trim().min(1).max(TEXT_LIMITS.tag).optional(),
  /** Case name, tags or response text containing this (case-insensitive). */
  q: z
    .string()
    .trim()
    .max(MAX_CASE_SEARCH, `q must be at most ${MAX_CASE_SEARCH} characters`)
    .optional()
    .transform((v) => v || undefined),
  variant: z.enum(["baseline", "variant"], { error: "variant is baseline or variant" }).optional(),
  trial: caseResultListQuery.shape.trial,
  sort: z.enum(CASE_SORT_KEYS, { error: `sort is one of ${CASE_SORT_KEYS.join(", ")}` }).default("status"),
  dir: z.enum(SORT_DIRS, { error: "dir is asc or desc" }).default("asc"),
  page: wholeNumberQuery("page", 1, 100_000).default(1),
  limit: wholeNumberQuery("limit", 1, MAX_CASE_TABLE_LIMIT).default(50),
});
export type CaseTableQuery = z.output<typeof caseTableQuery>;
export type CaseTableQueryInput = z.input<typeof caseTableQuery>;

/** GET /api/v1/runs/{id}/report: the file format (json is the execution model report). */
export const runReportQuery = z.object({ format: z.enum(REPORT_FORMATS).default("json") });

export const STABILITIES = ["stable_pass", "flaky", "stable_fail", "error"] as const;

/** GET /api/v1/runs/{id}/cases: one row per test case with its trials' figures. */
export const runCasesQuery = z.object({
  stability: z.enum(STABILITIES, { error: `stability is one of ${STABILITIES.join(", ")}` }).optional(),
  tag: z.string().trim().min(1).max(TEXT_LIMITS.tag).optional(),
  ...pageFields({ max: 500, fallback: 100 }),
});
export type RunCasesQuery = z.output<typeof runCasesQuery>;

export const MAX_HISTORY_RESULTS = 200;

/** GET /api/v1/test-cases/{id}/history. */
export const caseHistoryQuery = z.object({
  limit: wholeNumberQuery("limit", 2, MAX_HISTORY_RESULTS).default(20),
});

export const RERUN_SCOPES = ["failed", "errors", "flaky", "all", "selected"] as const;
export type RerunScope = (typeof RERUN_SCOPES)[number];

/** The most case results one "Re-run selected" names (a few pages of the run's table). */
export const MAX_RERUN_SELECTED = 1_000;

/**
 * POST /api/v1/runs/{id}/rerun: which of the run's cases run again — those with a failed trial,
 * with an errored trial, the flaky ones, all, or the cases of the `case_result_ids` selected on
 * the run page — and how many trials (default: the run's).
 */
export const rerunInput = z
  .object({
    only: z.enum(RERUN_SCOPES, { error: `only is one of ${RERUN_SCOPES.join(", ")}` }),
    case_result_ids: z
      .array(z.uuid("case_result_ids holds case result ids"), { error: "case_result_ids is a list of case result ids" })
      .min(1, "Select at least one case result")
      .max(MAX_RERUN_SELECTED, `At most ${MAX_RERUN_SELECTED} case results at once`)
      .optional(),
    trials: trialsInput.optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.only === "selected" && !v.case_result_ids) {
      ctx.addIssue({ code: "custom", path: ["case_result_ids"], message: "only=selected needs case_result_ids" });
    }
    if (v.only !== "selected" && v.case_result_ids) {
      ctx.addIssue({ code: "custom", path: ["case_result_ids"], message: "case_result_ids goes with only=selected" });
    }
  });
export type RerunInput = z.output<typeof rerunInput>;

/** GET /api/v1/runs/{id}/export: the format (one today; the parameter keeps room for more). */
export const runExportQuery = z.object({
  format: z.enum(["openai-jsonl"], { error: "format must be openai-jsonl" }).default("openai-jsonl"),
});
