import Link from "next/link";
import type { AlertStatusFilter } from "@/lib/alerts/loaders";
import { Field, Select } from "@/components/ui/field";
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
          <option value="">All suites</option>
          {suites.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </Select>
      </Field>
      <Field id="alert-status" label="Status">
        <Select id="alert-status" name="status" defaultValue={filters.status}>
          {(Object.keys(STATUS_LABELS) as AlertStatusFilter[]).map((s) => (
            <option key={s} value={s}>
              {STATUS_LABELS[s]}
            </option>
          ))}
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
