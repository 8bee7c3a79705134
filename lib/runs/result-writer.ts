/**
 * Writes finished case results for the executor (./executor.ts `persist`): group commit per run.
 * A result is sent at the end of the event loop's turn it finished in (setImmediate) when no
 * write of its run is in flight, together with every result of the run that finished in the
 * same turn; results finishing while a write is in flight wait for it and then go together in
 * one statement. So a burst of 50 answers costs a handful of statements (and commits, and Run
 * row updates) instead of 50, without waiting for a timer, and a lone result is written as soon
 * as it is ready. Cases started together (one hand-off) end in the same turn or close to it:
 * sending the first of them alone would make the rest wait for its round trip too.
 * Key rule: a result is written only while this worker still holds the case's lease; the run's
 * counters move in the same statement, which also says whether it was the run's last case.
 */
import "server-only";
import { executorPool } from "@/lib/db";
import { logger } from "@/lib/logger";
import { failRun, finalizeRunIfDone } from "@/lib/runs/finalize";
import { mapStrings, storedOutcome, storedText } from "@/lib/runs/truncate";
import { CLAIMED_JOB_COLUMNS, claimedCaseSet } from "@/lib/runs/claims";
import type { CaseJob, CaseOutcome, LlmCallRecord } from "@/lib/runs/execution-types";
import type { CostBreakdown } from "@/lib/runs/cost";

/** `CaseResult.actualResponse` is cut at this length (with `responseTruncated` set). */
export const MAX_RESPONSE_CHARS = 20_000;
/** Results of one run in one statement at most (bounds the statement's size). */
export const MAX_WRITE_BATCH = 100;

/** One case result as the batch statement reads it (jsonb_to_recordset), snake_case like its column list. */
type ResultRow = {
  id: string;
  status: CaseOutcome["status"];
  transcript: unknown[];
  actual_response: string | null;
  response_truncated: boolean;
  check_results: unknown[];
  tool_call_results: unknown;
  outcome_results: unknown[];
  metric_results: unknown[];
  prompt_tokens: number;
  completion_tokens: number;
  cost: CostBreakdown | null;
  latency_ms: number | null;
  duration_ms: number;
  retry_count: number;
  turns: number;
  agent_stats: unknown;
  error_message: string | null;
  error_type: string | null;
  failure_reasons: string[];
  end_reason: string | null;
  evaluator_retry_count: number;
  stage: string | null;
  processed_files: unknown;
  run_error: string | null;
  /** The case's LLM calls as the LlmCall rows store them (latency in whole milliseconds). */
  calls: (Pick<LlmCallRecord, "purpose" | "model" | "request" | "response" | "error" | "attempts" | "cached"> & { latency_ms: number })[];
};

/**
 * The executor's hand-off: when `wanted` says so for a run, a write also claims as many of the
 * run's pending cases as it wrote results (under `leaseMs`), and hands them to `launch` — the
 * slots the finished cases free restart after the write's round trip, without a tick's claim.
 */
export type Handoff = {
  leaseMs: number;
  wanted: (runId: string) => boolean;
  launch: (jobs: CaseJob[]) => void;
  /**
   * The position after which the run's pending cases are read (-1: from its first). A run's
   * claimed cases leave their `pending` index entries behind until a vacuum (or, while any
   * transaction holds an older snapshot, until it ends), so a read from the first position walks
   * every case claimed so far: the executor passes the last position it launched instead.
   */
  from?: (runId: string) => number;
};

type Waiting = { row: ResultRow; resolve: () => void; reject: (err: unknown) => void };

/**
 * The case results (only rows still `running` under this worker's lease), their LLM calls (in
 * order) and the run's counters, in one statement. Numbers arrive as `numeric` and are cast to
 * int here, so a fraction rounds and an out-of-range value fails with 22003 like a bound
 * parameter would. The Run row is locked only for the statement; concurrent writers of the run
 * serialise on it, so `done` is exact for whichever statement writes the last case.
 */
const WRITE_RESULTS_SQL = `
  WITH input AS (
    SELECT * FROM jsonb_to_recordset($3::jsonb) AS x(
      i int, id uuid, status text, transcript jsonb, actual_response text, response_truncated boolean,
      check_results jsonb, tool_call_results jsonb, outcome_results jsonb, metric_results jsonb,
      prompt_tokens numeric, completion_tokens numeric, cost jsonb, latency_ms numeric, duration_ms numeric, retry_count numeric, turns numeric,
      agent_stats jsonb, error_message text, error_type text, failure_reasons text[], end_reason text, evaluator_retry_count numeric,
      stage text, processed_files jsonb, run_error text, calls jsonb)
  ), locked AS (
    -- Rows locked in id order, as the heartbeat and the stage flush lock theirs: two statements
    -- over overlapping sets of rows never wait for each other in a cycle (no deadlock).
    SELECT c."id" FROM "CaseResult" c
    WHERE c."id" IN (SELECT id FROM input) AND c."runId" = $1::uuid AND c."leaseOwner" = $2 AND c."status" = 'running'
    ORDER BY c."id" FOR NO KEY UPDATE
  ), cr AS (
    UPDATE "CaseResult" c SET
      "status" = x.status::"CaseResultStatus", "transcript" = x.transcript,
      "actualResponse" = x.actual_response, "responseTruncated" = x.response_truncated,
      "checkResults" = x.check_results, "toolCallResults" = x.tool_call_results,
      "outcomeResults" = x.outcome_results, "metricResults" = x.metric_results,
      "promptTokens" = x.prompt_tokens::int, "completionTokens" = x.completion_tokens::int,
      "costBreakdown" = nullif(x.cost, 'null'::jsonb), "costUsd" = (x.cost->>'total')::float8,
      "latencyMs" = x.latency_ms::int, "durationMs" = x.duration_ms::int, "retryCount" = x.retry_count::int, "turns" = x.turns::int,
      "agentStats" = x.agent_stats, "errorMessage" = x.error_message, "errorType" = x.error_type,
      "failureReasons" = x.failure_reasons, "endReason" = x.end_reason, "evaluatorRetryCount" = x.evaluator_retry_count::int,
      "stage" = coalesce(x.stage::"CaseStage", c."stage"), "processedFiles" = x.processed_files,
      "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "completedAt" = now()
    FROM input x, locked l
    WHERE c."id" = x.id AND l."id" = x.id AND c."runId" = $1::uuid AND c."leaseOwner" = $2 AND c."status" = 'running'
    RETURNING c."id", c."workspaceId", x.i, x.status, x.prompt_tokens, x.completion_tokens, x.run_error, x.calls
  ), calls AS (
    INSERT INTO "LlmCall" ("id", "workspaceId", "runId", "caseResultId", "purpose", "model", "request", "response", "error", "attempts", "latencyMs", "cached")
    SELECT gen_random_uuid(), cr."workspaceId", $1::uuid, cr."id", k.call->>'purpose', k.call->>'model', coalesce(k.call->'request', '{}'::jsonb),
           k.call->>'response', k.call->>'error', (k.call->>'attempts')::numeric::int, (k.call->>'latency_ms')::numeric::int,
           coalesce((k.call->>'cached')::boolean, false)
    FROM cr CROSS JOIN LATERAL jsonb_array_elements(cr.calls) WITH ORDINALITY AS k(call, n)
    ORDER BY cr.i, k.n
    RETURNING 1
  ), totals AS (
    SELECT count(*) FILTER (WHERE status = 'passed')::int AS passed, count(*) FILTER (WHERE status = 'failed')::int AS failed,
           count(*) FILTER (WHERE status = 'skipped')::int AS skipped, count(*) FILTER (WHERE status = 'error')::int AS errors,
           coalesce(sum(prompt_tokens), 0)::int AS prompt, coalesce(sum(completion_tokens), 0)::int AS completion,
           (array_agg(run_error ORDER BY i) FILTER (WHERE run_error IS NOT NULL))[1] AS run_error,
           array_agg(id::text) AS written
    FROM cr
  ), run AS (
    UPDATE "Run" r SET
      "passedCases" = r."passedCases" + t.passed, "failedCases" = r."failedCases" + t.failed,
      "skippedCases" = r."skippedCases" + t.skipped, "errorCases" = r."errorCases" + t.errors,
      "promptTokens" = r."promptTokens" + t.prompt, "completionTokens" = r."completionTokens" + t.completion,
      -- A run that cannot proceed records why at once, so no worker claims another case of it.
      "errorMessage" = coalesce(r."errorMessage", t.run_error)
    FROM totals t WHERE r."id" = $1::uuid AND t.written IS NOT NULL
    RETURNING (r."passedCases" + r."failedCases" + r."skippedCases" + r."errorCases") >= r."totalCases" AS done,
      -- What the hand-off asks of the run, from the row just locked (one read of it fewer).
      (r."comparisonId" IS NULL AND r."status" IN ('pending', 'running') AND r."cancelRequestedAt" IS NULL AND r."errorMessage" IS NULL) AS live
  ), next AS (
    -- The hand-off: as many pending cases of the run as results were written, when the executor
    -- asks for it ($4 > 0) and the run is a live plain run (\`live\`: the row as the run CTE left
    -- it, so a cancel or failure committed before its lock was granted counts). The run's running
    -- count (what its concurrency and the workspace cap bound) does not change; SKIP LOCKED and the status
    -- re-checked on the locked row keep every case claimed once, as a claim does. Read after the
    -- run CTE (its \`done\`) has locked the run's row: pending cases are locked only then, the order
    -- cancel and failRun take (run row, then its pending cases), and never waited for. Only
    -- positions after $6 (Handoff.from) are read: from the run's first position, the index range
    -- holds an entry for every case claimed so far.
    SELECT n."id" FROM "CaseResult" n
    WHERE n."runId" = $1::uuid AND n."status" = 'pending' AND n."position" > $6::int AND $4::int > 0 AND (SELECT run_error FROM totals) IS NULL
      AND coalesce((SELECT live AND NOT done FROM run), false)
    ORDER BY n."position", n."variant"
    LIMIT least($4::int, (SELECT count(*) FROM cr))
    FOR NO KEY UPDATE SKIP LOCKED
  ), handed AS (
    -- By primary key, whatever the planner expects of \`next\`: its LIMIT is not a constant, so a
    -- plan counts on a tenth of the run's pending cases, and on a run of 100,000 it joined them
    -- by reading the whole table (90 ms) to update two rows.
    UPDATE "CaseResult" c SET ${claimedCaseSet("$2", "$5")}
    WHERE c."id" = ANY (ARRAY(SELECT "id" FROM next))
    RETURNING ${CLAIMED_JOB_COLUMNS}
  )
  SELECT (SELECT done FROM run) AS done, t.run_error, coalesce(t.written, '{}') AS written,
         (SELECT coalesce(json_agg(h ORDER BY h."position", h.variant), '[]') FROM handed h) AS handed
  FROM totals t`;

/**
 * The executor's result writer (one per Executor): `write` resolves once the result is stored
 * (or found no longer ours: the lease was lost) and the run finalized when it was the last case;
 * it rejects when the database refused this result, so the executor can store an error result.
 */
export class ResultWriter {
  readonly #workerId: string;
  readonly #stopped: () => boolean;
  readonly #handoff: Handoff | undefined;
  /** Results waiting for their run's write in flight, by run id. */
  readonly #waiting = new Map<string, Waiting[]>();
  /** Runs with a write in flight. */
  readonly #writing = new Set<string>();

  constructor(workerId: string, opts: { stopped: () => boolean; handoff?: Handoff }) {
    this.#workerId = workerId;
    this.#stopped = opts.stopped;
    this.#handoff = opts.handoff;
  }

  /** Results not written yet (queued or in flight are not told apart). */
  get queued(): number {
    let n = 0;
    for (const q of this.#waiting.values()) n += q.length;
    return n;
  }

  write(job: CaseJob, outcome: CaseOutcome, durationMs: number): Promise<void> {
    const row = resultRow(job, outcome, durationMs);
    return new Promise<void>((resolve, reject) => {
      const queue = this.#waiting.get(job.runId);
      if (queue) queue.push({ row, resolve, reject });
      else this.#waiting.set(job.runId, [{ row, resolve, reject }]);
      if (!this.#writing.has(job.runId)) {
        // Held for the rest of this turn: results of the run finishing in it join this write.
        this.#writing.add(job.runId);
        setImmediate(() => void this.#flush(job.runId));
      }
    });
  }

  /** Writes the run's waiting results (the run is in `#writing` already), then the next ones. */
  async #flush(runId: string): Promise<void> {
    const queue = this.#waiting.get(runId);
    if (!queue || queue.length === 0) {
      this.#writing.delete(runId);
      return;
    }
    const batch = queue.splice(0, MAX_WRITE_BATCH);
    if (queue.length === 0) this.#waiting.delete(runId);
    try {
      if (this.#stopped()) {
        // A crashed (killed) worker writes nothing more.
        for (const w of batch) w.resolve();
        return;
      }
      try {
        await this.#writeBatch(
          runId,
          batch.map((w) => w.row),
        );
        for (const w of batch) w.resolve();
      } catch (err) {
        if (batch.length === 1) {
          batch[0]!.reject(err);
          return;
        }
        // One value the database refuses fails the whole statement: write each result on its
        // own, so only the one at fault is rejected (and becomes an error result).
        logger.warn({ err, runId, results: batch.length }, "a batch of case results was refused; writing them one by one");
        for (const w of batch) {
          await this.#writeBatch(runId, [w.row]).then(w.resolve, w.reject);
        }
      }
    } finally {
      if (this.#waiting.has(runId)) void this.#flush(runId);
      else this.#writing.delete(runId);
    }
  }

  async #writeBatch(runId: string, rows: ResultRow[]): Promise<void> {
    const handoff = this.#handoff?.wanted(runId) ? rows.length : 0;
    const { rows: out } = await executorPool().query<{
      done: boolean | null;
      run_error: string | null;
      written: string[];
      handed: CaseJob[];
    }>({
      name: "assay-write-results",
      text: WRITE_RESULTS_SQL,
      values: [
        runId,
        this.#workerId,
        JSON.stringify(rows),
        handoff,
        this.#handoff?.leaseMs ?? 0,
        handoff > 0 ? (this.#handoff!.from?.(runId) ?? -1) : -1,
      ],
    });
    const result = out[0];
    // Launched before the writes' callers resume, so the slots they free are taken already.
    if (result && result.handed.length > 0) this.#handoff!.launch(result.handed);
    // Nothing written: every lease was lost and other workers own these cases now.
    if (!result || result.written.length === 0) return;
    // The results are stored: a failure from here on is the run's end, not these results'
    // (recovery finalizes a run left with nothing to run), so it must not reach `write`'s callers.
    try {
      if (result.run_error) await failRun(runId, result.run_error);
      else if (result.done) await finalizeRunIfDone(runId);
    } catch (err) {
      logger.error({ err, runId }, "could not end the run after its last results; recovery will");
    }
  }
}

/**
 * The outcome as stored: text cleaned (NUL and lone surrogates removed: PostgreSQL refuses them,
 * and a refused write would leave the case running) and capped (20,000 characters each, with a
 * marker); `actualResponse` cut at MAX_RESPONSE_CHARS with `responseTruncated`.
 */
function resultRow(job: CaseJob, outcome: CaseOutcome, durationMs: number): ResultRow {
  const o = storedOutcome(outcome);
  const response = o.actualResponse;
  const truncated = response !== null && response.length > MAX_RESPONSE_CHARS;
  return {
    id: job.caseResultId,
    status: o.status,
    transcript: o.transcript,
    actual_response: truncated ? response.slice(0, MAX_RESPONSE_CHARS) : response,
    response_truncated: truncated,
    check_results: o.checkResults,
    tool_call_results: o.toolCallResults ?? null,
    outcome_results: o.outcomeResults,
    metric_results: o.metricResults,
    prompt_tokens: o.promptTokens,
    completion_tokens: o.completionTokens,
    cost: o.cost ?? null,
    latency_ms: o.latencyMs === null ? null : Math.round(o.latencyMs),
    duration_ms: durationMs,
    retry_count: o.retryCount,
    turns: o.turns,
    agent_stats: o.agentStats ?? null,
    error_message: o.errorMessage,
    error_type: o.errorType,
    failure_reasons: o.failureReasons ?? [],
    end_reason: o.endReason ?? null,
    evaluator_retry_count: o.evaluatorRetryCount ?? 0,
    stage: o.stage ?? null,
    processed_files: o.processedFiles ? mapStrings(o.processedFiles, (s) => storedText(s)) : null,
    run_error: o.runError ?? null,
    calls: o.llmCalls.map((c) => ({
      purpose: c.purpose,
      model: c.model,
      request: c.request ?? {},
      response: c.response,
      error: c.error,
      attempts: c.attempts,
      latency_ms: Math.round(c.latencyMs),
      cached: c.cached,
    })),
  };
}
