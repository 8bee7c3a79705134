import type { CaseStage } from "@/lib/runs/dto";
import type { CaseResultStatus } from "@/lib/runs/schemas";
import { Badge } from "@/components/ui/card";

/** The execution model execution states in words a tester reads (the API keeps the execution model's names). */
export const CASE_STAGE_LABELS: Record<CaseStage, string> = {
  pending: "Waiting",
  processing_files: "Processing files",
  files_ready: "Files ready",
  files_failed: "Files failed",
  executing_agent: "Calling agent",
  waiting_rate_limit: "Waiting for the provider's rate limit",
  agent_complete: "Agent answered",
  agent_failed: "Agent failed",
  evaluating: "Evaluating",
  complete: "Complete",
  evaluation_failed: "Evaluation failed",
};

const FAILURE_STAGES = new Set<CaseStage>(["files_failed", "agent_failed", "evaluation_failed"]);

export const isFailureStage = (stage: CaseStage | null | undefined) => Boolean(stage && FAILURE_STAGES.has(stage));

/**
 * Whether a case's stage says more than its status: every stage while the case runs, and the
 * failure stages once it is done (a finished case's "complete" adds nothing to its verdict).
 */
export function stageWorthShowing(status: CaseResultStatus, stage: CaseStage | null | undefined): stage is CaseStage {
  if (!stage) return false;
  if (status === "running") return stage !== "pending";
  return isFailureStage(stage);
}

/** The stage as a small badge: red for a failure stage, blue while running. */
export function CaseStageBadge({ stage }: { stage: CaseStage }) {
  return (
    <Badge tone={isFailureStage(stage) ? "red" : "blue"} data-testid="case-stage" title={`Stage: ${stage}`}>
      <span className="sr-only">Stage: </span>
      {CASE_STAGE_LABELS[stage] ?? stage}
    </Badge>
  );
}
