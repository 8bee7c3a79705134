/**
 * Preparing a run of a suite, shared by every way one starts: a plain run (./service.ts
 * `startRun`), a matrix's combinations (lib/matrices/service.ts) and a comparison's arms
 * (lib/comparisons/create.ts). `prepareSuiteRun` is the common start: the suite with its agent,
 * judge and metrics, the agent's readiness, a preset's values. Then the variables and the model
 * they select are resolved (`prepareRunVariables`), the snapshots built, and the selected cases
 * inserted as pending case results (`insertCaseResults`). Nothing here wakes the executor.
 */
import "server-only";
import { db, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { NotFoundError, ValidationError, type IssueList } from "@/lib/errors";
import { type WorkspaceContext } from "@/lib/auth/roles";
import { isUuid } from "@/lib/ids";
import { presetForRun } from "@/lib/presets/service";
import { variableDefinitionSchema, type VariableValue } from "@/lib/agents/schemas";
import { type StartRunOptions } from "@/lib/runs/schemas";
import { runSelect } from "@/lib/runs/dto";
import {
  resolveCaseVariables,
  resolveVariables,
  type PinnedValues,
  type ResolvedVariables,
  type TestVariablesConfig,
} from "@/lib/runs/variables";

const modelSelect = {
  id: true,
  name: true,
  baseUrl: true,
  model: true,
  embeddingModel: true,
  temperature: true,
  maxTokens: true,
  supportsVision: true,
  inputPricePerMtok: true,
  outputPricePerMtok: true,
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
      defaultTrials: true,
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

/**
 * The start every run of a suite shares (a plain run, each matrix combination): the suite as a
 * run needs it (NotFoundError when absent), its agent able to run (a ValidationError naming the
 * field to fix otherwise) and, with a preset, the preset's values, which the run's own values
 * then override. `trials`: the run's own, else the preset's, else the suite's default.
 */
export async function prepareSuiteRun(
  ctx: WorkspaceContext,
  suiteId: string,
  opts: { preset?: string | null; trials?: number | null },
): Promise<{ suite: SuiteForRun; presetValues: Record<string, VariableValue>; trials: number }> {
  const suite = await loadSuiteForRun(ctx, suiteId);
  const problem = agentRunIssue(suite.agent);
  if (problem)
    throw new ValidationError(`The suite's agent ${problem.message.slice("The agent ".length)}`, [
      { path: problem.path, message: problem.hint },
    ]);
  const preset = opts.preset ? await presetForRun(ctx, suite.id, opts.preset) : null;
  return { suite, presetValues: preset?.values ?? {}, trials: opts.trials ?? preset?.trials ?? suite.defaultTrials };
}

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

/** The agent's variable definitions (the variables model), ignoring a malformed stored list. */
export function agentVariableDefinitions(agent: Pick<AgentForRun, "variablesSchema">) {
  const definitions = variableDefinitionSchema.array().safeParse(agent.variablesSchema);
  return definitions.success ? definitions.data : [];
}

export type CaseSelection = Pick<StartRunOptions, "tags" | "tag_match" | "difficulty" | "case_ids">;

export type CaseResultInsert = {
  runId: string;
  workspaceId: string;
  suiteId: string;
  selection: CaseSelection;
  repetitions?: number;
  order?: "trial-major" | "case-major";
  variant?: "baseline" | "variant";
};

/**
 * Inserts one case result per selected case (× `repetitions`) of the suite into a run, in one
 * `INSERT … SELECT`. A case with neither initial message nor persona is inserted as skipped.
 * Returns how many rows were inserted.
 *
 * The executor claims in position order. A run's trials interleave (`trial-major`, the default):
 * position = trial × cases + case index, so trial 0 of every case runs before trial 1 of any and a
 * cancelled run has even coverage. A comparison keeps a case's repetitions together
 * (`case-major`: position = case index × repetitions + repetition), as its pairs need.
 */
export async function insertCaseResults(tx: Tx, args: CaseResultInsert): Promise<number> {
  const repetitions = args.repetitions ?? 1;
  const position = args.order === "case-major" ? Prisma.sql`s.idx * ${repetitions}::int + rep` : Prisma.sql`rep * s.n + s.idx`;
  return tx.$executeRaw`
    INSERT INTO "CaseResult" (${CASE_RESULT_COLUMNS})
    SELECT ${caseResultValuesSql(args.runId, args.variant ?? "baseline", Prisma.sql`p.position`, Prisma.sql`p.rep`)}
    FROM (
      SELECT s."id", rep::int AS rep, (${position})::int AS position
      FROM (SELECT tc."id", (row_number() OVER (ORDER BY tc."sortOrder", tc."id") - 1)::int AS idx, (count(*) OVER ())::int AS n
            FROM "TestCase" tc WHERE ${caseSelectionSql(args.workspaceId, args.suiteId, args.selection)}) s
      CROSS JOIN generate_series(0, ${repetitions - 1}::int) AS rep
    ) p
    JOIN "TestCase" tc ON tc."id" = p."id"
    ${CASE_SNAPSHOT_JOIN}`;
}

/** The columns a new case result is inserted with, in the order of `caseResultValuesSql`. */
export const CASE_RESULT_COLUMNS = Prisma.raw(
  `"id", "workspaceId", "runId", "testCaseId", "variant", "position", "repetition", "status", "caseSnapshot", "caseHash", "name", "tags", "errorMessage", "completedAt"`,
);

/**
 * A case's snapshot, joined to each row of "TestCase" tc as `j.snapshot`: the case's content
 * (authored outcome order kept) that the case result runs and is judged by. `OFFSET 0` keeps the
 * subquery from being pulled up: inlined, the object was built twice per row (for the column and
 * for its hash), a third of a run start's per-row time.
 */
export const CASE_SNAPSHOT_JOIN = Prisma.sql`CROSS JOIN LATERAL (SELECT json_build_object(
      'id', tc."id", 'name', tc."name", 'description', tc."description", 'difficulty', tc."difficulty", 'tags', to_json(tc."tags"),
      'status', tc."status", 'persona', tc."persona", 'initial_message', tc."initialMessage", 'user_context', tc."userContext",
      'max_turns', tc."maxTurns",
      -- jsonb reorders keys: rebuild a json object (json keeps order) in the authored label order.
      'expected_outcomes', (SELECT json_object_agg(o.k, o.v ORDER BY coalesce(array_position(tc."expectedOutcomeLabels", o.k), 2147483647), o.k)
                            FROM jsonb_each(CASE WHEN jsonb_typeof(tc."expectedOutcomes") = 'object' THEN tc."expectedOutcomes" END) AS o(k, v)),
      'expected_tool_calls', tc."expectedToolCalls",
      'evaluation_criteria_override', tc."evaluationCriteriaOverride", 'checks', tc."checks", 'mode', tc."mode",
      'ground_truth', tc."groundTruth", 'evaluations', tc."evaluations", 'files', tc."files") AS snapshot OFFSET 0) j`;

/**
 * The values of a new case result (CASE_RESULT_COLUMNS) for the test case tc and its snapshot j
 * (CASE_SNAPSHOT_JOIN): `skipped` when the case has neither initial message nor persona.
 */
export function caseResultValuesSql(
  runId: string,
  variant: "baseline" | "variant",
  position: Prisma.Sql,
  repetition: Prisma.Sql,
): Prisma.Sql {
  const notRunnable = Prisma.sql`tc."initialMessage" IS NULL AND tc."persona" IS NULL`;
  return Prisma.sql`gen_random_uuid(), tc."workspaceId", ${runId}::uuid, tc."id", ${variant}::"Variant", (${position})::int, (${repetition})::int,
           (CASE WHEN ${notRunnable} THEN 'skipped' ELSE 'pending' END)::"CaseResultStatus",
           j.snapshot, assay_case_hash(j.snapshot::jsonb), tc."name", coalesce(tc."tags", ARRAY[]::text[]),
           CASE WHEN ${notRunnable} THEN 'Not runnable: no initial_message and no persona' END,
           CASE WHEN ${notRunnable} THEN now() END`;
}

/** How many cases of the suite a selection takes (each becomes `trials` case results), counted up to `atMost`. */
export async function countSelectedCases(workspaceId: string, suiteId: string, selection: CaseSelection, atMost: number): Promise<number> {
  const [row] = await db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM (SELECT 1 FROM "TestCase" tc WHERE ${caseSelectionSql(workspaceId, suiteId, selection)} LIMIT ${atMost}::int) s`;
  return row?.n ?? 0;
}

/** How many cases of the suite a selection takes, as a statement (column `n`) for any connection. */
export function selectedCaseCountSql(workspaceId: string, suiteId: string, selection: CaseSelection): Prisma.Sql {
  return Prisma.sql`SELECT count(*)::int AS n FROM "TestCase" tc WHERE ${caseSelectionSql(workspaceId, suiteId, selection)}`;
}

/** After its case results are inserted: the run's totals (every result, and those inserted as skipped). */
export async function recordRunTotals(tx: Tx, runId: string, inserted: number) {
  const skipped = await tx.caseResult.count({ where: { runId, status: "skipped" } });
  return tx.run.update({ where: { id: runId }, data: { totalCases: inserted, skippedCases: skipped }, select: runSelect });
}

/**
 * Resolves a run's variables against the suite and its agent (the variables model) and the model
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

const REQUIRED_MISSING = /^Required variable ".*" has no value$/;

/**
 * The variables model per case: resolves the variables of every selected case (run > suite > the case's
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

/** Writes each case result's resolved variables (the variables model's ResolvedTestVariables) in one statement. */
export async function storeCaseVariables(tx: Tx, runId: string, perCase: Map<string, ResolvedVariables>) {
  if (perCase.size === 0) return;
  const rows = [...perCase].map(([test_case_id, resolved]) => ({ test_case_id, resolved }));
  await tx.$executeRaw`
    UPDATE "CaseResult" c SET "resolvedVariables" = x.resolved
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(test_case_id uuid, resolved jsonb)
    WHERE c."runId" = ${runId}::uuid AND c."testCaseId" = x.test_case_id`;
}

/** The variables model: the variable that selects the agent's model configuration, by name. */
export const MODEL_VARIABLE = "AIConfiguration";

/**
 * The model configuration a run uses: the one named by the `AIConfiguration` variable when it
 * resolved to a name (in the variables model, possible values are model configuration names of the
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

export type ModelForRun = {
  id: string;
  name: string;
  baseUrl: string;
  model: string;
  embeddingModel: string | null;
  temperature: number | null;
  maxTokens: number | null;
  supportsVision: boolean;
  inputPricePerMtok: number | null;
  outputPricePerMtok: number | null;
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
    /** The execution model: image files are sent to this model as image parts. */
    supports_vision: m.supportsVision,
    /** USD per million tokens, as they were at run start: a run's cost never changes with a later price edit. */
    input_price_per_mtok: m.inputPricePerMtok,
    output_price_per_mtok: m.outputPricePerMtok,
  };
}

/** The WHERE of a selection over "TestCase" tc: the suite's live cases, active (or the chosen ones), tags and difficulty. */
export function caseSelectionSql(workspaceId: string, suiteId: string, opts: CaseSelection) {
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
