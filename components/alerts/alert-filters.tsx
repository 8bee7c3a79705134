import type { AlertStatusFilter } from "@/lib/alerts/loaders";
import { NamedOptions, Options } from "@/components/ui/field";
import { FilterForm, FilterSelect } from "@/components/ui/filter-form";

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
      <FilterSelect id="alert-suite" label="Suite" name="suite" defaultValue={filters.suite ?? ""} className="min-w-56">
        <NamedOptions items={suites} none="All suites" />
      </FilterSelect>
      <FilterSelect id="alert-status" label="Status" name="status" defaultValue={filters.status}>
        <Options values={Object.keys(STATUS_LABELS) as AlertStatusFilter[]} labels={STATUS_LABELS} />
      </FilterSelect>
    </FilterForm>
  );
}
