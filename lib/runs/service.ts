/**
 * Runs, from the caller's side: `startRun` (agent snapshot, resolved variables and one pending
 * case result per selected case, then wake the executor), read, list, cancel, case results and
 * the changes since the previous run. Called by the run actions, the /api/v1 run routes and the
 * scheduler; what every start shares (suite, agent, variables, snapshots, case results) is in
 * ./prepare.ts; the executor (./executor.ts) does the work. Every query is scoped by `workspaceId`.
 * ./README.md maps the whole pipeline.
 */
import "server-only";
import { db, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { NotFoundError, ValidationError, ConflictError, zodIssues } from "@/lib/errors";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import { isUuid } from "@/lib/ids";
import { newestFirst } from "@/lib/serialize";
import { type VariableValue } from "@/lib/agents/schemas";
import { startRunInput, type RunKind, type StartRunOptions } from "@/lib/runs/schemas";
import { runKindWhere } from "@/lib/runs/history";
import { runSelect, toRunDto, type RunRow, type RunSuiteInfo } from "@/lib/runs/dto";
import { PRESEEDED_TAGS } from "@/lib/test-cases/schemas";
import { scopedPoolRead } from "@/lib/runs/case-results";
import type pg from "pg";
import { notifyRunQueued } from "@/lib/runs/wakeup";
import { selectionKeyOf } from "@/lib/alerts/selection";
import { forgetRun } from "@/lib/runs/live-answers";
import { firstBatchRows, startRunInBatches } from "@/lib/runs/batched-start";
import {
  agentSnapshotOf,
  agentVariableDefinitions,
  evalSnapshotOf,
  countSelectedCases,
  insertCaseResults,
  noCasesError,
  prepareRunVariables,
  recordRunTotals,
  prepareSuiteRun,
  resolveSelectedCases,
  storeCaseVariables,
  type PreparedRun,
  type SuiteForRun,
} from "@/lib/runs/prepare";

export type RunTrigger = "manual" | "api" | "schedule";

/**
 * Creates a pending run with its agent snapshot, resolved variables and one pending case
 * result per selected case (inserted by one INSERT … SELECT: nothing is held in memory),
 * then wakes the executor. Cases that cannot run are recorded as skipped.
 */
export async function startRun(ctx: WorkspaceContext, suiteId: string, raw: unknown, trigger: RunTrigger) {
  requireRole(ctx, "editor");
  const parsed = startRunInput.safeParse(raw ?? {});
  if (!parsed.success) throw new ValidationError("Invalid run options", zodIssues(parsed.error));
  const opts = parsed.data;
  const { suite, presetValues, trials } = await prepareSuiteRun(ctx, suiteId, opts);
  // A preset's values first, explicit run values over them.
  const variables = { ...presetValues, ...opts.variables };
  const prepared = await prepareRunVariables(ctx, suite, variables, opts);
  const args = { suite, opts, prepared, trigger, trials };
  // A large run is written in batches, so that its first cases start at once (./batched-start.ts).
  const first = firstBatchRows();
  if ((await countSelectedCases(ctx.workspaceId, suite.id, opts, first + 1)) * trials > first) {
    const run = await startRunInBatches({
      concurrency: opts.concurrency,
      createRun: async (tx, lease) =>
        (await createRunRow(tx, ctx, args, { preparedAt: null, leaseOwner: lease.owner, leaseExpiresAt: lease.expiresAt })).id,
      insert: caseResultsOf(ctx, args),
      perCase: prepared.perCase ?? (await resolveRunCases(ctx, args)),
    });
    notifyRunQueued(run.id);
    return toRunDto(run);
  }
  const run = await db.$transaction((tx) => createRunInTx(tx, ctx, args));
  notifyRunQueued(run.id);
  return toRunDto(run);
}

type RunArgs = {
  suite: SuiteForRun;
  opts: Omit<StartRunOptions, "variables" | "preset" | "trials">;
  prepared: PreparedRun;
  trigger: RunTrigger;
  trials: number;
  matrix?: { id: string; combinationIndex: number };
  rerunOf?: string;
};

/**
 * Writes a validated run inside `tx`: the run row (agent and judge snapshots, resolved
 * variables) and its case results (× `trials`, interleaved), with totals. A matrix run carries its
 * matrix and combination and no selection key (it is never a regression baseline). The caller
 * wakes the executor after the commit.
 */
export async function createRunInTx(tx: Tx, ctx: WorkspaceContext, args: RunArgs) {
  const created = await createRunRow(tx, ctx, args);
  const inserted = await insertCaseResults(tx, { ...caseResultsOf(ctx, args), runId: created.id });
  if (inserted === 0) throw noCasesError(args.opts);
  await storeCaseVariables(tx, created.id, args.prepared.perCase ?? (await resolveRunCases(ctx, args)));
  return recordRunTotals(tx, created.id, inserted);
}

/** The run row alone (`batch`: the lease of a run whose case results are written in batches). */
function createRunRow(
  tx: Tx,
  ctx: WorkspaceContext,
  args: RunArgs,
  batch?: { preparedAt: null; leaseOwner: string; leaseExpiresAt: Date },
) {
  const { suite, opts, prepared } = args;
  return tx.run.create({
    data: {
      workspaceId: ctx.workspaceId,
      suiteId: suite.id,
      triggeredBy: args.trigger,
      triggeredByUserId: ctx.userId,
      triggeredByKeyId: ctx.apiKeyId,
      options: {
        tags: opts.tags,
        tag_match: opts.tag_match,
        difficulty: opts.difficulty,
        case_ids: opts.case_ids,
        concurrency: opts.concurrency,
      },
      concurrency: opts.concurrency,
      trials: args.trials,
      metadata: opts.metadata,
      resolvedVariables: prepared.resolved,
      agentSnapshot: agentSnapshotOf(suite.agent, prepared.model) as Prisma.InputJsonValue,
      evalSnapshot: evalSnapshotOf(suite) as Prisma.InputJsonValue,
      // Regression alerts compare runs over the same selection only (lib/runs/alerts.ts).
      selectionKey: args.matrix ? null : selectionKeyOf(opts),
      matrixId: args.matrix?.id ?? null,
      combinationIndex: args.matrix?.combinationIndex ?? null,
      rerunOfId: args.rerunOf ?? null,
      ...batch,
    },
    select: { id: true },
  });
}

/** Which case results a run gets: the selection × trials, trial-major (case-major for a matrix's heat map). */
function caseResultsOf(ctx: WorkspaceContext, args: RunArgs) {
  return {
    workspaceId: ctx.workspaceId,
    suiteId: args.suite.id,
    selection: args.opts,
    repetitions: args.trials,
    // A matrix's heat map reads every combination at the same case-major positions.
    order: args.matrix ? ("case-major" as const) : ("trial-major" as const),
  };
}

/** Each selected case's resolved variables, when they were not resolved with the run's validation. */
function resolveRunCases(ctx: WorkspaceContext, { suite, opts, prepared }: RunArgs) {
  return resolveSelectedCases(
    ctx.workspaceId,
    suite.id,
    opts,
    agentVariableDefinitions(suite.agent),
    (suite.variables ?? {}) as Record<string, VariableValue>,
    prepared.variables,
  );
}

/** runSelect's columns, by name (the live run page polls this: raw pg, see `scopedPoolRead`). */
const RUN_COLUMNS = Object.keys(runSelect)
  .map((c) => `r."${c}"`)
  .join(", ");

/** A running run's cases whose call waits for the provider's rate limit (the (runId, status) index; 0 once it ended). */
const RATE_LIMIT_WAITS = `CASE WHEN r."status" = 'running' THEN (
  SELECT count(*)::int FROM "CaseResult" c WHERE c."runId" = r."id" AND c."status" = 'running' AND c."stage" = 'waiting_rate_limit'
) ELSE 0 END AS rate_limit_waits`;

export async function getRun(ctx: WorkspaceContext, id: string) {
  if (!isUuid(id)) throw new NotFoundError("Run");
  const [run] = await scopedPoolRead(
    ctx.workspaceId,
    async (client) =>
      (
        await client.query<RunRow & { rate_limit_waits: number }>({
          name: "assay_get_run",
          text: `SELECT ${RUN_COLUMNS}, ${RATE_LIMIT_WAITS} FROM "Run" r WHERE r."id" = $1::uuid AND r."workspaceId" = $2::uuid`,
          values: [id, ctx.workspaceId],
        })
      ).rows,
  );
  if (!run) throw new NotFoundError("Run");
  const { rate_limit_waits, ...row } = run;
  return toRunDto(row, { rateLimitWaits: rate_limit_waits });
}

type RunPageHeadRow = RunRow & {
  rate_limit_waits: number;
  suite_found: string | null;
  suite_name: string | null;
  suite_deleted: boolean | null;
  agent_name: string | null;
  pinned: boolean | null;
  tags: string[];
};

/**
 * The run page's head in one statement on a client inside `scopedPoolRead`: the run, its suite
 * (a deleted suite still shows its name) with its agent's name, the suite's case tags (none for a
 * deleted suite) and the run's baseline state for the "Pin as baseline" button: pinned, and
 * pinnable when completed, not a comparison arm and the suite is not in the trash (the checks
 * `pinBaseline` in lib/alerts/service.ts makes).
 */
export async function runPageHeadOn(client: pg.PoolClient, ctx: WorkspaceContext, runId: string) {
  if (!isUuid(runId)) throw new NotFoundError("Run");
  const [row] = (
    await client.query<RunPageHeadRow>({
      name: "assay_run_page_head",
      text: `
        SELECT ${RUN_COLUMNS}, ${RATE_LIMIT_WAITS}, s."id" AS suite_found, s."name" AS suite_name, s."deletedAt" IS NOT NULL AS suite_deleted,
               a."name" AS agent_name, s."baselineRunId" IS NOT DISTINCT FROM r."id" AS pinned,
               CASE WHEN s."id" IS NOT NULL AND s."deletedAt" IS NULL THEN ARRAY(
                 SELECT DISTINCT unnest(t."tags") FROM "TestCase" t
                 WHERE t."workspaceId" = $2::uuid AND t."suiteId" = s."id" AND t."deletedAt" IS NULL
               ) ELSE '{}'::text[] END AS tags
        FROM "Run" r
        LEFT JOIN "Suite" s ON s."id" = r."suiteId" AND s."workspaceId" = $2::uuid
        LEFT JOIN "Agent" a ON a."id" = s."agentId" AND a."workspaceId" = $2::uuid
        WHERE r."id" = $1::uuid AND r."workspaceId" = $2::uuid`,
      values: [runId, ctx.workspaceId],
    })
  ).rows;
  if (!row) throw new NotFoundError("Run");
  const { suite_found, suite_name, suite_deleted, agent_name, pinned, tags, rate_limit_waits, ...runRow } = row;
  const run = toRunDto(runRow as RunRow, { rateLimitWaits: rate_limit_waits });
  const suite: RunSuiteInfo = suite_found
    ? { id: suite_found, name: suite_name!, deleted: suite_deleted === true, agentName: agent_name }
    : { id: run.suite_id, name: "Deleted suite", deleted: true, agentName: null };
  return {
    run,
    suite,
    tags: suite.deleted ? [] : [...new Set([...tags, ...PRESEEDED_TAGS])].sort(),
    baseline: {
      pinned: suite_found !== null && pinned === true,
      pinnable: suite_found !== null && run.status === "completed" && !run.comparison_id && !run.matrix_id && !suite.deleted,
    },
  };
}

/**
 * Newest first, keyset-paginated on (createdAt, id). `kind`: the suite's history (ordinary runs,
 * the default), its experiments (comparison arms, matrix combinations) or all.
 */
export async function listRuns(
  ctx: WorkspaceContext,
  suiteId: string,
  q: { status?: string; kind?: RunKind; cursor?: string; limit: number },
) {
  if (!isUuid(suiteId)) throw new NotFoundError("Suite");
  const suite = await db.suite.findFirst({ where: { id: suiteId, workspaceId: ctx.workspaceId }, select: { id: true } });
  if (!suite) throw new NotFoundError("Suite");
  const rows = await db.run.findMany({
    where: {
      workspaceId: ctx.workspaceId,
      suiteId,
      ...(q.status ? { status: q.status as never } : {}),
      ...newestFirst.where(q.cursor),
      AND: [runKindWhere(q.kind ?? "ordinary")],
    },
    orderBy: newestFirst.orderBy,
    take: q.limit + 1,
    select: runSelect,
  });
  const { page, next_cursor } = newestFirst.page(rows, q.limit);
  return { data: page.map((r) => toRunDto(r)), next_cursor };
}

/**
 * Cancel: no new cases start, pending ones are marked skipped, in-flight calls are aborted
 * by the executor (it watches cancelRequestedAt) and the run ends `cancelled`.
 */
export async function cancelRun(ctx: WorkspaceContext, id: string) {
  requireRole(ctx, "editor");
  if (!isUuid(id)) throw new NotFoundError("Run");
  const cancelled = await db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ status: string; prepared: boolean }[]>`
      SELECT "status"::text AS status, ("preparedAt" IS NOT NULL) AS prepared
      FROM "Run" WHERE "id" = ${id}::uuid AND "workspaceId" = ${ctx.workspaceId}::uuid FOR NO KEY UPDATE`;
    if (!locked) throw new NotFoundError("Run");
    if (!["pending", "running"].includes(locked.status)) {
      throw new ConflictError(`The run is already ${locked.status}`);
    }
    const skipped = await tx.caseResult.updateMany({
      where: { runId: id, status: "pending" },
      data: { status: "skipped", errorMessage: "Run cancelled before this case started", completedAt: new Date() },
    });
    const running = await tx.caseResult.count({ where: { runId: id, status: "running" } });
    const run = await tx.run.update({
      where: { id },
      data: {
        cancelRequestedAt: new Date(),
        skippedCases: { increment: skipped.count },
        // A run whose cases are still being written ends when its writer sees the cancel (./batched-start.ts).
        ...(running === 0 && locked.prepared
          ? { status: "cancelled", completedAt: new Date(), leaseOwner: null, leaseExpiresAt: null }
          : {}),
      },
      select: runSelect,
    });
    return toRunDto(run);
  });
  // Viewers of the run page share answers about a live run: their next read sees the cancel.
  forgetRun(id);
  return cancelled;
}

// Case result reads (lists without transcripts, the run page's slim rows, one case) live in ./case-results.ts.
export { getCaseResult, listCaseResults } from "@/lib/runs/case-results";

// The changes since the previous run (cached per run) live in ./previous-run-changes.ts.
export { changesAndRunStatusOn, changesOn, changesSincePreviousRun } from "@/lib/runs/previous-run-changes";
