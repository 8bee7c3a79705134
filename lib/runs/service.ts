/**
 * Runs, from the caller's side: `startRun` (agent snapshot, resolved variables and one pending
 * case result per selected case, then wake the executor), read, list, cancel, case results and
 * the changes since the previous run. Called by the run actions, the /api/v1 run routes and the
 * scheduler; the executor (./executor.ts) does the work. Every query is scoped by `workspaceId`.
 * ./README.md maps the whole pipeline.
 */
import "server-only";
import { db, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { NotFoundError, ValidationError, ConflictError, zodIssues, type IssueList } from "@/lib/errors";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import { isUuid } from "@/lib/ids";
import { newestFirst } from "@/lib/serialize";
import { variableDefinitionSchema, type VariableValue } from "@/lib/agents/schemas";
import { startRunInput, type RunKind, type StartRunOptions } from "@/lib/runs/schemas";
import { runKindWhere } from "@/lib/runs/history";
import { causeOf, hashChanged } from "@/lib/runs/changes";
import {
  resolveCaseVariables,
  resolveVariables,
  type PinnedValues,
  type ResolvedVariables,
  type TestVariablesConfig,
} from "@/lib/runs/variables";
import { runSelect, toRunDto, type RunChanges, type RunRow, type RunSuiteInfo } from "@/lib/runs/dto";
import { PRESEEDED_TAGS } from "@/lib/test-cases/schemas";
import { scopedPoolRead } from "@/lib/runs/case-results";
import type pg from "pg";
import { notifyRunQueued } from "@/lib/runs/wakeup";
import { selectionKeyOf } from "@/lib/alerts/selection";
import { presetValuesForRun } from "@/lib/presets/service";
import { forgetRun } from "@/lib/runs/live-answers";

export type RunTrigger = "manual" | "api" | "schedule";

const modelSelect = {
  id: true,
  name: true,
  baseUrl: true,
  model: true,
  embeddingModel: true,
  temperature: true,
  maxTokens: true,
  supportsVision: true,
} as const;

/**
 * Creates a pending run with its agent snapshot, resolved variables and one pending case
 * result per selected case (inserted by one INSERT … SELECT: nothing is held in memory),
 * then wakes the executor. Cases that cannot run are recorded as skipped.
 */
/** What a run (or a comparison arm) snapshots from the suite and its agent. */
const agentForRunSelect = {
  id: true,
  name: true,
  kind: true,
  systemPrompt: true,
  tools: true,
  httpUrl: true,
  httpHeaderNames: true,
  httpTimeoutMs: true,
  variablesSchema: true,
  updatedAt: true,
  modelConfig: { select: modelSelect },
} as const;
export type AgentForRun = Prisma.AgentGetPayload<{ select: typeof agentForRunSelect }>;

/** The suite as a run needs it (agent, judge, simulator, metrics, variable values); NotFoundError when absent or deleted. */
export async function loadSuiteForRun(ctx: WorkspaceContext, suiteId: string) {
  if (!isUuid(suiteId)) throw new NotFoundError("Suite");
  const suite = await db.suite.findFirst({
    where: { id: suiteId, workspaceId: ctx.workspaceId, deletedAt: null },
    select: {
      id: true,
      name: true,
      variables: true,
      metrics: true,
      llmJudgeModelConfig: { select: modelSelect },
      simulatorModelConfig: { select: modelSelect },
      workspace: { select: { maxTurnsCap: true } },
      agent: { select: agentForRunSelect },
    },
  });
  if (!suite) throw new NotFoundError("Suite");
  return suite;
}
export type SuiteForRun = Awaited<ReturnType<typeof loadSuiteForRun>>;

/** An agent of the workspace in the shape a run snapshots; null when absent. */
export async function loadAgentForRun(ctx: WorkspaceContext, agentId: string): Promise<AgentForRun | null> {
  if (!isUuid(agentId)) return null;
  return db.agent.findFirst({ where: { id: agentId, workspaceId: ctx.workspaceId }, select: agentForRunSelect });
}

/** A model configuration of the workspace in the shape a run snapshots; null when absent. */
export async function loadModelConfigForRun(ctx: WorkspaceContext, id: string): Promise<ModelForRun | null> {
  if (!isUuid(id)) return null;
  return db.modelConfig.findFirst({ where: { id, workspaceId: ctx.workspaceId }, select: modelSelect });
}

/** Why an agent cannot run (null when it can), with the path of the field to fix. */
export function agentRunIssue(agent: Pick<AgentForRun, "kind" | "modelConfig" | "httpUrl">, path = "agent") {
  if (agent.kind === "chat" && !agent.modelConfig) {
    return {
      message: "The agent has no model configuration",
      path: `${path}.model_config_id`,
      hint: "Choose a model configuration for the agent before running",
    };
  }
  if (agent.kind === "http" && !agent.httpUrl) {
    return { message: "The agent has no URL", path: `${path}.http.url`, hint: "Set the HTTP agent's URL before running" };
  }
  return null;
}

/** The agent as a run records it (`Run.agentSnapshot`); the model may be overridden (comparison arms). */
export function agentSnapshotOf(agent: AgentForRun, model: ModelForRun | null = agent.modelConfig) {
  return {
    id: agent.id,
    name: agent.name,
    kind: agent.kind,
    system_prompt: agent.systemPrompt,
    tools: agent.tools,
    model_config: model && modelSnapshot(model),
    http:
      agent.kind === "http" ? { url: agent.httpUrl, header_names: agent.httpHeaderNames, timeout_ms: agent.httpTimeoutMs ?? 30_000 } : null,
    agent_updated_at: agent.updatedAt.toISOString(),
  };
}

/** Judge/simulator models and metrics as a run records them (`Run.evalSnapshot`). */
export function evalSnapshotOf(suite: SuiteForRun) {
  const judge = suite.llmJudgeModelConfig;
  return {
    judge_model_config: judge && modelSnapshot(judge),
    simulator_model_config: suite.simulatorModelConfig ? modelSnapshot(suite.simulatorModelConfig) : judge && modelSnapshot(judge),
    metrics: suite.metrics,
    max_turns_cap: suite.workspace.maxTurnsCap,
  };
}

/** The agent's variable definitions (spec 004), ignoring a malformed stored list. */
export function agentVariableDefinitions(agent: Pick<AgentForRun, "variablesSchema">) {
  const definitions = variableDefinitionSchema.array().safeParse(agent.variablesSchema);
  return definitions.success ? definitions.data : [];
}

export type CaseSelection = Pick<StartRunOptions, "tags" | "tag_match" | "difficulty" | "case_ids">;

/**
 * Inserts one case result per selected case (× `repetitions`) of the suite into a run, in one
 * `INSERT … SELECT`; position = case index × repetitions + repetition. A case with neither
 * initial message nor persona is inserted as skipped. Returns how many rows were inserted.
 */
export async function insertCaseResults(
  tx: Tx,
  args: {
    runId: string;
    workspaceId: string;
    suiteId: string;
    selection: CaseSelection;
    repetitions?: number;
    variant?: "baseline" | "variant";
  },
): Promise<number> {
  const repetitions = args.repetitions ?? 1;
  const where = caseSelectionSql(args.workspaceId, args.suiteId, args.selection);
  return tx.$executeRaw`
    INSERT INTO "CaseResult" ("id", "workspaceId", "runId", "testCaseId", "variant", "position", "repetition", "status", "caseSnapshot", "caseHash",
                              "name", "tags", "errorMessage", "completedAt")
    SELECT gen_random_uuid(), tc."workspaceId", ${args.runId}::uuid, tc."id", ${args.variant ?? "baseline"}::"Variant",
           (tc.idx * ${repetitions}::int + rep)::int, rep::int,
           (CASE WHEN tc."initialMessage" IS NULL AND tc."persona" IS NULL THEN 'skipped' ELSE 'pending' END)::"CaseResultStatus",
           tc.snapshot, assay_case_hash(tc.snapshot::jsonb), tc."name", coalesce(tc."tags", ARRAY[]::text[]),
           CASE WHEN tc."initialMessage" IS NULL AND tc."persona" IS NULL THEN 'Not runnable: no initial_message and no persona' END,
           CASE WHEN tc."initialMessage" IS NULL AND tc."persona" IS NULL THEN now() END
    FROM (
      SELECT tc.*, (row_number() OVER (ORDER BY tc."sortOrder", tc."id") - 1)::int AS idx,
             json_build_object(
               'id', tc."id", 'name', tc."name", 'description', tc."description", 'difficulty', tc."difficulty", 'tags', to_json(tc."tags"),
               'status', tc."status", 'persona', tc."persona", 'initial_message', tc."initialMessage", 'user_context', tc."userContext",
               'max_turns', tc."maxTurns",
               -- jsonb reorders keys: rebuild a json object (json keeps order) in the authored label order.
               'expected_outcomes', (SELECT json_object_agg(o.k, o.v ORDER BY coalesce(array_position(tc."expectedOutcomeLabels", o.k), 2147483647), o.k)
                                     FROM jsonb_each(CASE WHEN jsonb_typeof(tc."expectedOutcomes") = 'object' THEN tc."expectedOutcomes" END) AS o(k, v)),
               'expected_tool_calls', tc."expectedToolCalls",
               'evaluation_criteria_override', tc."evaluationCriteriaOverride", 'checks', tc."checks", 'mode', tc."mode",
               'ground_truth', tc."groundTruth", 'evaluations', tc."evaluations", 'files', tc."files") AS snapshot
      FROM "TestCase" tc WHERE ${where}
    ) tc CROSS JOIN generate_series(0, ${repetitions - 1}::int) AS rep`;
}

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
  const suite = await loadSuiteForRun(ctx, suiteId);
  const problem = agentRunIssue(suite.agent);
  if (problem)
    throw new ValidationError(`The suite's agent ${problem.message.slice("The agent ".length)}`, [
      { path: problem.path, message: problem.hint },
    ]);
  // Spec 004 presets: the preset's values first, explicit run values over them.
  const variables = opts.preset ? { ...(await presetValuesForRun(ctx, suite.id, opts.preset)), ...opts.variables } : opts.variables;
  const prepared = await prepareRunVariables(ctx, suite, variables, opts);
  const run = await db.$transaction((tx) => createRunInTx(tx, ctx, { suite, opts, prepared, trigger }));
  notifyRunQueued(run.id);
  return toRunDto(run);
}

/**
 * Resolves a run's variables against the suite and its agent (spec 004) and the model
 * configuration they select; ValidationError (paths `variables.NAME`) when they do not resolve.
 * Everything a run needs to be validated before any row is written (matrices validate every
 * combination with it before creating the first run).
 */
export async function prepareRunVariables(
  ctx: WorkspaceContext,
  suite: SuiteForRun,
  variables: Record<string, VariableValue>,
  /** With the selection, every selected case is resolved (and validated) now; else when the run is written. */
  selection?: CaseSelection,
) {
  const definitions = agentVariableDefinitions(suite.agent);
  const suiteValues = (suite.variables ?? {}) as Record<string, VariableValue>;
  const { resolved, issues } = resolveVariables(definitions, suiteValues, variables);
  // A required variable may get its value from a case's own default: checked per case.
  const runIssues = issues.filter((i) => !REQUIRED_MISSING.test(i.message));
  if (runIssues.length) throw new ValidationError("Variables do not resolve", runIssues);
  const perCase = selection ? await resolveSelectedCases(ctx.workspaceId, suite.id, selection, definitions, suiteValues, variables) : null;
  const model = await modelForVariables(ctx, suite.agent, resolved.values);
  return { resolved, model, variables, perCase };
}
export type PreparedRun = Awaited<ReturnType<typeof prepareRunVariables>>;

/**
 * Writes a validated run inside `tx`: the run row (agent and judge snapshots, resolved
 * variables) and its case results (× `repetitions`), with totals. A matrix run carries its
 * matrix and combination and no selection key (it is never a regression baseline). The caller
 * wakes the executor after the commit.
 */
export async function createRunInTx(
  tx: Tx,
  ctx: WorkspaceContext,
  args: {
    suite: SuiteForRun;
    opts: Omit<StartRunOptions, "variables" | "preset">;
    prepared: PreparedRun;
    trigger: RunTrigger;
    repetitions?: number;
    matrix?: { id: string; combinationIndex: number };
  },
) {
  const { suite, opts, prepared } = args;
  const created = await tx.run.create({
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
      metadata: opts.metadata,
      resolvedVariables: prepared.resolved,
      agentSnapshot: agentSnapshotOf(suite.agent, prepared.model) as Prisma.InputJsonValue,
      evalSnapshot: evalSnapshotOf(suite) as Prisma.InputJsonValue,
      // Regression alerts compare runs over the same selection only (lib/runs/alerts.ts).
      selectionKey: args.matrix ? null : selectionKeyOf(opts),
      matrixId: args.matrix?.id ?? null,
      combinationIndex: args.matrix?.combinationIndex ?? null,
    },
    select: { id: true },
  });
  const inserted = await insertCaseResults(tx, {
    runId: created.id,
    workspaceId: ctx.workspaceId,
    suiteId: suite.id,
    selection: opts,
    repetitions: args.repetitions,
  });
  if (inserted === 0) throw noCasesError(opts);
  const perCase =
    prepared.perCase ??
    (await resolveSelectedCases(
      ctx.workspaceId,
      suite.id,
      opts,
      agentVariableDefinitions(suite.agent),
      (suite.variables ?? {}) as Record<string, VariableValue>,
      prepared.variables,
    ));
  await storeCaseVariables(tx, created.id, perCase);
  const skipped = await tx.caseResult.count({ where: { runId: created.id, status: "skipped" } });
  return tx.run.update({
    where: { id: created.id },
    data: { totalCases: inserted, skippedCases: skipped },
    select: runSelect,
  });
}

const REQUIRED_MISSING = /^Required variable ".*" has no value$/;

/**
 * Spec 004 per case: resolves the variables of every selected case (run > suite > the case's
 * own configuration > the type, locks and exposure applied) and refuses the run when any case
 * does not resolve, with issues naming the variable and the case. Returns each case's
 * {values, sources} by test case id (empty when the agent declares no variables).
 */
export async function resolveSelectedCases(
  workspaceId: string,
  suiteId: string,
  selection: CaseSelection,
  definitions: ReturnType<typeof agentVariableDefinitions>,
  suiteValues: Record<string, VariableValue>,
  runValues: Record<string, VariableValue>,
  /** Values an explicit setting fixes (a comparison arm's model, temperature, max tokens): they win over every source. */
  pinned: PinnedValues = {},
): Promise<Map<string, ResolvedVariables>> {
  const out = new Map<string, ResolvedVariables>();
  if (definitions.length === 0) return out;
  const cases = await db.$queryRaw<{ id: string; name: string; variables: TestVariablesConfig | null }[]>`
    SELECT tc."id", tc."name", tc."variables" FROM "TestCase" tc WHERE ${caseSelectionSql(workspaceId, suiteId, selection)}
    ORDER BY tc."sortOrder", tc."id"`;
  const issues: IssueList = [];
  for (const c of cases) {
    const { resolved, issues: caseIssues } = resolveCaseVariables(definitions, suiteValues, runValues, c.variables, pinned);
    for (const i of caseIssues)
      if (issues.length < 50) issues.push({ path: i.path, message: `case ${JSON.stringify(c.name)}: ${i.message}` });
    out.set(c.id, resolved);
  }
  if (issues.length) throw new ValidationError("Variables do not resolve for some cases", issues);
  return out;
}

/** Writes each case result's resolved variables (spec 004 ResolvedTestVariables) in one statement. */
export async function storeCaseVariables(tx: Tx, runId: string, perCase: Map<string, ResolvedVariables>) {
  if (perCase.size === 0) return;
  const rows = [...perCase].map(([test_case_id, resolved]) => ({ test_case_id, resolved }));
  await tx.$executeRaw`
    UPDATE "CaseResult" c SET "resolvedVariables" = x.resolved
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(test_case_id uuid, resolved jsonb)
    WHERE c."runId" = ${runId}::uuid AND c."testCaseId" = x.test_case_id`;
}

/** Spec 004: the variable that selects the agent's model configuration, by name. */
export const MODEL_VARIABLE = "AIConfiguration";

/**
 * The model configuration a run uses: the one named by the `AIConfiguration` variable when it
 * resolved to a name (spec 004: possible values are model configuration names of the
 * workspace), else the agent's own. An unknown name is a validation error naming the variable.
 */
export async function modelForVariables(ctx: WorkspaceContext, agent: AgentForRun, values: Record<string, unknown>, path = "variables") {
  const name = values[MODEL_VARIABLE];
  if (typeof name !== "string" || name === "" || agent.kind !== "chat") return agent.modelConfig;
  const model = await db.modelConfig.findFirst({ where: { workspaceId: ctx.workspaceId, name }, select: modelSelect });
  if (!model) {
    throw new ValidationError("Variables do not resolve", [
      { path: `${path}.${MODEL_VARIABLE}`, message: `No model configuration named "${name}" in this workspace` },
    ]);
  }
  return model;
}

export function noCasesError(selection: CaseSelection) {
  return new ValidationError("No test cases match this selection", [
    { path: selection.case_ids ? "case_ids" : "tags", message: "No test cases match: only active cases run by default" },
  ]);
}

type ModelForRun = {
  id: string;
  name: string;
  baseUrl: string;
  model: string;
  embeddingModel: string | null;
  temperature: number | null;
  maxTokens: number | null;
  supportsVision: boolean;
};

export function modelSnapshot(m: ModelForRun) {
  return {
    id: m.id,
    name: m.name,
    base_url: m.baseUrl,
    model: m.model,
    embedding_model: m.embeddingModel,
    temperature: m.temperature,
    max_tokens: m.maxTokens,
    /** Spec 000: image files are sent to this model as image parts. */
    supports_vision: m.supportsVision,
  };
}

function caseSelectionSql(workspaceId: string, suiteId: string, opts: CaseSelection) {
  const parts: Prisma.Sql[] = [
    Prisma.sql`tc."workspaceId" = ${workspaceId}::uuid`,
    Prisma.sql`tc."suiteId" = ${suiteId}::uuid`,
    Prisma.sql`tc."deletedAt" IS NULL`,
  ];
  if (opts.case_ids) parts.push(Prisma.sql`tc."id" = ANY(${opts.case_ids}::uuid[])`);
  else parts.push(Prisma.sql`tc."status" = 'active'`);
  if (opts.tags.length) {
    parts.push(opts.tag_match === "all" ? Prisma.sql`tc."tags" @> ${opts.tags}::text[]` : Prisma.sql`tc."tags" && ${opts.tags}::text[]`);
  }
  if (opts.difficulty) parts.push(Prisma.sql`tc."difficulty" = ${opts.difficulty}::"Difficulty"`);
  return Prisma.join(parts, " AND ");
}

/** runSelect's columns, by name (the live run page polls this: raw pg, see `scopedPoolRead`). */
const RUN_COLUMNS = Object.keys(runSelect)
  .map((c) => `r."${c}"`)
  .join(", ");

export async function getRun(ctx: WorkspaceContext, id: string) {
  if (!isUuid(id)) throw new NotFoundError("Run");
  const [run] = await scopedPoolRead(
    ctx.workspaceId,
    async (client) =>
      (
        await client.query<RunRow>({
          name: "assay_get_run",
          text: `SELECT ${RUN_COLUMNS} FROM "Run" r WHERE r."id" = $1::uuid AND r."workspaceId" = $2::uuid`,
          values: [id, ctx.workspaceId],
        })
      ).rows,
  );
  if (!run) throw new NotFoundError("Run");
  return toRunDto(run);
}

type RunPageHeadRow = RunRow & {
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
        SELECT ${RUN_COLUMNS}, s."id" AS suite_found, s."name" AS suite_name, s."deletedAt" IS NOT NULL AS suite_deleted,
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
  const { suite_found, suite_name, suite_deleted, agent_name, pinned, tags, ...runRow } = row;
  const run = toRunDto(runRow as RunRow);
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
  return { data: page.map(toRunDto), next_cursor };
}

/**
 * Cancel: no new cases start, pending ones are marked skipped, in-flight calls are aborted
 * by the executor (it watches cancelRequestedAt) and the run ends `cancelled`.
 */
export async function cancelRun(ctx: WorkspaceContext, id: string) {
  requireRole(ctx, "editor");
  if (!isUuid(id)) throw new NotFoundError("Run");
  const cancelled = await db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ status: string }[]>`
      SELECT "status"::text AS status FROM "Run" WHERE "id" = ${id}::uuid AND "workspaceId" = ${ctx.workspaceId}::uuid FOR UPDATE`;
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
        ...(running === 0 ? { status: "cancelled", completedAt: new Date(), leaseOwner: null, leaseExpiresAt: null } : {}),
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

/**
 * The changes of a run stay right while its status, counters and previous run are unchanged: a
 * run's verdicts change only together with its counters (lib/runs/result-writer.ts updates both
 * in one statement; finalize and cancel change the status). So the last answer is kept per run
 * (the 500 most recently asked) under that key, and a repeated ask about a finished run costs
 * one indexed read. A live run's counters move with nearly every case, so its key rarely
 * matches: the run page's many viewers share answers through ./live-answers.ts instead.
 */
const changesCache = new Map<string, { key: string; value: RunChanges }>();
const CHANGES_CACHE_RUNS = 500;

type VerdictChangeRow = { id: string; test_case_id: string; name: string; before: string; after: string; case_changed: boolean };
type ChangesHead = {
  id: string;
  status: string;
  done: number;
  agent_hash: string | null;
  eval_hash: string | null;
  previous_id: string | null;
  previous_number: number | null;
  previous_agent_hash: string | null;
  previous_eval_hash: string | null;
};

/**
 * Cases whose verdict changed since the suite's previous completed ordinary run (experiments are
 * not the suite's history, lib/runs/history.ts):
 * pass→fail (regressions) and fail→pass (fixes), matched by test case id. One SQL query.
 */
export async function changesSincePreviousRun(ctx: WorkspaceContext, runId: string): Promise<RunChanges> {
  if (!isUuid(runId)) throw new NotFoundError("Run");
  return scopedPoolRead(ctx.workspaceId, (client) => changesOn(client, ctx, runId));
}

/** changesSincePreviousRun on a client inside `scopedPoolRead` (the run page's loader reads several things in one). */
export async function changesOn(client: pg.PoolClient, ctx: WorkspaceContext, runId: string): Promise<RunChanges> {
  return (await changesAndRunStatusOn(client, ctx, runId)).changes;
}

/** changesOn with the run's status, read in the same statement (whether the answer may be shared, ./live-reads.ts). */
export async function changesAndRunStatusOn(
  client: pg.PoolClient,
  ctx: WorkspaceContext,
  runId: string,
): Promise<{ changes: RunChanges; runStatus: string }> {
  if (!isUuid(runId)) throw new NotFoundError("Run");
  const [run] = (
    await client.query<ChangesHead>({
      name: "assay_changes_head",
      text: `
        SELECT r."id", r."status"::text AS status,
               (r."passedCases" + r."failedCases" + r."errorCases" + r."skippedCases")::int AS done,
               r."agentHash" AS agent_hash, r."evalHash" AS eval_hash,
               p."id" AS previous_id, p."number" AS previous_number,
               p."agentHash" AS previous_agent_hash, p."evalHash" AS previous_eval_hash
        FROM "Run" r
        LEFT JOIN LATERAL (
          SELECT p."id", p."number", p."agentHash", p."evalHash" FROM "Run" p
          WHERE p."suiteId" = r."suiteId" AND p."workspaceId" = $2::uuid AND p."status" = 'completed' AND p."createdAt" < r."createdAt"
            AND p."comparisonId" IS NULL AND p."matrixId" IS NULL
          ORDER BY p."createdAt" DESC, p."id" DESC LIMIT 1
        ) p ON true
        WHERE r."id" = $1::uuid AND r."workspaceId" = $2::uuid`,
      values: [runId, ctx.workspaceId],
    })
  ).rows;
  if (!run) throw new NotFoundError("Run");
  if (!run.previous_id) {
    return {
      changes: {
        previous_run_id: null,
        previous_run_number: null,
        agent_changed: false,
        evaluation_changed: false,
        regressions: [],
        fixes: [],
      },
      runStatus: run.status,
    };
  }
  // The run was found in the caller's workspace above; the key names it too.
  const key = `${ctx.workspaceId}:${run.status}:${run.done}:${run.previous_id}`;
  const cached = changesCache.get(run.id);
  if (cached?.key === key) {
    changesCache.delete(run.id);
    changesCache.set(run.id, cached);
    return { changes: cached.value, runStatus: run.status };
  }
  // One pass over both runs' rows grouped by test case (an index scan on runId, then a hash
  // aggregate): a join of the two runs let the planner pick a nested loop comparing every row
  // with every row when the table's statistics were stale (1,000 × 1,000 rows, 1.5 s per poll
  // under load), and the live run page asks for this every few seconds.
  const rows = (
    await client.query<VerdictChangeRow>({
      name: "assay_changes_rows",
      text: `
        SELECT t.id, t."testCaseId" AS test_case_id, t.name, t.before, t.after,
               (t.hash_before IS NOT NULL AND t.hash_after IS NOT NULL AND t.hash_before <> t.hash_after) AS case_changed
        FROM (
          SELECT c."testCaseId",
                 min(c."position") FILTER (WHERE c."runId" = $1::uuid) AS position,
                 (array_agg(c."id" ORDER BY c."position") FILTER (WHERE c."runId" = $1::uuid))[1] AS id,
                 (array_agg(c."name" ORDER BY c."position") FILTER (WHERE c."runId" = $1::uuid))[1] AS name,
                 (array_agg(c."status"::text ORDER BY c."position") FILTER (WHERE c."runId" = $2::uuid))[1] AS before,
                 (array_agg(c."status"::text ORDER BY c."position") FILTER (WHERE c."runId" = $1::uuid))[1] AS after,
                 (array_agg(c."caseHash" ORDER BY c."position") FILTER (WHERE c."runId" = $2::uuid))[1] AS hash_before,
                 (array_agg(c."caseHash" ORDER BY c."position") FILTER (WHERE c."runId" = $1::uuid))[1] AS hash_after
          FROM "CaseResult" c
          WHERE c."runId" IN ($1::uuid, $2::uuid) AND c."workspaceId" = $3::uuid AND c."variant" = 'baseline' AND c."testCaseId" IS NOT NULL
          GROUP BY c."testCaseId"
        ) t
        WHERE (t.before = 'passed' AND t.after IN ('failed', 'error')) OR (t.before IN ('failed', 'error') AND t.after = 'passed')
        ORDER BY t.position`,
      values: [run.id, run.previous_id, ctx.workspaceId],
    })
  ).rows;
  const delta = {
    agent_changed: hashChanged(run.previous_agent_hash, run.agent_hash),
    evaluation_changed: hashChanged(run.previous_eval_hash, run.eval_hash),
  };
  const change = ({ id, test_case_id, name, before, after, case_changed }: VerdictChangeRow) => ({
    id,
    test_case_id,
    name,
    before,
    after,
    case_changed,
    cause: causeOf(case_changed, delta),
  });
  const value: RunChanges = {
    previous_run_id: run.previous_id,
    previous_run_number: run.previous_number,
    ...delta,
    regressions: rows.filter((r) => r.before === "passed").map(change),
    fixes: rows.filter((r) => r.after === "passed").map(change),
  };
  changesCache.delete(run.id);
  changesCache.set(run.id, { key, value });
  if (changesCache.size > CHANGES_CACHE_RUNS) changesCache.delete(changesCache.keys().next().value!);
  return { changes: value, runStatus: run.status };
}
