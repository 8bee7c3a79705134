import Link from "next/link";
import type { FlakyCaseDto } from "@/lib/runs/trial-reads";
import { Section } from "@/components/ui/card";

/**
 * The suite's "Flaky cases": the cases whose verdict flipped most often over the suite's latest
 * history runs (every trial a result), highest flip rate first, each linking to its case. A case
 * that flips is a coin flip, not a regression; this is where a QA lead finds them.
 */
export function FlakyCasesCard({
  workspaceId,
  suiteId,
  cases,
  windowRuns,
}: {
  workspaceId: string;
  suiteId: string;
  cases: FlakyCaseDto[];
  /** How many of the latest runs the flip rates cover. */
  windowRuns: number;
}) {
  return (
    <Section
      title="Flaky cases"
      description={`Cases whose verdict changed between consecutive results (trials included) over the last ${windowRuns} finished runs.`}
      className="p-4"
    >
      {cases.length === 0 ? (
        <p className="text-sm text-slate-600">No flaky cases in the last {windowRuns} runs.</p>
      ) : (
        <ul aria-label="Flaky cases" className="divide-y divide-slate-100 rounded-md border border-slate-200">
          {cases.map((c) => (
            <li key={c.test_case_id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-3 py-2 text-sm">
              <Link
                href={`/w/${workspaceId}/suites/${suiteId}/cases/${c.test_case_id}`}
                className="min-w-0 font-medium break-words text-indigo-700 hover:underline"
              >
                {c.name}
              </Link>
              <span className="text-slate-700 tabular-nums">
                <span className="font-semibold">{formatFlipRate(c.flip_rate)}</span> flip rate · {c.flips} flip{c.flips === 1 ? "" : "s"} in{" "}
                {c.results} results
              </span>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

/** A flip rate (0..1) as a whole percentage, "33%". */
const formatFlipRate = (rate: number) => `${Math.round(rate * 100)}%`;
