/**
 * Suites: the test cases for one agent with their schedule, judge and simulator models, metrics,
 * regression alert settings and variable values — list, read, create, update, soft delete and
 * restore. Called by the suite pages and actions, /api/v1/suites and the demo seed. Every query
 * is scoped by `workspaceId`; names are unique per agent among live suites (a unique violation
 * becomes a ConflictError), and variable values are checked against the agent's definitions.
 */
import "server-only";
import { z } from "zod";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { ConflictError, NotFoundError, ValidationError, prismaErrorCode, zodIssues, type IssueList } from "@/lib/errors";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import { isUuid } from "@/lib/ids";
import { cursorFields, decodeCursor, encodeCursor } from "@/lib/serialize";
import { ordinaryRunSql } from "@/lib/runs/history";
import type { RunSuiteInfo } from "@/lib/runs/dto";
import { SUITE_FIELDS, suiteMerged, type SuiteData } from "./schemas";
import { checkSuiteVariables, parseVariablesSchema } from "./variables";
import {
  suiteSelect,
  toSuiteDto,
  withoutAgentName,
  type SuiteDto,
  type SuiteListItem,
  type SuiteRow,
  type SuiteWithAgent,
  type AgentOption,
  type ModelConfigOption,
} from "./dto";

export type SuiteListQuery = { agent_id?: string; deleted?: boolean; q?: string; cursor?: string; limit?: number };

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;
const cursorSchema = z.object({ n: z.string(), i: cursorFields.id });
type Cursor = z.output<typeof cursorSchema>;

/**
 * Suites ordered by name then id, keyset-paginated in SQL; case counts, last pass rate and the
 * pass-rate sparkline of the whole page from one more statement (listStatsSql).
 */
export async function listSuites(
  ctx: WorkspaceContext,
  q: SuiteListQuery = {},
): Promise<{ data: SuiteListItem[]; next_cursor: string | null }> {
  requireRole(ctx, "viewer");
  const limit = Math.min(Math.max(Math.trunc(q.limit ?? DEFAULT_LIMIT), 1), MAX_LIMIT);
  const cursor = decodeCursor(q.cursor, cursorSchema);
  if (q.agent_id !== undefined && !isUuid(q.agent_id)) {
    throw new ValidationError("Invalid agent_id", [{ path: "agent_id", message: "agent_id must be a UUID" }]);
  }
  const where: Prisma.SuiteWhereInput = {
    workspaceId: ctx.workspaceId,
    deletedAt: q.deleted ? { not: null } : null,
    ...(q.agent_id ? { agentId: q.agent_id } : {}),
    ...(q.q?.trim() ? { name: { contains: q.q.trim(), mode: "insensitive" as const } } : {}),
    ...(cursor ? { OR: [{ name: { gt: cursor.n } }, { name: cursor.n, id: { gt: cursor.i } }] } : {}),
  };
  const rows = await db.suite.findMany({ where, select: suiteSelect, orderBy: [{ name: "asc" }, { id: "asc" }], take: limit + 1 });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const next_cursor = rows.length > limit && last ? encodeCursor({ n: last.name, i: last.id } satisfies Cursor) : null;
  const stats = await listStats(
    ctx.workspaceId,
    page.map((r) => r.id),
  );
  return {
    data: page.map((r) => ({ ...toSuiteDto(r), ...(stats.get(r.id) ?? EMPTY_STATS) })),
    next_cursor,
  };
}

/** Runs in a suite list sparkline (oldest → newest). */
export const SPARKLINE_RUNS = 20;

type SuiteStats = Pick<SuiteListItem, "case_counts" | "last_pass_rate" | "recent_pass_rates">;
const EMPTY_STATS: SuiteStats = { case_counts: { draft: 0, active: 0, archived: 0 }, last_pass_rate: null, recent_pass_rates: [] };
type StatsRow = { suite_id: string; draft: number; active: number; archived: number; rates: number[] | null };

/**
 * One statement for a page of suites: live test cases per status, and the pass rates of each
 * suite's last SPARKLINE_RUNS completed runs that executed a case, oldest → newest (the last is
 * the suite's last pass rate). Pending, running, failed and cancelled runs are left out: a
 * sparkline of suite health, not of interrupted runs or experiments (comparison arms, matrix combinations). Per suite, a LATERAL subquery reads the
 * newest entries of the partial index of completed runs (Run_suite_completed_idx) and stops
 * after SPARKLINE_RUNS rows: an index scan whose cost grows with the page, not the history (the
 * counters are read from those rows, not INCLUDEd: the executor updates them per case, and an
 * indexed counter would make each of those updates a non-HOT one). Runs are reached through the workspace's suites rather than
 * by Run.workspaceId (see lib/runs/analytics.ts, suiteRuns).
 */
export function listStatsSql(workspaceId: string, suiteIds: string[]): Prisma.Sql {
  return Prisma.sql`
    SELECT s."id" AS suite_id, cc.draft, cc.active, cc.archived, sp.rates
    FROM "Suite" s
    CROSS JOIN LATERAL (
      SELECT count(*) FILTER (WHERE t."status" = 'draft')::int AS draft,
             count(*) FILTER (WHERE t."status" = 'active')::int AS active,
             count(*) FILTER (WHERE t."status" = 'archived')::int AS archived
      FROM "TestCase" t
      WHERE t."suiteId" = s."id" AND t."deletedAt" IS NULL
    ) cc
    CROSS JOIN LATERAL (
      SELECT array_agg(x.rate ORDER BY x.at, x.id) AS rates
      FROM (
        SELECT r."createdAt" AS at, r."id",
               round(100.0 * r."passedCases" / (r."passedCases" + r."failedCases" + r."errorCases"), 1)::float8 AS rate
        FROM "Run" r
        WHERE r."suiteId" = s."id" AND r."status" = 'completed' AND ${ordinaryRunSql("r")}
          AND r."passedCases" + r."failedCases" + r."errorCases" > 0
        ORDER BY r."createdAt" DESC, r."id" DESC
        LIMIT ${SPARKLINE_RUNS}
      ) x
    ) sp
    WHERE s."id" = ANY(${suiteIds}::uuid[]) AND s."workspaceId" = ${workspaceId}::uuid`;
}

async function listStats(workspaceId: string, suiteIds: string[]): Promise<Map<string, SuiteStats>> {
  const out = new Map<string, SuiteStats>();
  if (suiteIds.length === 0) return out;
  const rows = await db.$queryRaw<StatsRow[]>(listStatsSql(workspaceId, suiteIds));
  for (const r of rows) {
    const rates = r.rates ?? [];
    out.set(r.suite_id, {
      case_counts: { draft: r.draft, active: r.active, archived: r.archived },
      last_pass_rate: rates.at(-1) ?? null,
      recent_pass_rates: rates,
    });
  }
  return out;
}

async function findSuite(ctx: WorkspaceContext, id: string, includeDeleted: boolean): Promise<SuiteRow> {
  if (!isUuid(id)) throw new NotFoundError("Suite");
  const row = await db.suite.findFirst({
    where: { id, workspaceId: ctx.workspaceId, ...(includeDeleted ? {} : { deletedAt: null }) },
    select: suiteSelect,
  });
  if (!row) throw new NotFoundError("Suite");
  return row;
}

export async function getSuite(ctx: WorkspaceContext, id: string, opts: { includeDeleted?: boolean } = {}): Promise<SuiteWithAgent> {
  requireRole(ctx, "viewer");
  return toSuiteDto(await findSuite(ctx, id, opts.includeDeleted ?? false));
}

/**
 * A suite's name and state for the headers and links of pages about its runs, comparisons and
 * matrices: a deleted suite still shows its name, one that is gone shows as "Deleted suite".
 */
export async function getSuiteInfo(ctx: WorkspaceContext, suiteId: string): Promise<RunSuiteInfo> {
  const suite = await getSuite(ctx, suiteId, { includeDeleted: true }).catch((err: unknown) => {
    if (err instanceof NotFoundError) return null;
    throw err;
  });
  if (!suite) return { id: suiteId, name: "Deleted suite", deleted: true, agentName: null };
  return { id: suite.id, name: suite.name, deleted: suite.deleted_at !== null, agentName: suite.agent_name };
}

export async function createSuite(ctx: WorkspaceContext, raw: unknown): Promise<SuiteDto> {
  requireRole(ctx, "editor");
  const data = await validateSuite(ctx, raw);
  try {
    const row = await db.suite.create({
      data: { workspaceId: ctx.workspaceId, createdById: ctx.userId, ...toColumns(data) },
      select: suiteSelect,
    });
    return withoutAgentName(toSuiteDto(row));
  } catch (err) {
    throw translateWriteError(err);
  }
}

/** PATCH semantics: the given fields over the stored suite, re-validated as a whole. */
export async function updateSuite(ctx: WorkspaceContext, id: string, raw: unknown): Promise<SuiteDto> {
  requireRole(ctx, "editor");
  const existing = toSuiteDto(await findSuite(ctx, id, false));
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new ValidationError("Please fix the highlighted fields", [{ path: "", message: "Expected an object with the fields to change" }]);
  }
  const patch = Object.fromEntries(Object.entries(raw).filter(([k, v]) => (SUITE_FIELDS as string[]).includes(k) && v !== undefined));
  if ("agent_id" in patch && patch.agent_id !== existing.agent_id) {
    throw new ValidationError("A suite cannot move to another agent", [
      { path: "agent_id", message: "A suite cannot move to another agent" },
    ]);
  }
  const merged = { ...pickInput(existing), ...patch };
  const data = await validateSuite(ctx, merged);
  // Due times before a schedule change (enabling included) never start a catch-up run (lib/runs/scheduler.ts).
  const scheduleChanged =
    data.schedule_type !== existing.schedule_type ||
    data.schedule_time !== existing.schedule_time ||
    data.schedule_day_of_week !== existing.schedule_day_of_week ||
    data.is_enabled !== existing.is_enabled;
  try {
    const row = await db.suite.update({
      where: { id: existing.id, workspaceId: ctx.workspaceId },
      data: { ...toColumns(data), ...(scheduleChanged ? { scheduleChangedAt: new Date() } : {}) },
      select: suiteSelect,
    });
    return withoutAgentName(toSuiteDto(row));
  } catch (err) {
    throw translateWriteError(err);
  }
}

/** Soft delete: the suite moves to the trash; its cases stay untouched. */
export async function deleteSuite(ctx: WorkspaceContext, id: string): Promise<void> {
  requireRole(ctx, "editor");
  if (!isUuid(id)) throw new NotFoundError("Suite");
  const { count } = await db.suite.updateMany({
    where: { id, workspaceId: ctx.workspaceId, deletedAt: null },
    data: { deletedAt: new Date() },
  });
  if (count === 0) throw new NotFoundError("Suite");
}

/** Brings a suite back from the trash; refused while a live suite of the agent has its name. */
export async function restoreSuite(ctx: WorkspaceContext, id: string): Promise<SuiteDto> {
  requireRole(ctx, "editor");
  const row = await findSuite(ctx, id, true);
  if (!row.deletedAt) return withoutAgentName(toSuiteDto(row));
  try {
    const restored = await db.suite.update({
      where: { id: row.id, workspaceId: ctx.workspaceId },
      // Slots missed while in the trash never start a catch-up run.
      data: { deletedAt: null, scheduleChangedAt: new Date() },
      select: suiteSelect,
    });
    return withoutAgentName(toSuiteDto(restored));
  } catch (err) {
    if (prismaErrorCode(err) === "P2002") {
      const message = `Agent "${row.agent.name}" already has a suite named "${row.name}". Rename that suite, then restore this one.`;
      throw new ConflictError(message, [{ path: "name", message }]);
    }
    throw err;
  }
}

function pickInput(s: SuiteDto) {
  return {
    agent_id: s.agent_id,
    name: s.name,
    description: s.description,
    schedule_type: s.schedule_type,
    schedule_time: s.schedule_time,
    schedule_day_of_week: s.schedule_day_of_week,
    llm_judge_model_config_id: s.llm_judge_model_config_id,
    simulator_model_config_id: s.simulator_model_config_id,
    metrics: s.metrics,
    alert_on_regression: s.alert_on_regression,
    alert_threshold_percent: s.alert_threshold_percent,
    hard_weight: s.hard_weight,
    default_trials: s.default_trials,
    review_rules: s.review_rules,
    required_reviews: s.required_reviews,
    calibration_min_labels: s.calibration_min_labels,
    calibration_trusted_kappa: s.calibration_trusted_kappa,
    is_enabled: s.is_enabled,
    variables: s.variables,
    retention_days: s.retention_days,
    retention_runs: s.retention_runs,
  };
}

/**
 * Field rules (zod), then the rules that need the database: the agent and every model
 * configuration (judge, simulator, per-metric overrides) must belong to the workspace, and the
 * variable values must fit the agent's declared variables. All issues are reported together.
 */
async function validateSuite(ctx: WorkspaceContext, raw: unknown): Promise<SuiteData> {
  const parsed = suiteMerged.safeParse(raw);
  if (!parsed.success) throw new ValidationError("Please fix the highlighted fields", zodIssues(parsed.error));
  const data = normaliseSchedule(parsed.data);
  const refs: { path: string; id: string | null }[] = [
    { path: "llm_judge_model_config_id", id: data.llm_judge_model_config_id },
    { path: "simulator_model_config_id", id: data.simulator_model_config_id },
    ...data.metrics.map((m, i) => ({ path: `metrics.${i}.model`, id: m.model })),
  ];
  const wanted = [...new Set(refs.flatMap((r) => (r.id ? [r.id] : [])))];
  const [agent, configs] = await Promise.all([
    db.agent.findFirst({ where: { id: data.agent_id, workspaceId: ctx.workspaceId }, select: { id: true, variablesSchema: true } }),
    wanted.length
      ? db.modelConfig.findMany({ where: { id: { in: wanted }, workspaceId: ctx.workspaceId }, select: { id: true } })
      : Promise.resolve([]),
  ]);
  const known = new Set(configs.map((c) => c.id));
  const issues: IssueList = [];
  if (!agent) issues.push({ path: "agent_id", message: "Choose an agent of this workspace" });
  for (const r of refs) {
    if (r.id && !known.has(r.id)) issues.push({ path: r.path, message: "Choose a model configuration of this workspace" });
  }
  if (agent) issues.push(...checkSuiteVariables(parseVariablesSchema(agent.variablesSchema), data.variables));
  if (issues.length) throw new ValidationError("Please fix the highlighted fields", issues);
  return data;
}

/**
 * A day only belongs to weekly schedules; a time to daily/weekly ones and to hourly ones,
 * where only its minutes count (see lib/runs/scheduler.ts). Manual suites keep neither.
 */
function normaliseSchedule(s: SuiteData): SuiteData {
  return {
    ...s,
    schedule_time: s.schedule_type === "manual" ? null : s.schedule_time,
    schedule_day_of_week: s.schedule_type === "weekly" ? s.schedule_day_of_week : null,
  };
}

function toColumns(d: SuiteData) {
  return {
    agentId: d.agent_id,
    name: d.name,
    description: d.description,
    scheduleType: d.schedule_type,
    scheduleTime: d.schedule_time,
    scheduleDayOfWeek: d.schedule_day_of_week,
    llmJudgeModelConfigId: d.llm_judge_model_config_id,
    simulatorModelConfigId: d.simulator_model_config_id,
    metrics: d.metrics as Prisma.InputJsonValue,
    alertOnRegression: d.alert_on_regression,
    alertThresholdPercent: d.alert_threshold_percent,
    hardWeight: d.hard_weight,
    defaultTrials: d.default_trials,
    reviewRules: d.review_rules,
    requiredReviews: d.required_reviews,
    calibrationMinLabels: d.calibration_min_labels,
    calibrationTrustedKappa: d.calibration_trusted_kappa,
    isEnabled: d.is_enabled,
    variables: d.variables,
    retentionDays: d.retention_days,
    retentionRuns: d.retention_runs,
  };
}

function translateWriteError(err: unknown): unknown {
  const code = prismaErrorCode(err);
  if (code === "P2002") {
    const message = "This agent already has a suite with this name";
    return new ConflictError(message, [{ path: "name", message }]);
  }
  // The agent or a model configuration was deleted between the check and the write.
  if (code === "P2003") {
    return new ValidationError("The agent or a model configuration was deleted meanwhile; reload and try again", [
      { path: "", message: "The agent or a model configuration was deleted meanwhile; reload and try again" },
    ]);
  }
  return err;
}

/** A page's suite filter (the alerts and review pages): the workspace's suites that have the related rows `having` names, by name. */
export async function suiteFilterOptions(ctx: WorkspaceContext, having: Prisma.SuiteWhereInput): Promise<{ id: string; name: string }[]> {
  requireRole(ctx, "viewer");
  return db.suite.findMany({
    where: { workspaceId: ctx.workspaceId, ...having },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    select: { id: true, name: true },
    take: 500,
  });
}

/** The suite form's options: agents (with declared variables) and model configurations, by name. */
export async function listSuiteFormOptions(ctx: WorkspaceContext): Promise<{ agents: AgentOption[]; modelConfigs: ModelConfigOption[] }> {
  const [agents, modelConfigs] = await Promise.all([
    db.agent.findMany({
      where: { workspaceId: ctx.workspaceId },
      select: { id: true, name: true, variablesSchema: true },
      orderBy: [{ name: "asc" }, { id: "asc" }],
    }),
    db.modelConfig.findMany({
      where: { workspaceId: ctx.workspaceId },
      select: { id: true, name: true },
      orderBy: [{ name: "asc" }, { id: "asc" }],
    }),
  ]);
  return {
    agents: agents.map((r) => ({ id: r.id, name: r.name, variables_schema: parseVariablesSchema(r.variablesSchema) })),
    modelConfigs,
  };
}

/** Every agent of the workspace by name (the suite list's agent filter). */
export async function listAgentNames(ctx: WorkspaceContext): Promise<{ id: string; name: string }[]> {
  return db.agent.findMany({
    where: { workspaceId: ctx.workspaceId },
    select: { id: true, name: true },
    orderBy: [{ name: "asc" }, { id: "asc" }],
  });
}
