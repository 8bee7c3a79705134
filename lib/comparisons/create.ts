/**
 * Creating a comparison: run two arms on a suite's cases (each arm resolved and snapshotted as a
 * pending arm run, every pair created up front with the order it will run in), or pair two
 * completed runs of the suite. The executor then runs the arms (lib/runs/claims.ts `claimPairs`,
 * lib/runs/pair-runner.ts); ./engine.ts records pairs and finishes the comparison.
 */
import "server-only";
import { randomInt } from "node:crypto";
import { db, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { ValidationError, zodIssues, type IssueList } from "@/lib/errors";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import { requireLiveSuite } from "@/lib/test-cases/suite-guards";
import type { VariableValue } from "@/lib/agents/schemas";
import { resolveVariables, type PinnedValues } from "@/lib/runs/variables";
import {
  agentRunIssue,
  agentSnapshotOf,
  agentVariableDefinitions,
  evalSnapshotOf,
  insertCaseResults,
  recordRunTotals,
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
} from "@/lib/runs/prepare";
import { notifyRunQueued } from "@/lib/runs/wakeup";
import { runLabel } from "@/lib/runs/dto";
import { maskUrl } from "@/lib/url-secrets";
import { ASSAY_VERSION } from "@/lib/version";
import { armOrder, armRole } from "./ordering";
import { armStatsFromResults, pairsOfRuns, summaryOf, writePairs } from "./pairs";
import { compareRunsInput, executeComparisonInput, type ArmInput, type CompareRunsInput, type ExecuteComparisonInput } from "./schemas";
import { type ComparisonDto, type ComparisonSummaryDto } from "./dto";
import { getComparisonUnchecked } from "./read";

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

/** The variables each explicit arm setting corresponds to (the variables model's agent evaluation set, either spelling). */
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
    // The variables model: an AIConfiguration variable picks the model configuration by name.
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
  // The variables model per case, for each arm: refused before anything is created when a case does not resolve.
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
            trials: input.repetitions,
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
          order: "case-major",
          variant: index === 0 ? "baseline" : "variant",
        });
        if (inserted === 0) throw noCasesError(selection);
        await storeCaseVariables(tx, run.id, perCase[index]!);
        total = inserted;
        await recordRunTotals(tx, run.id, inserted);
        await createArm(tx, ctx.workspaceId, comparison.id, index, {
          label: arm.label,
          config: arm.input as Prisma.InputJsonValue,
          resolved: arm.resolved,
          runId: run.id,
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
  const suite = await requireLiveSuite(ctx, suiteId);
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
        await createArm(tx, ctx.workspaceId, comparison.id, index, {
          label: index === 0 ? "Baseline" : "Variant",
          config: {},
          resolved: armsResolved[index]!,
          runId: run.id,
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

/** One arm of a comparison; its role follows from its index (0 the baseline, 1 the variant). */
export async function createArm(
  tx: Pick<Tx, "comparisonArm">,
  workspaceId: string,
  comparisonId: string,
  index: number,
  arm: { label: string; config: Prisma.InputJsonValue; resolved: Prisma.InputJsonValue; runId?: string },
) {
  await tx.comparisonArm.create({ data: { workspaceId, comparisonId, index, role: armRole(index), ...arm } });
}

/**
 * Stores a summary as JSON text cast in SQL, as the engine does: Prisma's Json parameter
 * serialisation rounds some doubles to 16 digits, and an export re-imported must give a
 * summary identical to the bit.
 */
export async function storeSummary(tx: Pick<Tx, "$executeRaw">, id: string, summary: ComparisonSummaryDto) {
  await tx.$executeRaw`UPDATE "Comparison" SET "summary" = ${JSON.stringify(summary)}::jsonb WHERE "id" = ${id}::uuid`;
}
