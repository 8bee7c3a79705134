import { Badge } from "@/components/ui/card";
import type { CaseResultStatus, RunStatus } from "@/lib/runs/schemas";
import type { Stability } from "@/lib/runs/trials";

type Tone = "slate" | "green" | "amber" | "red" | "indigo" | "blue";

/** The lifecycle of a run (the execution model), shared by comparisons and matrices, which run the same way. */
export const RUN_STATUS_LABELS: Record<RunStatus, string> = {
  pending: "Pending",
  running: "Running",
  completed: "Completed",
  failed: "Failed",
  cancelled: "Cancelled",
};
export const RUN_STATUS_TONES: Record<RunStatus, Tone> = {
  pending: "slate",
  running: "blue",
  completed: "green",
  failed: "red",
  cancelled: "amber",
};

export const CASE_STATUS_LABELS: Record<CaseResultStatus, string> = {
  pending: "Pending",
  running: "Running",
  passed: "Passed",
  failed: "Failed",
  skipped: "Skipped",
  error: "Error",
};
const CASE_TONES: Record<CaseResultStatus, Tone> = {
  pending: "slate",
  running: "blue",
  passed: "green",
  failed: "red",
  skipped: "slate",
  error: "amber",
};

export function RunStatusBadge({ status }: { status: RunStatus }) {
  return <Badge tone={RUN_STATUS_TONES[status]}>{RUN_STATUS_LABELS[status]}</Badge>;
}

export function CaseStatusBadge({ status }: { status: CaseResultStatus }) {
  return <Badge tone={CASE_TONES[status]}>{CASE_STATUS_LABELS[status]}</Badge>;
}

/** How a case behaved over its trials in one run (lib/runs/trials.ts). */
export const STABILITY_LABELS: Record<Stability, string> = {
  stable_pass: "Stable pass",
  flaky: "Flaky",
  stable_fail: "Stable fail",
  error: "Error",
};
const STABILITY_TONES: Record<Stability, Tone> = { stable_pass: "green", flaky: "amber", stable_fail: "red", error: "slate" };

/** A case's stability over its trials; "No verdict yet" before any trial finished. */
export function StabilityBadge({ stability }: { stability: Stability | null }) {
  if (!stability) return <Badge>No verdict yet</Badge>;
  return <Badge tone={STABILITY_TONES[stability]}>{STABILITY_LABELS[stability]}</Badge>;
}
