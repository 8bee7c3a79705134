/**
 * Suite presets (the variables model): named sets of run-level variable values, listed by viewers,
 * written by editors, selectable in the run and comparison dialogs and by `POST …/runs`'
 * `preset` (the CLI's `--preset`). Values are validated against the suite agent's definitions
 * as a run's `variables` are. Every query is scoped by `workspaceId`.
 */
import "server-only";
import { db } from "@/lib/db";
import { ConflictError, NotFoundError, ValidationError, isUniqueViolation, prismaErrorCode, zodIssues, type IssueList } from "@/lib/errors";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import { isUuid } from "@/lib/ids";
import { variableDefinitionSchema, type VariableValue } from "@/lib/agents/schemas";
import { resolveVariables } from "@/lib/runs/variables";
import { presetInput, presetPatch, type RunVariablesContext } from "@/lib/presets/schemas";
import { presetSelect, toPresetDto, type PresetDto } from "@/lib/presets/dto";

export type { PresetDto } from "@/lib/presets/dto";

async function liveSuite(ctx: WorkspaceContext, suiteId: string) {
  if (!isUuid(suiteId)) throw new NotFoundError("Suite");
  const suite = await db.suite.findFirst({
    where: { id: suiteId, workspaceId: ctx.workspaceId, deletedAt: null },
    select: { id: true, agent: { select: { variablesSchema: true } } },
  });
  if (!suite) throw new NotFoundError("Suite");
  return suite;
}

/**
 * Issues (paths `values.NAME`) for values the agent would refuse as run values: unknown names,
 * wrong data types, static values outside the possible ones.
 */
export function presetValueIssues(variablesSchema: unknown, values: Record<string, VariableValue>): IssueList {
  const parsed = variableDefinitionSchema.array().safeParse(variablesSchema);
  const definitions = parsed.success ? parsed.data : [];
  const only = definitions.filter((d) => Object.hasOwn(values, d.name));
  const { issues } = resolveVariables(
    only.map((d) => ({ ...d, required: false, default_value: null })),
    {},
    values,
  );
  return issues.map((i) => ({ path: i.path.replace(/^variables\./, "values."), message: i.message.replace(/ \(from run\)$/, "") }));
}

function assertValues(variablesSchema: unknown, values: Record<string, VariableValue>) {
  const issues = presetValueIssues(variablesSchema, values);
  if (issues.length) throw new ValidationError("Please fix the highlighted values", issues);
}

function conflictOnName(err: unknown, name: string): never {
  if (isUniqueViolation(err)) {
    throw new ConflictError(`A preset named "${name}" already exists in this suite`, [
      { path: "name", message: "A preset with this name already exists in this suite" },
    ]);
  }
  throw err;
}

export async function listPresets(ctx: WorkspaceContext, suiteId: string): Promise<PresetDto[]> {
  requireRole(ctx, "viewer");
  await liveSuite(ctx, suiteId);
  const rows = await db.suitePreset.findMany({
    where: { suiteId, workspaceId: ctx.workspaceId },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    select: presetSelect,
  });
  return rows.map(toPresetDto);
}

export async function getPreset(ctx: WorkspaceContext, id: string): Promise<PresetDto> {
  requireRole(ctx, "viewer");
  if (!isUuid(id)) throw new NotFoundError("Preset");
  const row = await db.suitePreset.findFirst({
    where: { id, workspaceId: ctx.workspaceId, suite: { deletedAt: null } },
    select: presetSelect,
  });
  if (!row) throw new NotFoundError("Preset");
  return toPresetDto(row);
}

export async function createPreset(ctx: WorkspaceContext, suiteId: string, raw: unknown): Promise<PresetDto> {
  requireRole(ctx, "editor");
  const parsed = presetInput.safeParse(raw);
  if (!parsed.success) throw new ValidationError("Please fix the highlighted fields", zodIssues(parsed.error));
  const suite = await liveSuite(ctx, suiteId);
  assertValues(suite.agent.variablesSchema, parsed.data.values);
  try {
    const row = await db.suitePreset.create({
      data: { workspaceId: ctx.workspaceId, suiteId, name: parsed.data.name, values: parsed.data.values, trials: parsed.data.trials },
      select: presetSelect,
    });
    return toPresetDto(row);
  } catch (err) {
    conflictOnName(err, parsed.data.name);
  }
}

export async function updatePreset(ctx: WorkspaceContext, id: string, raw: unknown): Promise<PresetDto> {
  requireRole(ctx, "editor");
  const parsed = presetPatch.safeParse(raw ?? {});
  if (!parsed.success) throw new ValidationError("Please fix the highlighted fields", zodIssues(parsed.error));
  const current = await getPreset(ctx, id);
  const suite = await liveSuite(ctx, current.suite_id);
  const name = parsed.data.name ?? current.name;
  const values = parsed.data.values ?? current.values;
  assertValues(suite.agent.variablesSchema, values);
  try {
    const row = await db.suitePreset.update({
      where: { id, workspaceId: ctx.workspaceId },
      data: { name, values, trials: parsed.data.trials === undefined ? current.trials : parsed.data.trials },
      select: presetSelect,
    });
    return toPresetDto(row);
  } catch (err) {
    if (prismaErrorCode(err) === "P2025") throw new NotFoundError("Preset");
    conflictOnName(err, name);
  }
}

export async function deletePreset(ctx: WorkspaceContext, id: string): Promise<{ suite_id: string }> {
  requireRole(ctx, "editor");
  const current = await getPreset(ctx, id);
  const { count } = await db.suitePreset.deleteMany({ where: { id, workspaceId: ctx.workspaceId } });
  if (count === 0) throw new NotFoundError("Preset");
  return { suite_id: current.suite_id };
}

/**
 * The values and trials of a suite's preset named by `nameOrId` (its id, or else its name), for a
 * run's `preset` option; ValidationError at `preset` listing the suite's presets when there is none.
 */
export async function presetForRun(
  ctx: WorkspaceContext,
  suiteId: string,
  nameOrId: string,
): Promise<{ values: Record<string, VariableValue>; trials: number | null }> {
  const presets = await db.suitePreset.findMany({
    where: { suiteId, workspaceId: ctx.workspaceId },
    select: { id: true, name: true, values: true, trials: true },
    orderBy: { name: "asc" },
  });
  const found = presets.find((p) => p.id === nameOrId) ?? presets.find((p) => p.name === nameOrId);
  if (!found) {
    const names = presets.map((p) => JSON.stringify(p.name)).join(", ");
    throw new ValidationError(`Unknown preset "${nameOrId}"`, [
      { path: "preset", message: `Unknown preset "${nameOrId}": ${names ? `this suite has ${names}` : "this suite has no presets"}` },
    ]);
  }
  return { values: (found.values ?? {}) as Record<string, VariableValue>, trials: found.trials };
}

/** The suite agent's variable definitions, the suite's values and its presets (the run dialogs' inputs). */
export async function runVariablesContext(ctx: WorkspaceContext, suiteId: string): Promise<RunVariablesContext> {
  requireRole(ctx, "viewer");
  if (!isUuid(suiteId)) throw new NotFoundError("Suite");
  const suite = await db.suite.findFirst({
    where: { id: suiteId, workspaceId: ctx.workspaceId, deletedAt: null },
    select: {
      variables: true,
      agent: { select: { variablesSchema: true } },
      presets: {
        where: { workspaceId: ctx.workspaceId },
        select: { id: true, name: true, values: true, trials: true },
        orderBy: { name: "asc" },
      },
    },
  });
  if (!suite) throw new NotFoundError("Suite");
  const definitions = variableDefinitionSchema.array().safeParse(suite.agent.variablesSchema);
  const asValues = (v: unknown) => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, VariableValue>) : {});
  return {
    definitions: definitions.success ? definitions.data : [],
    suite_values: asValues(suite.variables),
    presets: suite.presets.map((p) => ({ id: p.id, name: p.name, values: asValues(p.values), trials: p.trials })),
  };
}
