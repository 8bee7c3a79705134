import { Badge } from "@/components/ui/card";
import type { TestCaseStatus } from "@/lib/test-cases/schemas";

export const STATUS_LABELS: Record<TestCaseStatus, string> = { active: "Active", draft: "Draft", archived: "Archived" };
const TONES = { active: "green", draft: "amber", archived: "slate" } as const;

export function StatusBadge({ status }: { status: TestCaseStatus }) {
  return <Badge tone={TONES[status]}>{STATUS_LABELS[status]}</Badge>;
}
