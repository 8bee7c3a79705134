import { Stat } from "@/components/ui/stat";
import { formatUsd, type CostBreakdown } from "@/lib/runs/cost";

/**
 * A run's or a case's cost as two figures of a stats `<dl>`: the total, and its parts (agent,
 * simulated user, judge). "—" where the model configuration had no prices when the run started:
 * an unknown cost is never shown as $0.00.
 */
export function CostStats({ cost, testId }: { cost: CostBreakdown | null; testId: string }) {
  const parts = cost ? `${formatUsd(cost.agent)} / ${formatUsd(cost.simulator)} / ${formatUsd(cost.judge)}` : "—";
  return (
    <>
      <Stat label="Cost" value={formatUsd(cost?.total)} testId={testId} title="At the model configurations' prices when the run started" />
      <Stat label="Agent / simulated user / judge cost" value={parts} testId={`${testId}-parts`} />
    </>
  );
}
