import { Badge } from "@/components/ui/card";

const TONES = { run: "indigo", suite: "blue", test: "amber", type: "slate" } as const;
const TITLES = {
  run: "Set for this run",
  suite: "The suite's value",
  test: "The test case's own value",
  type: "The agent's default",
} as const;

/** Where a resolved variable value came from (the variables model sources: run, suite, test, type). */
export function SourceBadge({ source }: { source: string }) {
  const known = source in TONES ? (source as keyof typeof TONES) : null;
  return (
    <Badge tone={known ? TONES[known] : "slate"} title={known ? TITLES[known] : undefined} data-testid="variable-source">
      {source}
    </Badge>
  );
}

/** A value as the tables show it: strings as written, others as JSON. */
export function formatVariableValue(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? "");
}
