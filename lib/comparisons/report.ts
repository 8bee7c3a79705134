/**
 * The comparison report: the A/B engine's session document (JSON) or its session CSV plus the
 * verdict columns, streamed page by page of finished pairs.
 */
import "server-only";
import { stringify } from "csv-stringify/sync";
import { db } from "@/lib/db";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import { escapeCsvCell } from "@/lib/runs/report-escape";
import { withWorkspaceScope } from "@/lib/tenant-scope";
import { prettyJsonWithResults, textStream } from "@/lib/api/stream";
import { pairSelect, toPairDto, type ComparisonDto, type PairRow, type StoredExecution } from "./dto";
import { tokensPerMs, totalTokens } from "./diffs";
import { getComparisonUnchecked } from "./read";

/**
 * An execution as the A/B engine's AgentResponse.to_dict() writes it, plus Assay's fields. The engine's
 * reader parses `timestamp` with `datetime.fromisoformat`: an execution that never ran (skipped)
 * has none of its own and gets its pair's.
 */
function sessionResponse(e: StoredExecution | null, fallbackTimestamp: string | null) {
  if (!e) return null;
  return {
    response: e.response,
    prompt_tokens: e.prompt_tokens,
    completion_tokens: e.completion_tokens,
    total_tokens: totalTokens(e),
    latency_ms: e.latency_ms,
    tokens_per_ms: tokensPerMs(e),
    model: e.model,
    timestamp: e.timestamp ?? fallbackTimestamp,
    error: e.error,
    evaluation_error: e.evaluation_error ?? null,
    retry_count: e.retry_count,
    status: e.status,
    case_result_id: e.case_result_id,
    turn_latencies_ms: e.turn_latencies_ms,
  };
}

/** Pairs per query while a comparison report streams. */
const REPORT_PAIR_PAGE = 200;

/**
 * The comparison's finished pairs in index order, REPORT_PAIR_PAGE per query (keyset on the
 * (comparisonId, index) unique index). A streamed report is read after its route handler
 * returned, outside the request's workspace scope: each page re-enters it (lib/tenant-scope.ts).
 */
async function* finishedPairPages(ctx: WorkspaceContext, id: string) {
  let after = -1;
  for (;;) {
    const from = after;
    const pairs = await withWorkspaceScope(ctx.workspaceId, () =>
      db.comparisonPair.findMany({
        where: { comparisonId: id, workspaceId: ctx.workspaceId, completedAt: { not: null }, index: { gt: from } },
        orderBy: { index: "asc" },
        take: REPORT_PAIR_PAGE,
        select: pairSelect,
      }),
    );
    if (pairs.length === 0) return;
    yield pairs;
    if (pairs.length < REPORT_PAIR_PAGE) return;
    after = pairs[pairs.length - 1]!.index;
  }
}

const COMPARISON_CSV_COLUMNS = [
  "question",
  "baseline_tokens",
  "variant_tokens",
  "token_overhead",
  "baseline_latency_ms",
  "variant_latency_ms",
  "latency_diff_ms",
  "response_length_ratio",
  "baseline_status",
  "variant_status",
  "verdict_change",
];

/** The session CSV: the header, then one page of pairs per chunk. */
async function* comparisonCsv(pages: AsyncIterable<PairRow[]>) {
  const two = (n: number | null | undefined) => (typeof n === "number" ? n.toFixed(2) : "");
  yield stringify([], { header: true, columns: COMPARISON_CSV_COLUMNS });
  for await (const pairs of pages) {
    yield stringify(
      pairs.map((p) => {
        const d = toPairDto(p);
        return [
          escapeCsvCell(d.question.slice(0, 80)),
          d.baseline?.total_tokens ?? "",
          d.variant?.total_tokens ?? "",
          d.token_overhead ?? "",
          two(d.baseline?.latency_ms),
          two(d.variant?.latency_ms),
          two(d.latency_diff_ms),
          two(d.response_length_ratio),
          d.baseline?.status ?? "",
          d.variant?.status ?? "",
          d.verdict_change ?? "",
        ];
      }),
      { header: false, columns: COMPARISON_CSV_COLUMNS },
    );
  }
}

/** The session document, pretty-printed as `JSON.stringify(document, null, 2)` would; each pair's result page by page. */
function comparisonJson(c: ComparisonDto, pages: AsyncIterable<PairRow[]>) {
  const sessionId = c.session_id ?? c.id;
  const modelOf = (arm: ComparisonDto["baseline"]) => arm?.resolved.model ?? arm?.resolved.agent_name ?? arm?.label ?? "";
  return prettyJsonWithResults(
    {
      session_id: sessionId,
      name: c.name,
      start_time: c.started_at ?? c.created_at,
      end_time: c.completed_at,
      baseline_model: modelOf(c.baseline),
      variant_model: modelOf(c.variant),
      // The A/B engine's own name for the variant's model, so its reader labels the arm too.
      docstratum_model: modelOf(c.variant),
      llms_source_path: c.llms_source_path,
      environment: c.environment,
      notes: c.notes,
      comparison_id: c.id,
      execution_stats: c.summary ? { baseline: c.summary.baseline.execution_stats, variant: c.summary.variant.execution_stats } : undefined,
      ordering: c.ordering,
      seed: c.seed,
      repetitions: c.repetitions,
      results: [], // written in this place, page by page
    },
    pages,
    (p) => sessionResult(p, sessionId),
  );
}

/** One pair as a result of the session document: the A/B engine's ABTestResult plus Assay's fields. */
function sessionResult(p: PairRow, sessionId: string) {
  const d = toPairDto(p);
  const executions = (Array.isArray(p.executions) ? p.executions : []) as (StoredExecution | null)[];
  const timestamp = executions[0]?.timestamp ?? executions[1]?.timestamp ?? d.completed_at;
  const variant = sessionResponse(executions[1] ?? null, timestamp);
  return {
    question: d.question,
    baseline: sessionResponse(executions[0] ?? null, timestamp),
    variant,
    // The A/B engine's reader (ABTestResult.from_dict) reads the variant under its own name only.
    docstratum: variant,
    context_tokens: d.context_tokens,
    timestamp,
    session_id: sessionId,
    metadata: d.metadata,
    test_case_id: d.test_case_id,
    test_case_name: d.test_case_name,
    repetition: d.repetition,
    order: d.order,
    token_overhead: d.token_overhead,
    token_overhead_pct: d.token_overhead_pct,
    latency_diff_ms: d.latency_diff_ms,
    latency_improvement_pct: d.latency_improvement_pct,
    response_length_ratio: d.response_length_ratio,
    both_successful: d.both_successful,
    verdict_change: d.verdict_change,
  };
}

/**
 * GET /api/v1/comparisons/{id}/report: `json` is the A/B engine's session document (`TestSession.to_dict()`
 * with every key its `from_dict` reads: the variant under `variant` and the A/B engine's `docstratum`,
 * `context_tokens`, `llms_source_path`), `csv` the A/B engine's session CSV plus the verdict columns. Streamed:
 * the comparison is read now (a missing one is a 404), its pairs page by page as the body is read.
 */
export async function comparisonReport(ctx: WorkspaceContext, id: string, format: "json" | "csv") {
  requireRole(ctx, "viewer");
  const c = await getComparisonUnchecked(ctx, id);
  const base = `comparison-${c.id.slice(0, 8)}`;
  const pages = finishedPairPages(ctx, id);
  if (format === "csv") {
    return {
      body: textStream(comparisonCsv(pages), { comparisonId: id }),
      contentType: "text/csv; charset=utf-8",
      filename: `${base}.csv`,
    };
  }
  return {
    body: textStream(comparisonJson(c, pages), { comparisonId: id }),
    contentType: "application/json; charset=utf-8",
    filename: `${base}.json`,
  };
}
