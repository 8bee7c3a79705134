/**
 * Matrix runs (the variables model's matrix runs), from the caller's side: the same cases run once per
 * combination of variable values (the cartesian product of the axes, at most 32), each
 * combination an ordinary run with those run-level values (`Run.matrixId`/`combinationIndex`),
 * executed by the plain executor. Create, read (per-combination statistics, the best
 * combination, the case × combination table), list, cancel, and the status refresh that follows
 * when one of the runs ends (a "run finished" subscriber, lib/run-finished-subscribers.ts). Every query is
 * scoped by `workspaceId`; ./README.md maps the feature.
 */
import "server-only";
import { db } from "@/lib/db";
import { ConflictError, NotFoundError, ValidationError, zodIssues, type IssueList } from "@/lib/errors";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import { isUuid } from "@/lib/ids";
import { requireSuite } from "@/lib/test-cases/suite-guards";
import { pageNewestFirst } from "@/lib/serialize";
import { cancelRun, createRunInTx, type RunTrigger } from "@/lib/runs/service";
import { agentVariableDefinitions, prepareRunVariables, prepareSuiteRun, type PreparedRun, type SuiteForRun } from "@/lib/runs/prepare";
import { notifyRunQueued } from "@/lib/runs/wakeup";
import type { RunCaseCounts } from "@/lib/runs/dto";
import {
  bestCombinationIndex,
  combinationLabel,
  estimateCost,
  expandCombinations,
  matrixStatusOf,
  type CombinationValues,
} from "./combinations";
import { createMatrixInput, type MatrixStatus } from "./schemas";
import {
  axisOrder,
  inAxisOrder,
  matrixSelect,
  toMatrixSummaryDto,
  type CombinationDto,
  type MatrixDto,
  type MatrixRow,
  type MatrixTableDto,
  type StoredCombination,
} from "./dto";

/** The heat map shows at most this many cases (the first ones in suite order). */
export const MAX_TABLE_CASES = 500;

/**
 * POST /api/v1/suites/{id}/matrix. Expands the axes, validates every combination exactly as
 * a run would be (variables against the agent's definitions and the suite's values, the
 * AIConfiguration name) before anything is written — a 400 names `variables.NAME` and the
 * combination; an axis that is not a variable of the agent is refused before the expansion — then creates the matrix and one pending run per combination in one
 * transaction and wakes the executor.
 */
export async function createMatrix(ctx: WorkspaceContext, suiteId: string, raw: unknown, trigger: RunTrigger = "api"): Promise<MatrixDto> {
  requireRole(ctx, "editor");
  const parsed = createMatrixInput.safeParse(raw ?? {});
  if (!parsed.success) throw new ValidationError("Invalid matrix", zodIssues(parsed.error));
  const opts = parsed.data;
  // Trials per combination: `trials` (or its older name `repetitions`), else the preset's, else the suite's default.
  const { suite, presetValues, trials } = await prepareSuiteRun(ctx, suiteId, {
    preset: opts.preset,
    trials: opts.trials ?? opts.repetitions,
  });
  assertAxesAreVariables(suite, Object.keys(opts.variables));
  const combinations = expandCombinations(opts.variables);
  // A preset's values apply first; each combination's axis values win over them (as a run's own values do).
  const prepared: PreparedRun[] = [];
  const problems = new Map<string, { path: string; message: string; combinations: number[] }>();
  for (const [index, values] of combinations.entries()) {
    try {
      prepared.push(await prepareRunVariables(ctx, suite, { ...presetValues, ...values }, opts));
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      for (const issue of err.issues) {
        const key = `${issue.path}\u0000${issue.message}`;
        const seen = problems.get(key) ?? { ...issue, combinations: [] };
        seen.combinations.push(index);
        problems.set(key, seen);
      }
    }
  }
  if (problems.size > 0) {
    const issues: IssueList = [...problems.values()].map((p) => {
      const first = p.combinations[0]!;
      const more = p.combinations.length > 1 ? ` and ${p.combinations.length - 1} more` : "";
      return { path: p.path, message: `${p.message} — combination ${first + 1} (${combinationLabel(combinations[first]!)})${more}` };
    });
    throw new ValidationError("Some combinations do not resolve", issues);
  }

  const stored: StoredCombination[] = [];
  const id = await db.$transaction(
    async (tx) => {
      const matrix = await tx.matrix.create({
        data: {
          workspaceId: ctx.workspaceId,
          suiteId: suite.id,
          name: opts.name ?? `Matrix: ${Object.keys(opts.variables).join(" × ")}`,
          axes: opts.variables,
          repetitions: trials,
          concurrency: opts.concurrency,
          options: {
            tags: opts.tags,
            tag_match: opts.tag_match,
            difficulty: opts.difficulty,
            case_ids: opts.case_ids,
            preset: opts.preset,
            // jsonb does not keep key order: the axes' order is kept here (lib/matrices/dto.ts axisOrder).
            axis_order: Object.keys(opts.variables),
          },
          createdByUserId: ctx.userId,
          createdByKeyId: ctx.apiKeyId,
        },
        select: { id: true },
      });
      for (const [index, values] of combinations.entries()) {
        const run = await createRunInTx(tx, ctx, {
          suite,
          opts,
          prepared: prepared[index]!,
          trigger,
          trials,
          matrix: { id: matrix.id, combinationIndex: index },
        });
        stored.push({ index, values, run_id: run.id });
      }
      await tx.matrix.update({ where: { id: matrix.id }, data: { combinations: stored } });
      return matrix.id;
    },
    // 32 runs of a large suite insert many case results; the default 5 s is too tight.
    { timeout: 60_000 },
  );
  for (const c of stored) notifyRunQueued(c.run_id!);
  return getMatrixUnchecked(ctx, id);
}

/**
 * Every axis must be a variable the suite's agent declares: refused by name before the axes are
 * expanded, so a typo costs one message instead of one per combination.
 */
function assertAxesAreVariables(suite: SuiteForRun, axes: string[]) {
  const declared = agentVariableDefinitions(suite.agent).map((d) => d.name);
  const known = new Set(declared);
  const unknown = axes.filter((name) => !known.has(name));
  if (unknown.length === 0) return;
  const hint = declared.length ? `it declares ${declared.join(", ")}` : "it declares no variables";
  throw new ValidationError(
    "Some axes are not variables of the agent",
    unknown.map((name) => ({
      path: `variables.${name}`,
      message: `"${name}" is not a variable of the agent ${JSON.stringify(suite.agent.name)} (${hint})`,
    })),
  );
}

async function loadMatrixRow(ctx: WorkspaceContext, id: string): Promise<MatrixRow> {
  if (!isUuid(id)) throw new NotFoundError("Matrix");
  const row = await db.matrix.findFirst({ where: { id, workspaceId: ctx.workspaceId }, select: matrixSelect });
  if (!row) throw new NotFoundError("Matrix");
  return row;
}

const statusOf = (m: MatrixRow): MatrixStatus =>
  matrixStatusOf(
    m.runs.map((r) => r.status),
    m.cancelRequestedAt !== null,
  );

/** GET /api/v1/matrices/{id}: status, combinations with their statistics, the best combination. */
export async function getMatrix(ctx: WorkspaceContext, id: string): Promise<MatrixDto> {
  requireRole(ctx, "viewer");
  return getMatrixUnchecked(ctx, id);
}

async function getMatrixUnchecked(ctx: WorkspaceContext, id: string): Promise<MatrixDto> {
  const row = await loadMatrixRow(ctx, id);
  const combinations = await combinationStats(ctx, row);
  const bestIndex = bestCombinationIndex(combinations.map((c) => ({ ...c, executed: c.passed + c.failed + c.errors })));
  const best = bestIndex === null ? null : combinations.find((c) => c.index === bestIndex)!;
  return {
    ...toMatrixSummaryDto(row, statusOf(row)),
    combinations,
    best_combination: best && {
      index: best.index,
      values: best.values,
      label: best.label,
      run_id: best.run_id,
      pass_rate: best.pass_rate,
      estimated_cost: best.estimated_cost,
      latency_p50_ms: best.latency_p50_ms,
    },
  };
}

type StatsRow = RunCaseCounts & {
  run_id: string;
  run_number: number;
  idx: number;
  status: string;
  p50: number | null;
  p95: number | null;
  mean_tokens: number | null;
  prompt: number;
  completion: number;
  model_id: string | null;
  model_name: string | null;
  model: string | null;
  input_price: number | null;
  output_price: number | null;
};

/**
 * Per combination, aggregated in SQL over its run's case results (every repetition): verdict
 * counts, latency percentiles and mean tokens over the executed cases, token sums, and the
 * prices of the model configuration the run used (its current prices: an estimate).
 */
async function combinationStats(ctx: WorkspaceContext, m: MatrixRow): Promise<CombinationDto[]> {
  const rows = await db.$queryRaw<StatsRow[]>`
    SELECT r."id"::text AS run_id, r."number" AS run_number, r."combinationIndex" AS idx, r."status"::text AS status, r."totalCases" AS total,
           count(c."id") FILTER (WHERE c."status" NOT IN ('pending', 'running'))::int AS done,
           count(c."id") FILTER (WHERE c."status" = 'passed')::int AS passed,
           count(c."id") FILTER (WHERE c."status" = 'failed')::int AS failed,
           count(c."id") FILTER (WHERE c."status" = 'error')::int AS errors,
           count(c."id") FILTER (WHERE c."status" = 'skipped')::int AS skipped,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY c."latencyMs") FILTER (WHERE c."status" IN ('passed', 'failed', 'error')) AS p50,
           percentile_cont(0.95) WITHIN GROUP (ORDER BY c."latencyMs") FILTER (WHERE c."status" IN ('passed', 'failed', 'error')) AS p95,
           avg(c."promptTokens" + c."completionTokens") FILTER (WHERE c."status" IN ('passed', 'failed', 'error'))::float AS mean_tokens,
           coalesce(sum(c."promptTokens"), 0)::int AS prompt,
           coalesce(sum(c."completionTokens"), 0)::int AS completion,
           r."agentSnapshot"->'model_config'->>'id' AS model_id,
           r."agentSnapshot"->'model_config'->>'name' AS model_name,
           r."agentSnapshot"->'model_config'->>'model' AS model,
           min(mc."inputPricePerMtok") AS input_price, min(mc."outputPricePerMtok") AS output_price
    FROM "Run" r
    LEFT JOIN "CaseResult" c ON c."runId" = r."id"
    LEFT JOIN "ModelConfig" mc ON mc."id"::text = r."agentSnapshot"->'model_config'->>'id' AND mc."workspaceId" = r."workspaceId"
    WHERE r."matrixId" = ${m.id}::uuid AND r."workspaceId" = ${ctx.workspaceId}::uuid
    GROUP BY r."id"`;
  const byIndex = new Map(rows.map((r) => [r.idx, r]));
  const stored = (Array.isArray(m.combinations) ? m.combinations : []) as StoredCombination[];
  const order = axisOrder(m);
  return stored.map((stored): CombinationDto => {
    const c = { ...stored, values: inAxisOrder(stored.values, order) };
    const r = byIndex.get(c.index);
    const executed = r ? r.passed + r.failed + r.errors : 0;
    const tokens = { prompt: r?.prompt ?? 0, completion: r?.completion ?? 0 };
    return {
      index: c.index,
      values: c.values,
      label: combinationLabel(c.values),
      run_id: c.run_id,
      run_number: r?.run_number ?? null,
      status: (r?.status ?? "pending") as MatrixStatus,
      model: r?.model_name || r?.model ? { id: r.model_id, name: r.model_name, model: r.model } : null,
      total_cases: r?.total ?? 0,
      completed_cases: r?.done ?? 0,
      passed: r?.passed ?? 0,
      failed: r?.failed ?? 0,
      errors: r?.errors ?? 0,
      skipped: r?.skipped ?? 0,
      pass_rate: executed > 0 ? Math.round(((r?.passed ?? 0) / executed) * 1000) / 10 : 0,
      latency_p50_ms: r?.p50 == null ? null : Math.round(r.p50),
      latency_p95_ms: r?.p95 == null ? null : Math.round(r.p95),
      mean_total_tokens: r?.mean_tokens == null ? null : Math.round(r.mean_tokens * 10) / 10,
      prompt_tokens: tokens.prompt,
      completion_tokens: tokens.completion,
      estimated_cost: r ? estimateCost(tokens, { input: r.input_price, output: r.output_price }) : null,
    };
  });
}

type CellRow = {
  case_key: string;
  test_case_id: string | null;
  name: string;
  pos: number;
  idx: number;
  run_id: string;
  total: number;
  passed: number;
  statuses: string[];
  first_id: string;
};

/** The heat map: one row per case (suite order, at most MAX_TABLE_CASES), one cell per combination. */
export async function matrixTable(ctx: WorkspaceContext, id: string): Promise<MatrixTableDto> {
  requireRole(ctx, "viewer");
  const m = await loadMatrixRow(ctx, id);
  // position = case index × repetitions + repetition, the same in every run of the matrix.
  const limit = MAX_TABLE_CASES * m.repetitions;
  const rows = await db.$queryRaw<CellRow[]>`
    SELECT coalesce(c."testCaseId"::text, c."name") AS case_key, min(c."testCaseId"::text) AS test_case_id, min(c."name") AS name,
           min(c."position")::int AS pos, r."combinationIndex" AS idx, r."id"::text AS run_id,
           count(*)::int AS total, count(*) FILTER (WHERE c."status" = 'passed')::int AS passed,
           array_agg(DISTINCT c."status"::text) AS statuses,
           (array_agg(c."id"::text ORDER BY c."repetition"))[1] AS first_id
    FROM "CaseResult" c JOIN "Run" r ON r."id" = c."runId"
    WHERE r."matrixId" = ${m.id}::uuid AND r."workspaceId" = ${ctx.workspaceId}::uuid AND c."workspaceId" = ${ctx.workspaceId}::uuid
      AND c."position" < ${limit}::int
    GROUP BY 1, r."id"
    ORDER BY 4, 5`;
  const cases = new Map<string, MatrixTableDto["cases"][number] & { pos: number }>();
  for (const r of rows) {
    const row = cases.get(r.case_key) ?? { test_case_id: r.test_case_id, name: r.name, cells: [], pos: r.pos };
    row.pos = Math.min(row.pos, r.pos);
    row.cells.push({
      index: r.idx,
      status: cellStatus(r.statuses),
      passed: r.passed,
      total: r.total,
      case_result_id: r.first_id,
      run_id: r.run_id,
    });
    cases.set(r.case_key, row);
  }
  const sorted = [...cases.values()].sort((a, b) => a.pos - b.pos);
  for (const row of sorted) row.cells.sort((a, b) => a.index - b.index);
  const totals = await db.run.findFirst({ where: { matrixId: m.id, workspaceId: ctx.workspaceId }, select: { totalCases: true } });
  return {
    cases: sorted.map(({ pos: _pos, ...row }) => row),
    truncated: (totals?.totalCases ?? 0) > limit,
  };
}

/** One verdict for a case's repetitions: theirs when they agree; running while any is open; else mixed. */
function cellStatus(statuses: string[]): string {
  if (statuses.length === 1) return statuses[0]!;
  if (statuses.includes("running") || statuses.includes("pending")) return "running";
  return "mixed";
}

/** GET /api/v1/suites/{id}/matrices: newest first, keyset-paginated on (createdAt, id). */
export async function listMatrices(ctx: WorkspaceContext, suiteId: string, q: { cursor?: string; limit: number }) {
  requireRole(ctx, "viewer");
  await requireSuite(ctx, suiteId);
  const { page, next_cursor } = await pageNewestFirst(q, (query) =>
    db.matrix.findMany({ ...query, where: { workspaceId: ctx.workspaceId, suiteId, ...query.where }, select: matrixSelect }),
  );
  return { data: page.map((m) => toMatrixSummaryDto(m, statusOf(m))), next_cursor };
}

/**
 * POST /api/v1/matrices/{id}/cancel: cancels every run of the matrix that has not ended (no new
 * cases start; in-flight ones end their run when they return). 409 when the matrix already ended.
 */
export async function cancelMatrix(ctx: WorkspaceContext, id: string): Promise<MatrixDto> {
  requireRole(ctx, "editor");
  const row = await loadMatrixRow(ctx, id);
  const status = statusOf(row);
  if (!["pending", "running"].includes(status)) throw new ConflictError(`The matrix is already ${status}`);
  await db.matrix.updateMany({ where: { id, workspaceId: ctx.workspaceId }, data: { cancelRequestedAt: new Date() } });
  for (const run of row.runs) {
    if (!["pending", "running"].includes(run.status)) continue;
    await cancelRun(ctx, run.id).catch((err: unknown) => {
      // The run ended between the read and its cancel: nothing left to stop.
      if (!(err instanceof ConflictError)) throw err;
    });
  }
  await refreshMatrixStatus(id);
  return getMatrixUnchecked(ctx, id);
}

/**
 * Stores the status that follows the matrix's runs (with its start and end times). Called when
 * one of its runs finished (lib/run-finished-subscribers.ts), and after a cancel; the matrix row lock
 * serialises concurrent calls. Reads derive the status themselves, so it is never stale there.
 */
export async function refreshMatrixStatus(matrixId: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ cancelled: boolean }[]>`
      SELECT ("cancelRequestedAt" IS NOT NULL) AS cancelled FROM "Matrix" WHERE "id" = ${matrixId}::uuid FOR NO KEY UPDATE`;
    if (!locked) return;
    const runs = await tx.run.findMany({ where: { matrixId }, select: { status: true, startedAt: true, completedAt: true } });
    const status = matrixStatusOf(
      runs.map((r) => r.status),
      locked.cancelled,
    );
    const times = (ds: (Date | null)[]) => ds.filter((d): d is Date => d !== null).map((d) => d.getTime());
    const starts = times(runs.map((r) => r.startedAt));
    const ends = times(runs.map((r) => r.completedAt));
    const ended = !["pending", "running"].includes(status);
    await tx.matrix.update({
      where: { id: matrixId },
      data: {
        status,
        startedAt: starts.length ? new Date(Math.min(...starts)) : null,
        completedAt: ended ? new Date(ends.length ? Math.max(...ends) : Date.now()) : null,
      },
    });
  });
}

/** The two combinations' runs, for "Compare" (both must have completed). */
export async function combinationRuns(ctx: WorkspaceContext, id: string, indexes: [number, number]) {
  requireRole(ctx, "viewer");
  const row = await loadMatrixRow(ctx, id);
  const order = axisOrder(row);
  const stored = ((Array.isArray(row.combinations) ? row.combinations : []) as StoredCombination[]).map((c) => ({
    ...c,
    values: inAxisOrder(c.values, order),
  }));
  const issues: IssueList = [];
  const pick = (index: number, path: string) => {
    const c = stored.find((s) => s.index === index);
    const run = c && row.runs.find((r) => r.id === c.run_id);
    if (!c || !run) issues.push({ path, message: "No such combination in this matrix" });
    else if (run.status !== "completed")
      issues.push({ path, message: `Combination ${index + 1} is ${run.status}; only completed ones can be compared` });
    return c;
  };
  const a = pick(indexes[0], "baseline_index");
  const b = pick(indexes[1], "variant_index");
  if (indexes[0] === indexes[1]) issues.push({ path: "variant_index", message: "Pick two different combinations" });
  if (issues.length || !a || !b) throw new ValidationError("These combinations cannot be compared", issues);
  return { suiteId: row.suiteId, name: row.name, baseline: a as StoredCombination & { values: CombinationValues }, variant: b };
}
