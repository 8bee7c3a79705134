import "server-only";
import { stringify } from "csv-stringify/sync";
import { db } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { getRun } from "@/lib/runs/service";
import { caseResultGroupPages, caseResultPages, REPORT_CASE_KEY } from "@/lib/runs/case-results";
import type { CaseResultDto, RunDto, RunSummary } from "@/lib/runs/dto";
import { computeSummary } from "@/lib/runs/finalize";
import { runTrialSummary } from "@/lib/runs/trial-reads";
import { prettyJsonWithResults, textStream } from "@/lib/api/stream";

import { REPORT_FORMATS, reportFilename, type ReportFormat } from "@/lib/runs/report-formats";
import { fileLabel, fileLine, humanReviewLine, oneLine, trialFiguresLine, type TrialFigures } from "@/lib/runs/report-lines";
import { junitReport, type JunitTotals } from "@/lib/runs/report-junit";
import { ASSAY_VERSION } from "@/lib/version";
import { formatUsd, type CostBreakdown } from "@/lib/runs/cost";
import { escapeCsvCell, escapeMarkdown } from "@/lib/runs/report-escape";
export { REPORT_FORMATS, type ReportFormat };

/**
 * Run reports (the execution model's JSON, Markdown, CSV, JUnit XML), streamed: the header is written from the
 * run row and SQL aggregates, then the case results one keyset page at a time (REPORT_PAGE_SIZE
 * rows per query, transcripts never read: the tools they called come from SQL), each page
 * written before the next is read. Memory stays flat in the number of results; the bytes are
 * the same as a report built whole.
 *
 * Every result is one trial of its case (`trial`, 0-based). JSON, Markdown and CSV list every
 * trial; JUnit has one testcase per case with its trials as Maven Surefire's flaky and rerun
 * elements, and the summaries carry pass@1 with its interval, pass@k, pass^k and the flaky count.
 */

/** Case results per query while a report streams. */
export const REPORT_PAGE_SIZE = 200;

const contentTypes: Record<ReportFormat, string> = {
  json: "application/json; charset=utf-8",
  markdown: "text/markdown; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  junit: "application/xml; charset=utf-8",
};

export type ToolCallResults = {
  passed?: boolean;
  matched?: { tool: string }[];
  missing?: { tool: string }[];
  unexpected?: { tool: string }[];
} | null;
export type MetricResult = {
  metric_name: string;
  score: number | null;
  threshold: number | null;
  /** null: not evaluated (`error` says why). */
  passed: boolean | null;
  scale?: number | null;
  /** Absent on results stored before thresholds moved to the metric's scale (their score is on 0..1). */
  normalized_score?: number | null;
  error?: string | null;
};
type Snapshot = { initial_message?: string | null; ground_truth?: string | null; expected_tool_calls?: { tool: string }[] | null };

/** A case result as reports read it: no transcript, only the tools it called. */
export type ReportRow = CaseResultDto & { tools_called: string[] };

/**
 * A run's report as a stream. The run, its suite and the summary are read now (a missing run is
 * a 404 before any byte is sent); the case results are read while the stream is consumed.
 */
export async function buildRunReport(ctx: WorkspaceContext, runId: string, format: ReportFormat) {
  const run = await getRun(ctx, runId);
  const suite = await db.suite.findFirst({ where: { id: run.suite_id, workspaceId: ctx.workspaceId }, select: { name: true } });
  if (!suite) throw new NotFoundError("Suite");
  const agent = run.agent_snapshot as { id?: string; name?: string; kind?: string; model_config?: { model?: string } | null } | null;
  const agentName = agent?.name ?? "agent";
  // getRun recounts summaries stored under older rules; the oldest (before weighted pass rates)
  // also lack fields their counts cannot give back, and a live run has none yet: computed now.
  const stored = run.summary as Partial<RunSummary> | null;
  const counted = stored && stored.weighted_pass_rate !== undefined ? stored : await computeSummary(run.id);
  // Summaries stored before trials lack their figures: counted now (one grouped query), so every report has pass@1 and its interval.
  const summary = counted.pass_at_1 === undefined ? { ...counted, ...(await runTrialSummary(run.id, run.trials)) } : counted;
  const meta: Meta = {
    run,
    suiteName: suite.name,
    agentName,
    // The execution model's `agent_config_path` names the agent's configuration file; an Assay agent lives at its API path.
    agentConfigPath: agent?.id ? `/api/v1/agents/${agent.id}` : agentName,
    environment: {
      assay_version: ASSAY_VERSION,
      node_version: process.version,
      platform: `${process.platform}-${process.arch}`,
      agent_kind: agent?.kind ?? "unknown",
      ...(agent?.model_config?.model ? { agent_model: agent.model_config.model } : {}),
    },
    summary: summary as Record<string, unknown>,
  };
  const pages = () => caseResultPages(ctx, run.id, REPORT_PAGE_SIZE) as AsyncGenerator<ReportRow[]>;
  const chunks =
    format === "json"
      ? jsonReport(meta, pages())
      : format === "markdown"
        ? markdownReport(meta, pages())
        : format === "csv"
          ? csvReport(pages())
          : junitReport(meta, await junitTotals(ctx, run.id), caseResultGroupPages(ctx, run.id, REPORT_PAGE_SIZE));
  return {
    body: textStream(chunks, { runId: run.id, format }),
    contentType: contentTypes[format],
    filename: reportFilename(suite.name, run.number, format),
  };
}

export type Meta = {
  run: RunDto;
  suiteName: string;
  agentName: string;
  agentConfigPath: string;
  /** The execution model's TestReport.environment: the Assay and Node versions and platform that produced the report, the agent's kind and model. */
  environment: Record<string, string>;
  summary: Record<string, unknown>;
};

/** The tools the transcript called, else those the tool-call check matched or found unexpected. */
function toolsCalled(r: ReportRow): string[] {
  const tr = r.tool_call_results as ToolCallResults;
  return r.tools_called.length ? r.tools_called : [...(tr?.matched ?? []), ...(tr?.unexpected ?? [])].map((c) => c.tool);
}

/**
 * The execution model's `tools_matched`: whether the tool calls matched the expectations; never null when the
 * case expects tool calls ("if expected_tools provided, tools_matched must not be None"), so a
 * case whose agent never ran (skipped, files or configuration failed) matched none: false.
 */
function toolsMatched(tr: ToolCallResults, snap: Snapshot): boolean | null {
  if (tr) return Boolean(tr.passed);
  return snap.expected_tool_calls?.length ? false : null;
}

/** The execution model's TestReport (JSON), pretty-printed as `JSON.stringify(report, null, 2)` would; results page by page. */
function jsonReport(m: Meta, pages: AsyncIterable<ReportRow[]>) {
  return prettyJsonWithResults(
    {
      agent_name: m.agentName,
      agent_config_path: m.agentConfigPath,
      suite_name: m.suiteName,
      run_id: m.run.id,
      status: m.run.status,
      triggered_by: m.run.triggered_by,
      started_at: m.run.started_at,
      completed_at: m.run.completed_at,
      resolved_variables: m.run.resolved_variables,
      results: [], // written in this place, page by page
      summary: m.summary,
      cost: m.run.cost,
      timestamp: new Date().toISOString(),
      assay_version: ASSAY_VERSION,
      environment: m.environment,
    },
    pages,
    jsonResult,
  );
}

/** One the execution model's TestResult of the JSON report. */
function jsonResult(r: ReportRow) {
  const snap = r.test_case as Snapshot;
  const tr = r.tool_call_results as ToolCallResults;
  return {
    test_name: r.name,
    test_case_id: r.test_case_id,
    trial: r.trial,
    variant: r.variant,
    status: r.status,
    passed: r.status === "passed",
    // Human review: the verdict of an agreed or resolved review item beside the judge's (status is never overwritten).
    human_verdict: r.human_verdict,
    effective_status: r.effective_status,
    test_input: snap.initial_message ?? null,
    // The execution model's TestResult.processed_files (the stored markdown is capped like every stored text).
    processed_files: r.processed_files,
    stage: r.stage,
    agent_response: r.actual_response,
    response_truncated: r.response_truncated,
    tool_calls: toolsCalled(r),
    expected_tools: snap.expected_tool_calls?.map((t) => t.tool) ?? null,
    tools_matched: toolsMatched(tr, snap),
    check_results: r.check_results,
    outcome_results: r.outcome_results,
    metric_results: r.metric_results,
    ground_truth: snap.ground_truth ?? null,
    prompt_tokens: r.prompt_tokens,
    completion_tokens: r.completion_tokens,
    cost: r.cost,
    latency_ms: r.latency_ms,
    execution_time_ms: r.duration_ms,
    retry_count: r.retry_count,
    evaluator_retry_count: r.evaluator_retry_count,
    metrics_passed: r.metrics_passed,
    metrics_total: r.metrics_total,
    errors: r.errors,
    failure_reasons: r.failure_reasons,
    end_reason: r.end_reason,
    stopped_by_safety_cap: r.stopped_by_safety_cap,
    timestamp: r.completed_at,
  };
}

const icon = (status: string) => (status === "passed" ? "✅" : status === "skipped" ? "⏭️" : status === "error" ? "⚠️" : "❌");
const seconds = (ms: number | null | undefined) => `${((ms ?? 0) / 1000).toFixed(1)}s`;
/** Model, agent and user text on one Markdown line (a field or a table cell): shortened, then made inert. */
const md = (s: string | null | undefined, max = 500) => escapeMarkdown(oneLine(s, max), { oneLine: true });

/** The counts of a stored run summary the Markdown report reads (all optional: older summaries lack some). */
type SummaryCounts = {
  total_tests?: number;
  passed?: number;
  failed?: number;
  not_met?: number;
  errors?: number;
  skipped?: number;
  unfinished?: number;
  executed?: number;
  pass_rate?: number;
  executed_pass_rate?: number;
  weighted_pass_rate?: number;
};

/** The execution model's Markdown layout: the header and summary table, then one section per case (lines joined by "\n"). */
async function* markdownReport(m: Meta, pages: AsyncIterable<ReportRow[]>) {
  const s = m.summary as SummaryCounts & {
    wall_time_ms?: number;
    total_duration_ms?: number;
    average_scores?: Record<string, number>;
    metric_pass_rates?: Record<string, number>;
  };
  const trials = trialFiguresLine(m.summary as TrialFigures, m.run.trials);
  const review = humanReviewLine(m.run);
  const lines = [
    `# Test Report: ${md(m.agentName, 200)}`,
    "",
    `**Suite**: ${md(m.suiteName, 200)}`,
    `**Agent**: ${md(m.agentName, 200)} (${md(m.agentConfigPath, 200)})`,
    `**Date**: ${(m.run.completed_at ?? m.run.created_at ?? "").replace("T", " ").slice(0, 19)} UTC`,
    `**Assay Version**: ${ASSAY_VERSION}`,
    `**Environment**: ${Object.entries(m.environment)
      .map(([k, v]) => `${k} ${md(v, 100)}`)
      .join(", ")}`,
    `**Run**: ${m.run.id} (${m.run.status}, ${m.run.triggered_by})`,
    testsLine(s),
    ...(trials ? [trials] : []),
    ...(review ? [review] : []),
    `**Duration**: ${seconds(s.wall_time_ms || s.total_duration_ms)}`,
    `**Cost**: ${costLine(m.run.cost)}`,
    "",
    "## Summary",
    "",
    "| Metric | Avg Score | Pass Rate |",
    "|--------|-----------|-----------|",
    ...Object.entries(s.average_scores ?? {}).map(
      ([k, v]) => `| ${md(k, 100)} | ${v.toFixed(2)} | ${Math.round(s.metric_pass_rates?.[k] ?? 0)}% |`,
    ),
    "",
    "## Test Results",
    "",
  ];
  yield lines.join("\n");
  let i = 0;
  for await (const page of pages) {
    const chunk: string[] = [];
    for (const r of page) chunk.push(...markdownCase(r, i++, m.run.trials));
    yield `\n${chunk.join("\n")}`;
  }
}

/**
 * The report's **Tests** line, the execution model's counts first (`failed` is every result that did not
 * pass), then which results that holds and Assay's pass rate over the executed ones:
 * "2 passed, 3 failed of 5 (1 not met, 1 error, 1 skipped) — 40% pass rate; 50% of the 4 executed, 66.7% weighted by difficulty".
 */
function testsLine(s: SummaryCounts): string {
  const errors = s.errors ?? 0;
  const parts = [`${s.not_met ?? 0} not met`, `${errors} ${errors === 1 ? "error" : "errors"}`];
  if (s.skipped) parts.push(`${s.skipped} skipped`);
  if (s.unfinished) parts.push(`${s.unfinished} not finished`);
  const rates = [`${s.pass_rate ?? 0}% pass rate`];
  if (s.executed !== undefined && s.executed !== s.total_tests) rates.push(`${s.executed_pass_rate ?? 0}% of the ${s.executed} executed`);
  const weighted = s.weighted_pass_rate !== undefined ? `, ${s.weighted_pass_rate}% weighted by difficulty` : "";
  return `**Tests**: ${s.passed ?? 0} passed, ${s.failed ?? 0} failed of ${s.total_tests ?? 0} (${parts.join(", ")}) — ${rates.join("; ")}${weighted}`;
}

/** One case's section of the Markdown report (its lines, the last one empty); with several trials the heading names the trial. */
function markdownCase(r: ReportRow, i: number, trials: number): string[] {
  const lines: string[] = [];
  const snap = r.test_case as Snapshot;
  const tr = r.tool_call_results as ToolCallResults;
  const trial = trials > 1 ? `, trial ${r.trial + 1} of ${trials}` : "";
  lines.push(
    `### ${icon(r.status)} Test ${i + 1}: ${md(r.name, 200)}${trial} (${r.status.toUpperCase()})${r.variant === "variant" ? " — variant" : ""}`,
    "",
  );
  lines.push(`**Input**: ${md(snap.initial_message) || "_(simulated user)_"}`);
  if (r.processed_files.length) lines.push(`**Files**: ${r.processed_files.map((f) => md(fileLine(f), 300)).join("; ")}`);
  lines.push(`**Response**: ${md(r.actual_response) || "_(none)_"}`);
  const called = toolsCalled(r);
  const matched = toolsMatched(tr, snap);
  if (called.length || matched !== null) {
    const verdict =
      matched === null ? "" : tr ? (matched ? " ✅ (matched expected)" : " ❌ (did not match expected)") : " ❌ (the agent never ran)";
    lines.push(`**Tools Called**: ${called.map((c) => md(c, 100)).join(", ") || "none"}${verdict}`);
  }
  lines.push(`**Execution Time**: ${seconds(r.duration_ms)}`);
  if (r.cost) lines.push(`**Cost**: ${costLine(r.cost)}`);
  if (r.stopped_by_safety_cap) lines.push(`**Conversation**: stopped by safety cap after ${r.turns} turns`);
  const metrics = r.metric_results as MetricResult[];
  if (metrics.length) {
    lines.push("", `**Metrics** (${r.metrics_passed} of ${r.metrics_total} passed):`);
    for (const mr of metrics) lines.push(`- ${metricLine(mr)}`);
  }
  if (r.failure_reasons.length) lines.push("", `**Failure reasons**: ${r.failure_reasons.map((x) => md(x, 300)).join("; ")}`);
  if (r.human_verdict) lines.push("", `**Human verdict**: ${r.human_verdict}${r.overturned ? " (overturns the judge)" : ""}`);
  if (r.errors.length) lines.push("", `**Error**: ${md(r.errors.join("; "), 300)}`);
  else if (r.status === "skipped" && r.error_message) lines.push("", `**Skipped**: ${md(r.error_message, 300)}`);
  lines.push("");
  return lines;
}

/** "$0.0060 (agent $0.0030, simulated user $0.0010, judge $0.0020)"; "—" parts had no prices when the run started. */
function costLine(cost: CostBreakdown | null): string {
  if (!cost) return "—";
  return `${formatUsd(cost.total)} (agent ${formatUsd(cost.agent)}, simulated user ${formatUsd(cost.simulator)}, judge ${formatUsd(cost.judge)})`;
}

/** "relevance: 4 / 4 on 1–5 (0.75 / 0.75) ✅" (⚠️ when it could not be evaluated); results stored before thresholds moved to the scale show their 0..1 values. */
function metricLine(mr: MetricResult): string {
  const num = (v: number | null | undefined) => (v == null ? "—" : Number.isInteger(v) ? String(v) : v.toFixed(2));
  const score = mr.score === null ? "error" : num(mr.score);
  const onScale = mr.normalized_score !== undefined && mr.scale;
  const values = onScale
    ? `${score} / ${num(mr.threshold)} on 1–${mr.scale}${mr.normalized_score !== null ? ` (normalised ${num(mr.normalized_score)})` : ""}`
    : `${mr.score === null ? "error" : mr.score.toFixed(2)} / ${(mr.threshold ?? 0).toFixed(2)}`;
  const mark = mr.passed === null ? "⚠️ not evaluated" : mr.passed ? "✅" : "❌";
  return `${md(mr.metric_name, 100)}: ${values} ${mark}${mr.error ? ` (${md(mr.error, 200)})` : ""}`;
}

/** One row per case result (each trial its own row); the header comes with the first row (a run without results is an empty file). */
async function* csvReport(pages: AsyncIterable<ReportRow[]>) {
  let header = true;
  for await (const page of pages) {
    yield csvRows(page, header);
    header = false;
  }
}

function csvRows(results: ReportRow[], header: boolean) {
  return stringify(
    results.map((r) => ({
      position: r.position + 1,
      name: r.name,
      variant: r.variant,
      status: r.status,
      tags: r.tags.join(";"),
      latency_ms: r.latency_ms ?? "",
      duration_ms: r.duration_ms ?? "",
      prompt_tokens: r.prompt_tokens,
      completion_tokens: r.completion_tokens,
      // USD; empty when unknown (no prices), never 0.
      cost_usd: r.cost?.total ?? "",
      agent_cost_usd: r.cost?.agent ?? "",
      simulator_cost_usd: r.cost?.simulator ?? "",
      judge_cost_usd: r.cost?.judge ?? "",
      retry_count: r.retry_count,
      evaluator_retry_count: r.evaluator_retry_count,
      turns: r.turns,
      metrics_passed: r.metrics_passed,
      metrics_total: r.metrics_total,
      files: r.processed_files.map(fileLabel).join("; "),
      file_errors: r.processed_files.flatMap((f) => (f.error ? [f.error] : [])).join("; "),
      stage: r.stage,
      actual_response: r.actual_response ?? "",
      error_message: r.error_message ?? "",
      failure_reasons: r.failure_reasons.join("; "),
      end_reason: r.end_reason ?? "",
      test_case_id: r.test_case_id ?? "",
      trial: r.trial,
    })),
    // Every string cell that a spreadsheet would read as a formula gets a leading quote.
    { header, cast: { string: escapeCsvCell } },
  );
}

/**
 * The JUnit header's counts in one aggregate query (the header is written before any row is
 * read), counting test cases as `junitCaseGroup` reports them: a case that passed in some trial
 * passed; else one with a failed trial failed; else one with an errored trial errored; a case
 * never executed counts as skipped when its first trial was skipped (an unfinished one does not).
 */
async function junitTotals(ctx: WorkspaceContext, runId: string): Promise<JunitTotals> {
  const [t] = await db.$queryRaw<JunitTotals[]>`
    SELECT count(*)::int AS tests,
           count(*) FILTER (WHERE passed = 0 AND failed > 0)::int AS failed,
           count(*) FILTER (WHERE passed = 0 AND failed = 0 AND errored > 0)::int AS errors,
           count(*) FILTER (WHERE passed + failed + errored = 0 AND first_status = 'skipped')::int AS skipped,
           coalesce(sum(duration_ms), 0)::float8 AS duration_ms
    FROM (
      SELECT count(*) FILTER (WHERE c."status" = 'passed') AS passed,
             count(*) FILTER (WHERE c."status" = 'failed') AS failed,
             count(*) FILTER (WHERE c."status" = 'error') AS errored,
             (array_agg(c."status"::text ORDER BY c."repetition", c."position"))[1] AS first_status,
             sum(c."durationMs") AS duration_ms
      FROM "CaseResult" c WHERE c."runId" = ${runId}::uuid AND c."workspaceId" = ${ctx.workspaceId}::uuid
      GROUP BY ${REPORT_CASE_KEY}, c."variant"
    ) per_case`;
  return t ?? { tests: 0, failed: 0, errors: 0, skipped: 0, duration_ms: 0 };
}
