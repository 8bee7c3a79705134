import type { Prisma } from "@/lib/generated/prisma/client";
import type { z } from "zod";
import { CHANGE_CAUSES, explainFlips, type ChangeCause } from "@/lib/runs/changes";
import type { alertActor, alertResource, flippedCase } from "./openapi";

/**
 * The regression alert as the API, the alerts page and the `alert.raised` webhook show it.
 * `drop_points` is in percentage points of pass rate (90 → 79 is 11 points).
 */

/** A case that passed in the baseline run and failed or errored in the alerted run. */
export type FlippedCase = z.output<typeof flippedCase>;
/** Who acknowledged an alert: a member (by user id) or an API key. `name` is the user's name or email, or the key's name. */
export type AlertActor = z.output<typeof alertActor>;
export type AlertDto = z.output<typeof alertResource>;

export const alertSelect = {
  id: true,
  suiteId: true,
  runId: true,
  previousRunId: true,
  passRate: true,
  previousRate: true,
  dropPercent: true,
  flippedCases: true,
  acknowledgedAt: true,
  acknowledgedByUserId: true,
  acknowledgedByKeyId: true,
  createdAt: true,
  delta: true,
  suite: { select: { name: true } },
  run: { select: { number: true, metadata: true } },
} as const satisfies Prisma.RegressionAlertSelect;

export type AlertRow = Prisma.RegressionAlertGetPayload<{ select: typeof alertSelect }>;

function flippedOf(value: unknown): FlippedCase[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((v): v is FlippedCase => typeof v === "object" && v !== null && typeof (v as FlippedCase).test_case_id === "string")
    .map((v) => ({
      ...v,
      case_changed: v.case_changed === true,
      cause: (CHANGE_CAUSES as readonly unknown[]).includes(v.cause) ? v.cause : null,
      ...(v.flaky === "trials" || v.flaky === "history" ? { flaky: v.flaky } : {}),
    }));
}

type StoredDelta = { agent_changed?: unknown; evaluation_changed?: unknown; baseline_run_number?: unknown };

const strings = (value: unknown): Record<string, string> =>
  value && typeof value === "object" && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string"))
    : {};

/** `names` maps user and API key ids to display names (looked up by the service for a page of alerts). */
export function toAlertDto(row: AlertRow, names: ReadonlyMap<string, string> = new Map()): AlertDto {
  const actor: AlertActor | null = row.acknowledgedByUserId
    ? { type: "user", id: row.acknowledgedByUserId, name: names.get(row.acknowledgedByUserId) ?? null }
    : row.acknowledgedByKeyId
      ? { type: "api_key", id: row.acknowledgedByKeyId, name: names.get(row.acknowledgedByKeyId) ?? null }
      : null;
  const delta = (row.delta ?? {}) as StoredDelta;
  const flipped = flippedOf(row.flippedCases);
  const changed = { agent_changed: delta.agent_changed === true, evaluation_changed: delta.evaluation_changed === true };
  const explained = flipped.filter((f): f is FlippedCase & { cause: ChangeCause } => f.cause !== null);
  return {
    id: row.id,
    suite_id: row.suiteId,
    suite_name: row.suite.name,
    run_id: row.runId,
    run_number: row.run.number,
    run_metadata: strings(row.run.metadata),
    baseline_run_id: row.previousRunId,
    baseline_run_number: typeof delta.baseline_run_number === "number" ? delta.baseline_run_number : null,
    ...changed,
    // Alerts raised before causes were recorded have none: no sentence rather than a wrong one.
    explanation: explained.length === flipped.length ? explainFlips(explained) : "",
    previous_pass_rate: row.previousRate,
    pass_rate: row.passRate,
    drop_points: row.dropPercent,
    flipped_cases: flipped.filter((f) => !f.flaky),
    flaky_cases: flipped.filter((f) => f.flaky),
    acknowledged_at: row.acknowledgedAt?.toISOString() ?? null,
    acknowledged_by: row.acknowledgedAt ? actor : null,
    created_at: row.createdAt.toISOString(),
  };
}
