import { Badge } from "@/components/ui/card";
import type { CaseResultStatus, RunStatus } from "@/lib/runs/schemas";

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
