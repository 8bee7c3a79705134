/**
 * Retention settings (the reference schema): `test_suites.retention_cleanup_time`, `retention_days` and
 * `retention_runs`, each resolved as database value (InstanceSetting) > env
 * (`TEST_SUITES_RETENTION_*`) > default, with the source reported. They are instance-wide, so
 * only **instance admins** may read or change them through the API and page: owners and admins
 * (API keys with the admin role included) of the instance's first workspace — the one created
 * at setup. An admin of any other workspace must not be able to shorten how long every other
 * workspace's runs are kept.
 */
import "server-only";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { logger } from "@/lib/logger";
import { ForbiddenError, ValidationError, zodIssues } from "@/lib/errors";
import { hasRole, type WorkspaceContext } from "@/lib/auth/roles";
import { withoutWorkspaceScope } from "@/lib/tenant-scope";
import {
  cleanupTime,
  RETENTION_DEFAULTS,
  RETENTION_KEYS,
  retentionDays,
  retentionRuns,
  retentionSettingsPatch,
  trafficRetentionDays,
  type RetentionField,
} from "./schemas";
import type { CleanupRecordDto, RetentionSetting, RetentionSettings, RetentionValues } from "./dto";

export type { CleanupRecordDto, RetentionSetting, RetentionSettings, RetentionValues } from "./dto";
/** The env fallbacks (parsed and validated in lib/env.ts); tests pass their own. */
export type RetentionEnv = { cleanup_time?: string; days?: number; runs?: number; traffic_days?: number };

export function retentionEnv(): RetentionEnv {
  return {
    cleanup_time: env.TEST_SUITES_RETENTION_CLEANUP_TIME,
    days: env.TEST_SUITES_RETENTION_DAYS,
    runs: env.TEST_SUITES_RETENTION_RUNS,
    traffic_days: env.TRAFFIC_RETENTION_DAYS,
  };
}

const validators = { cleanup_time: cleanupTime, days: retentionDays, runs: retentionRuns, traffic_days: trafficRetentionDays } as const;
const FIELDS = Object.keys(RETENTION_KEYS) as RetentionField[];

/** Database > env > default, per field. A stored value that no longer validates is logged and ignored. */
export function resolveRetentionSettings(stored: Partial<Record<RetentionField, unknown>>, fallback: RetentionEnv): RetentionSettings {
  const pick = <F extends RetentionField>(field: F): RetentionSetting<RetentionValues[F]> => {
    if (stored[field] !== undefined) {
      const parsed = validators[field].safeParse(stored[field]);
      if (parsed.success) return { value: parsed.data as RetentionValues[F], source: "database" };
      logger.warn({ key: RETENTION_KEYS[field], value: stored[field] }, "ignoring an invalid stored retention setting");
    }
    const fromEnv = fallback[field];
    if (fromEnv !== undefined) return { value: fromEnv as RetentionValues[F], source: "env" };
    return { value: RETENTION_DEFAULTS[field] as RetentionValues[F], source: "default" };
  };
  return { cleanup_time: pick("cleanup_time"), days: pick("days"), runs: pick("runs"), traffic_days: pick("traffic_days") };
}

export async function getRetentionSettings(fallback: RetentionEnv = retentionEnv()): Promise<RetentionSettings> {
  const rows = await withoutWorkspaceScope(() =>
    db.instanceSetting.findMany({ where: { key: { in: Object.values(RETENTION_KEYS) } }, select: { key: true, value: true } }),
  );
  const stored: Partial<Record<RetentionField, unknown>> = {};
  for (const field of FIELDS) {
    const row = rows.find((r) => r.key === RETENTION_KEYS[field]);
    if (row) stored[field] = row.value;
  }
  return resolveRetentionSettings(stored, fallback);
}

export const valuesOf = (s: RetentionSettings): RetentionValues => ({
  cleanup_time: s.cleanup_time.value,
  days: s.days.value,
  runs: s.runs.value,
  traffic_days: s.traffic_days.value,
});

/** The instance's first workspace (created at setup): its admins administer instance-wide settings. */
export async function firstWorkspaceId(): Promise<string | null> {
  const ws = await withoutWorkspaceScope(() =>
    db.workspace.findFirst({ orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true } }),
  );
  return ws?.id ?? null;
}

export async function isInstanceAdmin(ctx: WorkspaceContext): Promise<boolean> {
  return hasRole(ctx.role, "admin") && (await firstWorkspaceId()) === ctx.workspaceId;
}

export const INSTANCE_ADMIN_ONLY =
  "Retention settings and cleanup are instance-wide: only owners and admins of the instance's first workspace may use them";

export async function requireInstanceAdmin(ctx: WorkspaceContext): Promise<void> {
  if (!(await isInstanceAdmin(ctx))) throw new ForbiddenError(INSTANCE_ADMIN_ONLY);
}

/** PATCH semantics: given fields are stored, `null` ones deleted (env/default apply again), omitted ones untouched. */
export async function updateRetentionSettings(
  ctx: WorkspaceContext,
  raw: unknown,
  fallback: RetentionEnv = retentionEnv(),
): Promise<RetentionSettings> {
  await requireInstanceAdmin(ctx);
  const parsed = retentionSettingsPatch.safeParse(raw ?? {});
  if (!parsed.success) throw new ValidationError("Invalid retention settings", zodIssues(parsed.error));
  const patch = parsed.data;
  await withoutWorkspaceScope(() =>
    db.$transaction(async (tx) => {
      for (const field of FIELDS) {
        const value = patch[field];
        if (value === undefined) continue;
        const key = RETENTION_KEYS[field];
        if (value === null) await tx.instanceSetting.deleteMany({ where: { key } });
        else await tx.instanceSetting.upsert({ where: { key }, create: { key, value }, update: { value } });
      }
    }),
  );
  logger.info({ userId: ctx.userId, apiKeyId: ctx.apiKeyId, patch }, "retention settings changed");
  return getRetentionSettings(fallback);
}

/** The latest cleanup records, newest first (the retention page's history). */
export async function listCleanupRecords(limit = 10): Promise<CleanupRecordDto[]> {
  const rows = await withoutWorkspaceScope(() =>
    db.cleanupRecord.findMany({ orderBy: [{ startedAt: "desc" }, { id: "desc" }], take: limit }),
  );
  return rows.map((r) => ({
    id: r.id,
    trigger: r.trigger,
    dry_run: r.dryRun,
    runs_deleted: r.runsDeleted,
    results_deleted: r.resultsDeleted,
    llm_calls_deleted: r.llmCallsDeleted,
    conversations_deleted: r.conversationsDeleted,
    bytes_freed_estimate: Number(r.bytesFreedEstimate),
    slot: r.slot?.toISOString() ?? null,
    started_at: r.startedAt.toISOString(),
    completed_at: r.completedAt?.toISOString() ?? null,
    error: r.error,
  }));
}
