import type { CheckResult, MetricResult, OutcomeResult, ToolCallResults } from "@/lib/evaluation/types";
import type { Check } from "@/lib/test-cases/schemas";
import { Section } from "@/components/ui/card";
import { FinalResponseCard } from "./final-response";
import { CheckResults, ToolCallResultsView } from "./check-results";
import { MetricResults, OutcomeResults } from "./outcome-metric-results";
import type { TranscriptEntry } from "./transcript";

/** The result columns the verdicts read (JSON columns, typed here). */
type VerdictResult = {
  actual_response: string | null;
  response_truncated: boolean;
  check_results: unknown;
  tool_call_results: unknown;
  outcome_results: unknown;
  metric_results: unknown;
};

/**
 * A case result's verdicts beside its transcript: the final response, then the checks, tool
 * calls, expected outcomes and metrics. The app's case page and a shared case show the same.
 */
export function CaseVerdicts({
  result: r,
  checks,
  mode,
  transcript,
}: {
  result: VerdictResult;
  /** The case's checks as run (from its snapshot), which the check results point into. */
  checks: Check[];
  mode: string | null;
  transcript: TranscriptEntry[];
}) {
  return (
    <div className="min-w-0 space-y-4">
      <FinalResponseCard response={r.actual_response} truncated={r.response_truncated} />
      <Section title="Checks">
        <CheckResults results={(r.check_results ?? []) as CheckResult[]} checks={checks} mode={mode} />
      </Section>
      <Section title="Tool calls">
        <ToolCallResultsView results={(r.tool_call_results ?? null) as ToolCallResults | null} />
      </Section>
      <Section title="Expected outcomes">
        <OutcomeResults results={(r.outcome_results ?? []) as OutcomeResult[]} transcript={transcript} />
      </Section>
      <Section title="Metrics">
        <MetricResults results={(r.metric_results ?? []) as MetricResult[]} />
      </Section>
    </div>
  );
}
