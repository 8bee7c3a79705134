import "server-only";
import type { z } from "zod";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { suiteResource } from "./openapi";
import { zodIssues } from "@/lib/errors";
import { iso } from "@/lib/serialize";
import { logger } from "@/lib/logger";
import { metricConfigListSchema, type MetricConfig } from "@/lib/evaluation/schemas";
import type { VariableDefinition } from "@/lib/agents/schemas";
import type { SuiteData } from "./schemas";
import { parseVariableValues } from "./variables";
import { reviewRulesOf } from "@/lib/review/rules-config";

/**
 * The suite's public shapes: the Prisma `select`, the row → DTO mapper and the DTO types, plus
 * the option shapes of the suite form. Server-only because the mapper logs unreadable metrics;
 * client components import the types with `import type`.
 */

export type ScheduleType = SuiteData["schedule_type"];

export type SuiteDto = z.output<typeof suiteResource>;
export type CaseCounts = { draft: number; active: number; archived: number };
export type SuiteWithAgent = SuiteDto & { agent_name: string };
export type SuiteListItem = SuiteWithAgent & {
  case_counts: CaseCounts;
  /** Pass rate (0–100, one decimal) of the last completed run that executed a case; null without one. */
  last_pass_rate: number | null;
  /** Pass rates of the last completed runs (at most 20), oldest → newest; the last one is `last_pass_rate`. */
  recent_pass_rates: number[];
};
export const suiteSelect = {
  id: true,
  agentId: true,
  name: true,
  description: true,
  scheduleType: true,
  scheduleTime: true,
  scheduleDayOfWeek: true,
  llmJudgeModelConfigId: true,
  simulatorModelConfigId: true,
  metrics: true,
  alertOnRegression: true,
  alertThresholdPercent: true,
  hardWeight: true,
  defaultTrials: true,
  reviewRules: true,
  requiredReviews: true,
  calibrationMinLabels: true,
  calibrationTrustedKappa: true,
  isEnabled: true,
  variables: true,
  retentionDays: true,
  retentionRuns: true,
  createdAt: true,
  updatedAt: true,
  deletedAt: true,
  agent: { select: { name: true } },
} as const satisfies Prisma.SuiteSelect;
export type SuiteRow = Prisma.SuiteGetPayload<{ select: typeof suiteSelect }>;

export function toSuiteDto(row: SuiteRow): SuiteWithAgent {
  return {
    id: row.id,
    agent_id: row.agentId,
    name: row.name,
    description: row.description,
    schedule_type: row.scheduleType,
    schedule_time: row.scheduleTime,
    schedule_day_of_week: row.scheduleDayOfWeek,
    llm_judge_model_config_id: row.llmJudgeModelConfigId,
    simulator_model_config_id: row.simulatorModelConfigId,
    metrics: parseStoredMetrics(row.id, row.metrics),
    alert_on_regression: row.alertOnRegression,
    alert_threshold_percent: row.alertThresholdPercent,
    hard_weight: row.hardWeight,
    default_trials: row.defaultTrials,
    review_rules: reviewRulesOf(row.reviewRules),
    required_reviews: row.requiredReviews,
    calibration_min_labels: row.calibrationMinLabels,
    calibration_trusted_kappa: row.calibrationTrustedKappa,
    is_enabled: row.isEnabled,
    variables: parseVariableValues(row.variables),
    retention_days: row.retentionDays,
    retention_runs: row.retentionRuns,
    created_at: iso(row.createdAt)!,
    updated_at: iso(row.updatedAt)!,
    deleted_at: iso(row.deletedAt),
    agent_name: row.agent.name,
  };
}

/** Stored metrics were validated on write; anything unreadable is logged and shown as no metrics. */
function parseStoredMetrics(suiteId: string, raw: unknown): MetricConfig[] {
  const parsed = metricConfigListSchema.safeParse(raw ?? []);
  if (parsed.success) return parsed.data;
  logger.warn({ suiteId, issues: zodIssues(parsed.error) }, "suite has unreadable metrics");
  return [];
}

export function withoutAgentName({ agent_name: _omit, ...dto }: SuiteWithAgent): SuiteDto {
  return dto;
}

/** An agent in the suite form's select: id, name and declared variables only. */
export type AgentOption = { id: string; name: string; variables_schema: VariableDefinition[] };
/** A model configuration in the suite form's judge/simulator/metric selects (no endpoint, no secrets). */
export type ModelConfigOption = { id: string; name: string };
