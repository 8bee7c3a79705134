/**
 * Comparisons, from the caller's side (issue 8, spec 003): create one (run both arms on the
 * suite's cases, or pair two completed runs), read, list, list pairs, cancel, export the A/B engine's
 * session document (JSON) or CSV, and import such a document back. The executor runs the arms
 * (lib/runs/executor.ts, `claimPairs`/`runPair`); ./engine.ts records pairs and finishes the
 * comparison. Every query is scoped by `workspaceId`; ./README.md maps the whole feature.
 */
import "server-only";
import { randomInt } from "node:crypto";
import { stringify } from "csv-stringify/sync";
import { db, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { ConflictError, NotFoundError, ValidationError, zodIssues, type IssueList } from "@/lib/errors";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import { isUuid } from "@/lib/ids";
import { decodeCursor, encodeCursor, newestFirst } from "@/lib/serialize";
import type { VariableValue } from "@/lib/agents/schemas";
import { resolveVariables, type PinnedValues } from "@/lib/runs/variables";
import {
  agentRunIssue,
  agentSnapshotOf,
  agentVariableDefinitions,
  evalSnapshotOf,
  insertCaseResults,
  loadAgentForRun,
  loadModelConfigForRun,
  loadSuiteForRun,
  MODEL_VARIABLE,
  modelForVariables,
  noCasesError,
  resolveSelectedCases,
  storeCaseVariables,
  type AgentForRun,
  type SuiteForRun,
} from "@/lib/runs/service";
import { notifyRunQueued } from "@/lib/runs/wakeup";
import { escapeCsvCell } from "@/lib/runs/report-escape";
import { runLabel } from "@/lib/runs/dto";
import { maskUrl } from "@/lib/url-secrets";
import { emptyStats } from "@/lib/llm/stats";
import { ASSAY_VERSION } from "@/lib/version";
import { withWorkspaceScope } from "@/lib/tenant-scope";
import { textStream } from "@/lib/api/stream";
import { z } from "zod";
import { finishArmRuns } from "./engine";
import { armOrder, armRole } from "./ordering";
import { armStatsFromExecutions, armStatsFromResults, pairsOfRuns, summaryOf, writePairs, type PairRecord } from "./pairs";
import {
  compareRunsInput,
  executeComparisonInput,
  sessionDocument,
  type ArmInput,
  type CompareRunsInput,
  type ExecuteComparisonInput,
  type PairListQuery,
} from "./schemas";
import {
  comparisonSelect,
  pairSelect,
  toComparisonDto,
  toPairDto,
  type ArmExecutedDto,
  type ComparisonDto,
  type ComparisonRow,
  type ComparisonSummaryDto,
  type PairRow,
  type StoredExecution,
} from "./dto";
import { tokensPerMs, totalTokens } from "./diffs";

/** Arm fields that make two arms different (the label does not). */
const ARM_FIELDS = ["agent_id", "model_config_id", "system_prompt", "temperature", "max_tokens", "variables"] as const;

/**
 * POST /api/v1/suites/{id}/comparisons. With `baseline_run_id`/`variant_run_id`: pairs two
 * completed runs of the suite and completes at once. Otherwise: validates both arms, snapshots
 * each as a pending arm run (same judge configuration for both), creates every pair up front
 * with the order it will run in, and wakes the executor.
 */
export async function createComparison(ctx: WorkspaceContext, suiteId: string, raw: unknown): Promise<ComparisonDto> {
  requireRole(ctx, "editor");
  const body = raw ?? {};
  const isRuns = typeof body === "object" && body !== null && ("baseline_run_id" in body || "variant_run_id" in body);
  if (isRuns) {
    const parsed = compareRunsInput.safeParse(body);
    if (!parsed.success) throw new ValidationError("Invalid comparison", zodIssues(parsed.error));
    return compareRuns(ctx, suiteId, parsed.data);
  }
  const parsed = executeComparisonInput.safeParse(body);
  if (!parsed.success) throw new ValidationError("Invalid comparison", zodIssues(parsed.error));
  return executeComparison(ctx, suiteId, parsed.data);
}

type ResolvedArm = {
  input: ArmInput;
  label: string;
  agentSnapshot: ReturnType<typeof agentSnapshotOf> & Record<string, unknown>;
  resolvedVariables: ReturnType<typeof resolveVariables>["resolved"];
  /** The variables the arm's explicit settings fix (they win over every other source, in every case). */
  pinned: PinnedValues;
  definitions: ReturnType<typeof agentVariableDefinitions>;
  resolved: {
    agent_id: string;
    agent_name: string;
    kind: string;
    model: string | null;
    base_url: string | null;
    model_config_id: string | null;
  };
};

function sameValue(a: unknown, b: unknown): boolean {
  const norm = (v: unknown) => (v === undefined || v === null ? null : v);
  const x = norm(a);
  const y = norm(b);
  if (typeof x === "object" && x !== null && typeof y === "object" && y !== null) {
    const xo = x as Record<string, unknown>;
    const yo = y as Record<string, unknown>;
    const keys = new Set([...Object.keys(xo), ...Object.keys(yo)]);
    return [...keys].every((k) => sameValue(xo[k], yo[k]));
  }
  // An empty variables object is the same as none.
  return x === y;
}

/** The variables each explicit arm setting corresponds to (spec 004's agent evaluation set, either spelling). */
const SETTING_VARIABLES = {
  model_config_id: [MODEL_VARIABLE],
  temperature: ["Temperature", "temperature"],
  max_tokens: ["MaxTokens", "max_tokens"],
} as const;

/**
 * An arm's explicit settings win over every variable source (suite values, the case's defaults
 * and locks, the type's default): the variables they correspond to are pinned to them, so each
 * case runs — and records — what the arm asked for. The arm may also set such a variable
 * itself, but only to the same value: a contradiction is refused, naming both.
 */
function explicitSettings(
  input: ArmInput,
  model: { id: string; name: string } | null,
  role: "baseline" | "variant",
): { pinned: PinnedValues; issues: IssueList } {
  const values: Record<keyof typeof SETTING_VARIABLES, VariableValue | null> = {
    model_config_id: model?.name ?? null,
    temperature: input.temperature ?? null,
    max_tokens: input.max_tokens ?? null,
  };
  const pinned: PinnedValues = {};
  const issues: IssueList = [];
  for (const [setting, names] of Object.entries(SETTING_VARIABLES) as [keyof typeof SETTING_VARIABLES, readonly string[]][]) {
    const value = values[setting];
    if (value === null) continue;
    for (const name of names) {
      pinned[name] = value;
      const own = input.variables?.[name];
      if (own === undefined || own === value) continue;
      const shown = setting === "model_config_id" ? `model configuration ${JSON.stringify(value)}` : `${setting} ${JSON.stringify(value)}`;
      issues.push({
        path: `${role}.variables.${name}`,
        message: `${name} = ${JSON.stringify(own)} contradicts this arm's ${shown}: set one of them, or both to the same value`,
      });
    }
  }
  return { pinned, issues };
}

async function resolveArm(
  ctx: WorkspaceContext,
  suite: SuiteForRun,
  input: ArmInput,
  role: "baseline" | "variant",
  retry: ExecuteComparisonInput["retry"],
): Promise<{ arm?: ResolvedArm; issues: IssueList }> {
  const issues: IssueList = [];
  let agent: AgentForRun = suite.agent;
  if (input.agent_id) {
    const other = await loadAgentForRun(ctx, input.agent_id);
    if (!other) return { issues: [{ path: `${role}.agent_id`, message: "No agent with this id in the workspace" }] };
    agent = other;
  }
  let model = agent.modelConfig;
  if (input.model_config_id) {
    const m = await loadModelConfigForRun(ctx, input.model_config_id);
    if (!m) return { issues: [{ path: `${role}.model_config_id`, message: "No model configuration with this id in the workspace" }] };
    model = m;
  }
  if (agent.kind === "http") {
    for (const field of ["model_config_id", "system_prompt", "temperature", "max_tokens"] as const) {
      if (input[field] !== undefined && input[field] !== null) {
        issues.push({ path: `${role}.${field}`, message: `${field} applies only to chat agents; "${agent.name}" is an HTTP agent` });
      }
    }
  }
  const explicit = explicitSettings(input, input.model_config_id ? model : null, role);
  issues.push(...explicit.issues);
  const { resolved, issues: variableIssues } = resolveVariables(
    agentVariableDefinitions(agent),
    (suite.variables ?? {}) as Record<string, VariableValue>,
    (input.variables ?? {}) as Record<string, VariableValue>,
    explicit.pinned,
  );
  // A required variable may get its value from a case's own default: checked per case when the arm is created.
  issues.push(
    ...variableIssues
      .filter((i) => !/^Required variable ".*" has no value$/.test(i.message))
      .map((i) => ({ ...i, path: `${role}.${i.path}` })),
  );
  if (!input.model_config_id && !variableIssues.length) {
    // Spec 004: an AIConfiguration variable picks the model configuration by name.
    try {
      model = await modelForVariables(ctx, { ...agent, modelConfig: model }, resolved.values, `${role}.variables`);
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      issues.push(...err.issues);
    }
  }
  const problem = agentRunIssue({ ...agent, modelConfig: model }, `${role}.agent`);
  if (problem) issues.push({ path: problem.path, message: `${problem.message.replace("The agent", `"${agent.name}"`)}: ${problem.hint}` });
  if (issues.length) return { issues };
  const snapshot = agentSnapshotOf(agent, model);
  return {
    issues,
    arm: {
      input,
      label: input.label ?? (role === "baseline" ? "Baseline" : "Variant"),
      agentSnapshot: {
        ...snapshot,
        system_prompt: input.system_prompt ?? snapshot.system_prompt,
        overrides: {
          temperature: input.temperature ?? null,
          max_tokens: input.max_tokens ?? null,
          model_config_id: input.model_config_id ? (model?.id ?? null) : null,
        },
        retry_policy: retry,
      },
      resolvedVariables: resolved,
      pinned: explicit.pinned,
      definitions: agentVariableDefinitions(agent),
      resolved: {
        agent_id: agent.id,
        agent_name: agent.name,
        kind: agent.kind,
        model: agent.kind === "chat" ? (model?.model ?? null) : null,
        base_url: agent.kind === "chat" ? (model ? maskUrl(model.baseUrl) : null) : agent.httpUrl ? maskUrl(agent.httpUrl) : null,
        model_config_id: agent.kind === "chat" ? (model?.id ?? null) : null,
      },
    },
  };
}

async function executeComparison(ctx: WorkspaceContext, suiteId: string, input: ExecuteComparisonInput): Promise<ComparisonDto> {
  const suite = await loadSuiteForRun(ctx, suiteId);
  const differs = ARM_FIELDS.some((f) => !sameValue(input.baseline[f], input.variant[f]));
  if (!differs) {
    throw new ValidationError("The two arms are identical", [
      { path: "variant", message: `The variant must differ from the baseline in at least one of ${ARM_FIELDS.join(", ")}` },
    ]);
  }
  const [b, v] = await Promise.all([
    resolveArm(ctx, suite, input.baseline, "baseline", input.retry),
    resolveArm(ctx, suite, input.variant, "variant", input.retry),
  ]);
  const issues = [...b.issues, ...v.issues];
  if (issues.length || !b.arm || !v.arm) throw new ValidationError("The arms cannot run", issues);
  const arms = [b.arm, v.arm];
  const selection = { tags: input.tags, tag_match: input.tag_match, difficulty: input.difficulty, case_ids: input.case_ids };
  // Spec 004 per case, for each arm: refused before anything is created when a case does not resolve.
  const perCase = await Promise.all(
    arms.map((arm, i) =>
      resolveSelectedCases(
        ctx.workspaceId,
        suite.id,
        selection,
        arm.definitions,
        (suite.variables ?? {}) as Record<string, VariableValue>,
        (arm.input.variables ?? {}) as Record<string, VariableValue>,
        arm.pinned,
      ).catch((err: unknown) => {
        if (err instanceof ValidationError) {
          throw new ValidationError(
            err.message,
            err.issues.map((issue) => ({ ...issue, path: `${armRole(i)}.${issue.path}` })),
          );
        }
        throw err;
      }),
    ),
  );
  const seed = input.seed ?? randomInt(0, 2 ** 31 - 1);
  const evalSnapshot = evalSnapshotOf(suite);
  const environment = {
    assay_version: ASSAY_VERSION,
    node_version: process.version,
    platform: `${process.platform}-${process.arch}`,
    arms: arms.map((a, i) => ({ role: armRole(i), label: a.label, ...a.resolved })),
    judge_model: evalSnapshot.judge_model_config?.model ?? null,
  };
  const defaultName = `${arms[0]!.label} vs ${arms[1]!.label}`;

  const id = await db.$transaction(
    async (tx) => {
      const comparison = await tx.comparison.create({
        data: {
          workspaceId: ctx.workspaceId,
          suiteId: suite.id,
          name: input.name ?? defaultName,
          notes: input.notes ?? "",
          source: "executed",
          ordering: input.ordering,
          seed,
          resetWindowMs: input.reset_window_ms,
          repetitions: input.repetitions,
          concurrency: input.concurrency,
          retryPolicy: input.retry,
          options: selection,
          environment: environment as Prisma.InputJsonValue,
          createdByUserId: ctx.userId,
          createdByKeyId: ctx.apiKeyId,
        },
        select: { id: true },
      });
      let total = 0;
      for (const [index, arm] of arms.entries()) {
        const run = await tx.run.create({
          data: {
            workspaceId: ctx.workspaceId,
            suiteId: suite.id,
            triggeredBy: ctx.apiKeyId ? "api" : "manual",
            triggeredByUserId: ctx.userId,
            triggeredByKeyId: ctx.apiKeyId,
            options: { ...selection, concurrency: input.concurrency, comparison: { id: comparison.id, arm: armRole(index) } },
            concurrency: input.concurrency,
            metadata: input.metadata,
            resolvedVariables: arm.resolvedVariables,
            agentSnapshot: arm.agentSnapshot as Prisma.InputJsonValue,
            evalSnapshot: evalSnapshot as Prisma.InputJsonValue,
            comparisonId: comparison.id,
            armIndex: index,
          },
          select: { id: true },
        });
        const inserted = await insertCaseResults(tx, {
          runId: run.id,
          workspaceId: ctx.workspaceId,
          suiteId: suite.id,
          selection,
          repetitions: input.repetitions,
          variant: index === 0 ? "baseline" : "variant",
        });
        if (inserted === 0) throw noCasesError(selection);
        await storeCaseVariables(tx, run.id, perCase[index]!);
        total = inserted;
        const skipped = await tx.caseResult.count({ where: { runId: run.id, status: "skipped" } });
        await tx.run.update({ where: { id: run.id }, data: { totalCases: inserted, skippedCases: skipped } });
        await tx.comparisonArm.create({
          data: {
            workspaceId: ctx.workspaceId,
            comparisonId: comparison.id,
            index,
            role: armRole(index),
            label: arm.label,
            config: arm.input as Prisma.InputJsonValue,
            resolved: arm.resolved,
            runId: run.id,
          },
        });
      }
      // Every pair exists from the start, with the order it will run in (randomized: drawn from the seed).
      const [firstArm] = await tx.comparisonArm.findMany({ where: { comparisonId: comparison.id, index: 0 }, select: { runId: true } });
      const orders = Array.from({ length: total }, (_, i) => armOrder(input.ordering, seed, i).map(armRole));
      await tx.$executeRaw`
        INSERT INTO "ComparisonPair" ("id", "workspaceId", "comparisonId", "index", "testCaseId", "testCaseName", "question", "repetition", "order",
          "executions", "metadata")
        SELECT gen_random_uuid(), c."workspaceId", ${comparison.id}::uuid, c."position", c."testCaseId", c."name",
               coalesce(c."caseSnapshot"->>'initial_message', c."caseSnapshot"->'persona'->>'description', c."name"), c."repetition",
               ARRAY(SELECT jsonb_array_elements_text((${JSON.stringify(orders)}::jsonb)->c."position")), '[null, null]'::jsonb,
               jsonb_build_object('tags', to_jsonb(c."tags")) || CASE WHEN c."caseSnapshot"->>'difficulty' IS NULL THEN '{}'::jsonb
                 ELSE jsonb_build_object('difficulty', c."caseSnapshot"->>'difficulty') END
        FROM "CaseResult" c WHERE c."runId" = ${firstArm!.runId}::uuid`;
      await tx.comparison.update({ where: { id: comparison.id }, data: { totalPairs: total } });
      return comparison.id;
    },
    { timeout: 60_000 },
  );
  notifyRunQueued(id);
  return getComparisonUnchecked(ctx, id);
}

async function compareRuns(ctx: WorkspaceContext, suiteId: string, input: CompareRunsInput): Promise<ComparisonDto> {
  if (!isUuid(suiteId)) throw new NotFoundError("Suite");
  const suite = await db.suite.findFirst({ where: { id: suiteId, workspaceId: ctx.workspaceId, deletedAt: null }, select: { id: true } });
  if (!suite) throw new NotFoundError("Suite");
  if (input.baseline_run_id === input.variant_run_id) {
    throw new ValidationError("Pick two different runs", [
      { path: "variant_run_id", message: "The variant run must differ from the baseline run" },
    ]);
  }
  const runs = await db.run.findMany({
    where: { id: { in: [input.baseline_run_id, input.variant_run_id] }, workspaceId: ctx.workspaceId },
    select: {
      id: true,
      suiteId: true,
      number: true,
      status: true,
      agentSnapshot: true,
      createdAt: true,
      startedAt: true,
      completedAt: true,
    },
  });
  const issues: IssueList = [];
  const checkRun = (id: string, path: string) => {
    const run = runs.find((r) => r.id === id);
    if (!run) issues.push({ path, message: "No run with this id in the workspace" });
    else if (run.suiteId !== suite.id) issues.push({ path, message: "This run belongs to another suite" });
    else if (run.status !== "completed") issues.push({ path, message: `This run is ${run.status}; only completed runs can be compared` });
    return run;
  };
  const baseline = checkRun(input.baseline_run_id, "baseline_run_id");
  const variant = checkRun(input.variant_run_id, "variant_run_id");
  if (issues.length || !baseline || !variant) throw new ValidationError("These runs cannot be compared", issues);

  const id = await db.$transaction(
    async (tx) => {
      const { pairs, rows } = await pairsOfRuns(tx, baseline.id, variant.id);
      if (pairs.length === 0) {
        throw new ValidationError("The runs have no test case in common", [
          { path: "variant_run_id", message: "The two runs share no test case" },
        ]);
      }
      const describe = (run: typeof baseline, index: number) => {
        const snap = (run.agentSnapshot ?? {}) as {
          id?: string;
          name?: string;
          kind?: string;
          model_config?: { model?: string; base_url?: string; id?: string } | null;
        };
        return {
          agent_id: snap.id ?? null,
          agent_name: snap.name ?? null,
          kind: snap.kind ?? "chat",
          model: snap.model_config?.model ?? null,
          base_url: snap.model_config?.base_url ? maskUrl(snap.model_config.base_url) : null,
          model_config_id: snap.model_config?.id ?? null,
          run_id: run.id,
          role: armRole(index),
        };
      };
      const armsResolved = [describe(baseline, 0), describe(variant, 1)];
      const started = [baseline.startedAt ?? baseline.createdAt, variant.startedAt ?? variant.createdAt].sort(
        (a, b) => a.getTime() - b.getTime(),
      )[0]!;
      const ended = [baseline.completedAt, variant.completedAt]
        .filter((d): d is Date => d !== null)
        .sort((a, b) => b.getTime() - a.getTime())[0];
      const summary = summaryOf(pairs, [armStatsFromResults(rows, baseline.id), armStatsFromResults(rows, variant.id)]);
      const comparison = await tx.comparison.create({
        data: {
          workspaceId: ctx.workspaceId,
          suiteId: suite.id,
          name: input.name ?? `Run ${runLabel(baseline)} vs run ${runLabel(variant)}`,
          notes: input.notes ?? "",
          source: "runs",
          status: "completed",
          repetitions: 1,
          environment: { assay_version: ASSAY_VERSION, node_version: process.version, arms: armsResolved } as Prisma.InputJsonValue,
          totalPairs: pairs.length,
          completedPairs: pairs.length,
          createdByUserId: ctx.userId,
          createdByKeyId: ctx.apiKeyId,
          startedAt: started,
          completedAt: ended ?? new Date(),
        },
        select: { id: true },
      });
      for (const [index, run] of [baseline, variant].entries()) {
        await tx.comparisonArm.create({
          data: {
            workspaceId: ctx.workspaceId,
            comparisonId: comparison.id,
            index,
            role: armRole(index),
            label: index === 0 ? "Baseline" : "Variant",
            config: {},
            resolved: armsResolved[index]!,
            runId: run.id,
          },
        });
      }
      await writePairs(tx, comparison.id, ctx.workspaceId, pairs);
      await storeSummary(tx, comparison.id, summary);
      return comparison.id;
    },
    { timeout: 60_000 },
  );
  return getComparisonUnchecked(ctx, id);
}

/**
 * Stores a summary as JSON text cast in SQL, as the engine does: Prisma's Json parameter
 * serialisation rounds some doubles to 16 digits, and an export re-imported must give a
 * summary identical to the bit.
 */
async function storeSummary(tx: Pick<Tx, "$executeRaw">, id: string, summary: ComparisonSummaryDto) {
  await tx.$executeRaw`UPDATE "Comparison" SET "summary" = ${JSON.stringify(summary)}::jsonb WHERE "id" = ${id}::uuid`;
}

async function getComparisonUnchecked(ctx: WorkspaceContext, id: string): Promise<ComparisonDto> {
  if (!isUuid(id)) throw new NotFoundError("Comparison");
  const row = await db.comparison.findFirst({ where: { id, workspaceId: ctx.workspaceId }, select: comparisonSelect });
  if (!row) throw new NotFoundError("Comparison");
  return toComparisonDto(row, await executedByRun(ctx, [row]));
}

/**
 * What the arms' agent calls named, per arm run: one grouped read of the recorded calls (the
 * requests as sent), so the configuration card shows what ran even when it is not what was asked.
 */
async function executedByRun(ctx: WorkspaceContext, rows: ComparisonRow[]): Promise<Map<string, ArmExecutedDto>> {
  const runIds = rows.flatMap((r) => r.arms.flatMap((a) => (a.runId ? [a.runId] : [])));
  const out = new Map<string, ArmExecutedDto>();
  if (runIds.length === 0) return out;
  const groups = await db.$queryRaw<
    { runId: string; model: string | null; temperature: number | null; max_tokens: number | null; calls: number }[]
  >`
    SELECT l."runId", l."model",
           CASE WHEN jsonb_typeof(l."request"->'temperature') = 'number' THEN (l."request"->>'temperature')::float8 END AS temperature,
           CASE WHEN jsonb_typeof(l."request"->'max_tokens') = 'number' THEN (l."request"->>'max_tokens')::float8 END AS max_tokens,
           count(*)::int AS calls
    FROM "LlmCall" l
    WHERE l."runId" = ANY(${runIds}::uuid[]) AND l."workspaceId" = ${ctx.workspaceId}::uuid AND l."purpose" = 'agent'
    GROUP BY 1, 2, 3, 4
    ORDER BY calls DESC, l."model"`;
  for (const g of groups) {
    const arm = out.get(g.runId) ?? { agent_calls: 0, models: [] };
    arm.agent_calls += g.calls;
    arm.models.push({ model: g.model, temperature: g.temperature, max_tokens: g.max_tokens, calls: g.calls });
    out.set(g.runId, arm);
  }
  return out;
}

/** GET /api/v1/comparisons/{id}. */
export async function getComparison(ctx: WorkspaceContext, id: string): Promise<ComparisonDto> {
  requireRole(ctx, "viewer");
  return getComparisonUnchecked(ctx, id);
}

/** GET /api/v1/suites/{id}/comparisons: newest first. */
export async function listComparisons(ctx: WorkspaceContext, suiteId: string, q: { cursor?: string; limit: number }) {
  requireRole(ctx, "viewer");
  if (!isUuid(suiteId)) throw new NotFoundError("Suite");
  const suite = await db.suite.findFirst({ where: { id: suiteId, workspaceId: ctx.workspaceId }, select: { id: true } });
  if (!suite) throw new NotFoundError("Suite");
  const rows = await db.comparison.findMany({
    where: { workspaceId: ctx.workspaceId, suiteId, ...newestFirst.where(q.cursor) },
    orderBy: newestFirst.orderBy,
    take: q.limit + 1,
    select: comparisonSelect,
  });
  const { page, next_cursor } = newestFirst.page(rows, q.limit);
  const executed = await executedByRun(ctx, page);
  return { data: page.map((row) => toComparisonDto(row, executed)), next_cursor };
}

const SORT_COLUMNS = {
  index: "index",
  latency_diff_ms: "latencyDiffMs",
  token_overhead: "tokenOverhead",
  token_overhead_pct: "tokenOverheadPct",
  latency_improvement_pct: "latencyImprovementPct",
  response_length_ratio: "responseLengthRatio",
} as const;

const pairCursor = z.object({ o: z.number().int().min(0).max(10_000_000) });

/**
 * GET /api/v1/comparisons/{id}/pairs: filter by verdict change, sort by a diff (pairs not
 * finished yet last, ties by index) and page with an opaque cursor.
 */
export async function listPairs(ctx: WorkspaceContext, id: string, q: PairListQuery) {
  requireRole(ctx, "viewer");
  await getComparisonUnchecked(ctx, id);
  const desc = q.sort.startsWith("-");
  const column = SORT_COLUMNS[q.sort.replace(/^-/, "") as keyof typeof SORT_COLUMNS];
  const offset = decodeCursor(q.cursor, pairCursor)?.o ?? 0;
  const rows = await db.comparisonPair.findMany({
    where: { comparisonId: id, workspaceId: ctx.workspaceId, ...(q.verdict_change ? { verdictChange: q.verdict_change } : {}) },
    orderBy:
      column === "index"
        ? [{ index: "asc" }]
        : [{ [column]: { sort: desc ? "desc" : "asc", nulls: "last" } } as Prisma.ComparisonPairOrderByWithRelationInput, { index: "asc" }],
    skip: offset,
    take: q.limit + 1,
    select: pairSelect,
  });
  const page = rows.slice(0, q.limit);
  return { data: page.map(toPairDto), next_cursor: rows.length > q.limit ? encodeCursor({ o: offset + q.limit }) : null };
}

/** One pair by index (the pair view). */
export async function getPair(ctx: WorkspaceContext, id: string, index: number) {
  requireRole(ctx, "viewer");
  await getComparisonUnchecked(ctx, id);
  const row = await db.comparisonPair.findFirst({ where: { comparisonId: id, workspaceId: ctx.workspaceId, index }, select: pairSelect });
  if (!row) throw new NotFoundError("Pair");
  return toPairDto(row);
}

/** The finished pairs' numbers the comparison page charts (at most 5,000, in index order). */
export async function comparisonChartData(ctx: WorkspaceContext, id: string) {
  requireRole(ctx, "viewer");
  await getComparisonUnchecked(ctx, id);
  const rows = await db.$queryRaw<
    {
      index: number;
      test_case_name: string;
      repetition: number;
      baseline_latency_ms: number | null;
      variant_latency_ms: number | null;
      latency_diff_ms: number | null;
      token_overhead: number | null;
      verdict_change: string | null;
      both_successful: boolean | null;
    }[]
  >`
    SELECT "index", "testCaseName" AS test_case_name, "repetition",
           ("executions"->0->>'latency_ms')::float8 AS baseline_latency_ms, ("executions"->1->>'latency_ms')::float8 AS variant_latency_ms,
           "latencyDiffMs" AS latency_diff_ms, "tokenOverhead" AS token_overhead, "verdictChange" AS verdict_change, "bothSuccessful" AS both_successful
    FROM "ComparisonPair" WHERE "comparisonId" = ${id}::uuid AND "workspaceId" = ${ctx.workspaceId}::uuid AND "completedAt" IS NOT NULL
    ORDER BY "index" LIMIT 5000`;
  return { pairs: rows };
}

/**
 * POST /api/v1/comparisons/{id}/cancel: no new pair starts; pairs in flight are aborted
 * (their unfinished arms end skipped or cancelled) and the comparison ends `cancelled`.
 */
export async function cancelComparison(ctx: WorkspaceContext, id: string): Promise<ComparisonDto> {
  requireRole(ctx, "editor");
  if (!isUuid(id)) throw new NotFoundError("Comparison");
  await db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ status: string }[]>`
      SELECT "status"::text AS status FROM "Comparison" WHERE "id" = ${id}::uuid AND "workspaceId" = ${ctx.workspaceId}::uuid FOR UPDATE`;
    if (!locked) throw new NotFoundError("Comparison");
    if (!["pending", "running"].includes(locked.status)) throw new ConflictError(`The comparison is already ${locked.status}`);
    await tx.comparison.update({ where: { id }, data: { cancelRequestedAt: new Date() } });
    await tx.$executeRaw`
      UPDATE "Run" SET "cancelRequestedAt" = coalesce("cancelRequestedAt", now())
      WHERE "comparisonId" = ${id}::uuid AND "status" IN ('pending', 'running')`;
    await tx.$executeRaw`
      UPDATE "CaseResult" c SET "status" = 'skipped', "errorMessage" = 'Comparison cancelled before this case started', "completedAt" = now()
      FROM "Run" r WHERE r."id" = c."runId" AND r."comparisonId" = ${id}::uuid AND c."status" = 'pending'`;
  });
  // Arm runs with nothing in flight end now; the others when their last case returns.
  await finishArmRuns(id);
  return getComparisonUnchecked(ctx, id);
}

/**
 * An execution as the A/B engine's AgentResponse.to_dict() writes it, plus Assay's fields. The A/B engine's
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

/** Marks where the results array goes in the session document's envelope. */
const RESULTS_SLOT = "\u0000results\u0000";

/**
 * The session document, pretty-printed exactly as `JSON.stringify(document, null, 2)` would:
 * the envelope around a placeholder, then each pair's result as an array item, page by page.
 */
async function* comparisonJson(c: ComparisonDto, pages: AsyncIterable<PairRow[]>) {
  const sessionId = c.session_id ?? c.id;
  const modelOf = (arm: ComparisonDto["baseline"]) => arm?.resolved.model ?? arm?.resolved.agent_name ?? arm?.label ?? "";
  const envelope = JSON.stringify(
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
      results: RESULTS_SLOT,
    },
    null,
    2,
  );
  const slot = `"results": ${JSON.stringify(RESULTS_SLOT)}`;
  const at = envelope.indexOf(slot);
  yield `${envelope.slice(0, at)}"results": [`;
  let written = 0;
  for await (const pairs of pages) {
    let chunk = "";
    for (const p of pairs) {
      const d = toPairDto(p);
      const executions = (Array.isArray(p.executions) ? p.executions : []) as (StoredExecution | null)[];
      const timestamp = executions[0]?.timestamp ?? executions[1]?.timestamp ?? d.completed_at;
      const variant = sessionResponse(executions[1] ?? null, timestamp);
      const result = {
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
      // An array item two levels deep: "\n    " before it, every line of it indented by four spaces.
      chunk += `${written++ > 0 ? "," : ""}\n    ${JSON.stringify(result, null, 2).replace(/\n/g, "\n    ")}`;
    }
    yield chunk;
  }
  yield `${written > 0 ? "\n  ]" : "]"}${envelope.slice(at + slot.length)}`;
}

/**
 * GET /api/v1/comparisons/{id}/report: `json` is spec 003's session document (`TestSession.to_dict()`
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

/**
 * POST /api/v1/suites/{id}/comparisons/import: spec 003's `load_session` — a session document
 * (the A/B engine's own, with `docstratum`, or Assay's export) becomes a read-only comparison whose
 * pairs and statistics are derived exactly as for an executed one. Plain spec documents carry no
 * verdicts: an execution without `status` counts as `passed` when it has no error, else `error`.
 */
export async function importComparison(ctx: WorkspaceContext, suiteId: string, raw: unknown): Promise<ComparisonDto> {
  requireRole(ctx, "editor");
  if (!isUuid(suiteId)) throw new NotFoundError("Suite");
  const suite = await db.suite.findFirst({ where: { id: suiteId, workspaceId: ctx.workspaceId, deletedAt: null }, select: { id: true } });
  if (!suite) throw new NotFoundError("Suite");
  const parsed = sessionDocument.safeParse(raw);
  if (!parsed.success) throw new ValidationError("Invalid session document", zodIssues(parsed.error));
  const doc = parsed.data;
  const validIds = new Set(
    (
      await db.testCase.findMany({
        where: {
          workspaceId: ctx.workspaceId,
          suiteId,
          id: { in: doc.results.map((r) => r.test_case_id).filter((x): x is string => typeof x === "string" && isUuid(x)) },
        },
        select: { id: true },
      })
    ).map((t) => t.id),
  );
  const toExecution = (r: NonNullable<(typeof doc.results)[number]["baseline"]>): StoredExecution => {
    const error = r.error ?? null;
    return {
      // Case results of another comparison are not linked: the import stands on its own.
      case_result_id: null,
      response: r.response,
      prompt_tokens: r.prompt_tokens,
      completion_tokens: r.completion_tokens,
      latency_ms: r.latency_ms,
      turn_latencies_ms: [],
      model: r.model,
      timestamp: r.timestamp ?? null,
      error,
      evaluation_error: r.evaluation_error ?? null,
      retry_count: r.retry_count,
      status: r.status ?? (error ? "error" : "passed"),
    };
  };
  const pairs: PairRecord[] = doc.results.map((r, index) => ({
    index,
    testCaseId: r.test_case_id && validIds.has(r.test_case_id) ? r.test_case_id : null,
    testCaseName: r.test_case_name ?? r.question.slice(0, 255),
    question: r.question,
    repetition: r.repetition,
    order: r.order ?? ["baseline", "variant"],
    executions: [toExecution(r.baseline), toExecution((r.variant ?? r.docstratum)!)],
    metadata: r.metadata,
    contextTokens: r.context_tokens,
  }));
  // Assay's own export carries the engine's ExecutionStats; a plain spec document only has its executions.
  const exported = doc.execution_stats;
  const summary = summaryOf(pairs, [
    exported ? { ...emptyStats(), ...exported.baseline } : armStatsFromExecutions(pairs.map((p) => p.executions[0]!)),
    exported ? { ...emptyStats(), ...exported.variant } : armStatsFromExecutions(pairs.map((p) => p.executions[1]!)),
  ]);
  const date = (s: string | null | undefined) => {
    const d = s ? new Date(s) : null;
    return d && !Number.isNaN(d.getTime()) ? d : null;
  };
  const variantModel = doc.variant_model ?? doc.docstratum_model ?? "variant";
  const id = await db.$transaction(
    async (tx) => {
      const comparison = await tx.comparison.create({
        data: {
          workspaceId: ctx.workspaceId,
          suiteId,
          name: doc.name ?? `Imported session ${doc.session_id}`.slice(0, 255),
          notes: doc.notes,
          source: "imported",
          status: "completed",
          sessionId: doc.session_id,
          llmsSourcePath: doc.llms_source_path || null,
          environment: doc.environment as Prisma.InputJsonValue,
          totalPairs: pairs.length,
          completedPairs: pairs.length,
          createdByUserId: ctx.userId,
          createdByKeyId: ctx.apiKeyId,
          startedAt: date(doc.start_time),
          completedAt: date(doc.end_time) ?? new Date(),
        },
        select: { id: true },
      });
      for (const [index, model] of [doc.baseline_model, variantModel].entries()) {
        await tx.comparisonArm.create({
          data: {
            workspaceId: ctx.workspaceId,
            comparisonId: comparison.id,
            index,
            role: armRole(index),
            label: model || (index === 0 ? "Baseline" : "Variant"),
            config: {},
            resolved: { model },
          },
        });
      }
      await writePairs(tx, comparison.id, ctx.workspaceId, pairs);
      await storeSummary(tx, comparison.id, summary);
      return comparison.id;
    },
    { timeout: 60_000 },
  );
  return getComparisonUnchecked(ctx, id);
}
