import type { AlertStatusFilter } from "@/lib/alerts/loaders";
import { Field, NamedOptions, Options, Select } from "@/components/ui/field";
import { FilterForm } from "@/components/ui/filter-form";

const STATUS_LABELS: Record<AlertStatusFilter, string> = { open: "Open", acknowledged: "Acknowledged", all: "All" };

/** Suite and acknowledged filters of the alerts page. */
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
    <FilterForm base={base} label="Filter alerts" filtered={!!filters.suite || filters.status !== "open"}>
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
    </FilterForm>
  );
}
