import type { ChangeCause } from "@/lib/runs/changes";
import { Badge } from "@/components/ui/card";
import { causeLabel } from "./change-format";

const TONES: Record<ChangeCause, "blue" | "indigo" | "slate" | "amber"> = {
  test: "blue",
  agent: "indigo",
  both: "slate",
  neither: "amber",
};

/**
 * Why one verdict flipped, as a small badge: the case changed, the agent changed, both, or
 * neither (possibly flaky: dashed, so it stands apart without relying on colour). The words say
 * it all; the hidden prefix tells a screen reader what the badge is about.
 */
export function CauseBadge({ cause, caseChanged }: { cause: ChangeCause; caseChanged: boolean }) {
  return (
    <Badge tone={TONES[cause]} className={cause === "neither" ? "border border-dashed border-amber-600" : undefined}>
      <span className="sr-only">Why it flipped: </span>
      {causeLabel(cause, caseChanged)}
    </Badge>
  );
}
