"use client";
import { useId, useState } from "react";
import { useRouter } from "next/navigation";
import { compareCombinationsAction } from "@/lib/matrices/actions";
import type { CombinationDto } from "@/lib/matrices/dto";
import { Section } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { Field, FormError, Select } from "@/components/ui/field";
import { shortName } from "./format";

/**
 * "Compare": two selects of completed combinations; creates a compare-two-runs A/B comparison of
 * their runs and opens it (latency and token diffs pair by pair, verdict changes, statistics).
 */
export function CompareCombinations({
  workspaceId,
  matrixId,
  combinations,
}: {
  workspaceId: string;
  matrixId: string;
  combinations: CombinationDto[];
}) {
  const router = useRouter();
  const uid = useId();
  const completed = combinations.filter((c) => c.status === "completed");
  const [a, setA] = useState<string>("");
  const [b, setB] = useState<string>("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const baseline = a || (completed[0] ? String(completed[0].index) : "");
  const variant = b || (completed[1] ? String(completed[1].index) : "");
  const canCompare = completed.length >= 2 && baseline !== "" && variant !== "" && baseline !== variant;

  const compare = async () => {
    setPending(true);
    setError(null);
    const result = await compareCombinationsAction(workspaceId, {
      matrix_id: matrixId,
      baseline_index: Number(baseline),
      variant_index: Number(variant),
    });
    if (!result.ok) {
      setPending(false);
      setError([result.error, ...result.issues.map((i) => i.message)].join(": "));
      return;
    }
    router.push(`/w/${workspaceId}/comparisons/${result.data.id}`);
  };

  const options = completed.map((c) => (
    <option key={c.index} value={String(c.index)}>
      {shortName(c.index)}: {c.label}
    </option>
  ));
  return (
    <Section title="Compare two combinations" description="Opens an A/B comparison of their runs, case by case." className="p-4">
      {completed.length < 2 ? (
        <p className="text-sm text-slate-500">Available once two combinations have completed.</p>
      ) : (
        <div className="flex flex-wrap items-end gap-3">
          <Field id={`${uid}-a`} label="Baseline (A)" className="min-w-56">
            <Select id={`${uid}-a`} value={baseline} onChange={(e) => setA(e.target.value)}>
              {options}
            </Select>
          </Field>
          <Field id={`${uid}-b`} label="Variant (B)" className="min-w-56">
            <Select id={`${uid}-b`} value={variant} onChange={(e) => setB(e.target.value)}>
              {options}
            </Select>
          </Field>
          <Button onClick={compare} disabled={!canCompare || pending}>
            {pending ? "Comparing…" : "Compare"}
          </Button>
        </div>
      )}
      {baseline !== "" && baseline === variant && <p className="mt-2 text-xs text-amber-700">Pick two different combinations.</p>}
      <div className="mt-2">
        <FormError message={error} />
      </div>
    </Section>
  );
}
