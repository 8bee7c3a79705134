import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * The regression alert as the API, the alerts page and the `alert.raised` webhook show it.
 * `drop_points` is in percentage points of pass rate (90 → 79 is 11 points).
 */

/** A case that passed in the baseline run and failed or errored in the alerted run. */
export type FlippedCase = {
  test_case_id: string;
  name: string;
  from: "passed";
  to: "failed" | "error";
  /** The case result in the alerted run (links to its transcript and verdicts). */
  case_result_id: string;
};

/** Who acknowledged an alert: a member (by user id) or an API key. `name` is the user's name or email, or the key's name. */
export type AlertActor = { type: "user" | "api_key"; id: string; name: string | null };

export type AlertDto = {
  id: string;
  suite_id: string;
  suite_name: string;
  run_id: string;
  baseline_run_id: string | null;
  previous_pass_rate: number;
  pass_rate: number;
  drop_points: number;
  flipped_cases: FlippedCase[];
  acknowledged_at: string | null;
  acknowledged_by: AlertActor | null;
  created_at: string;
};

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
  suite: { select: { name: true } },
} as const satisfies Prisma.RegressionAlertSelect;

export type AlertRow = Prisma.RegressionAlertGetPayload<{ select: typeof alertSelect }>;

function flippedOf(value: unknown): FlippedCase[] {
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is FlippedCase => typeof v === "object" && v !== null && typeof (v as FlippedCase).test_case_id === "string");
}

/** `names` maps user and API key ids to display names (looked up by the service for a page of alerts). */
export function toAlertDto(row: AlertRow, names: ReadonlyMap<string, string> = new Map()): AlertDto {
  const actor: AlertActor | null = row.acknowledgedByUserId
    ? { type: "user", id: row.acknowledgedByUserId, name: names.get(row.acknowledgedByUserId) ?? null }
    : row.acknowledgedByKeyId
      ? { type: "api_key", id: row.acknowledgedByKeyId, name: names.get(row.acknowledgedByKeyId) ?? null }
      : null;
  return {
    id: row.id,
    suite_id: row.suiteId,
    suite_name: row.suite.name,
    run_id: row.runId,
    baseline_run_id: row.previousRunId,
    previous_pass_rate: row.previousRate,
    pass_rate: row.passRate,
    drop_points: row.dropPercent,
    flipped_cases: flippedOf(row.flippedCases),
    acknowledged_at: row.acknowledgedAt?.toISOString() ?? null,
    acknowledged_by: row.acknowledgedAt ? actor : null,
    created_at: row.createdAt.toISOString(),
  };
}
