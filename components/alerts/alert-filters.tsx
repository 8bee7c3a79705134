import Link from "next/link";
import type { AlertStatusFilter } from "@/lib/alerts/loaders";
import { Field, NamedOptions, Options, Select } from "@/components/ui/field";
import { buttonClass } from "@/components/ui/button";

const STATUS_LABELS: Record<AlertStatusFilter, string> = { open: "Open", acknowledged: "Acknowledged", all: "All" };

/** Suite and acknowledged filters as a plain GET form: the URL holds the filter, no script needed. */
export function AlertFilters({
  base,
  suites,
  filters,
}: {
  base: string;
  suites: { id: string; name: string }[];
  filters: { suite: string | null; status: AlertStatusFilter };
}) {
  return (
    <form method="get" action={base} role="search" aria-label="Filter alerts" className="flex flex-wrap items-end gap-3">
      <Field id="alert-suite" label="Suite">
        <Select id="alert-suite" name="suite" defaultValue={filters.suite ?? ""} className="min-w-56">
          <NamedOptions items={suites} none="All suites" />
        </Select>
      </Field>
      <Field id="alert-status" label="Status">
        <Select id="alert-status" name="status" defaultValue={filters.status}>
          <Options values={Object.keys(STATUS_LABELS) as AlertStatusFilter[]} labels={STATUS_LABELS} />
        </Select>
      </Field>
      <button type="submit" className={buttonClass("secondary")}>
        Filter
      </button>
      {(filters.suite || filters.status !== "open") && (
        <Link href={base} className="pb-2 text-sm text-indigo-700 hover:underline">
          Reset
        </Link>
      )}
    </form>
  );
}
