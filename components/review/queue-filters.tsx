import { NamedOptions, Options } from "@/components/ui/field";
import { FilterForm, FilterSelect } from "@/components/ui/filter-form";
import { REVIEW_ITEM_STATUSES } from "@/lib/review/schemas";
import { STATUS_LABELS, type QueueFilters } from "./format";

const STATUS_FILTERS = [...REVIEW_ITEM_STATUSES, "all"] as const;
const FILTER_LABELS = { ...STATUS_LABELS, all: "All" };

function Check({ name, label, checked }: { name: string; label: string; checked: boolean }) {
  return (
    <label className="flex items-center gap-2 pb-2 text-sm text-slate-700">
      <input type="checkbox" name={name} value="1" defaultChecked={checked} className="h-4 w-4 rounded border-slate-300" />
      {label}
    </label>
  );
}

/** The queue's filters as a plain GET form: the URL holds them, so the labelling view can keep them. */
export function QueueFilterForm({
  base,
  suites,
  filters,
}: {
  base: string;
  suites: { id: string; name: string }[];
  filters: QueueFilters;
}) {
  const filtered = filters.status !== "open" || !!(filters.suite || filters.run || filters.mine || filters.todo || filters.overturned);
  return (
    <FilterForm base={base} label="Filter review items" filtered={filtered} className="gap-x-4 gap-y-2">
      <FilterSelect id="review-status" label="Status" name="status" defaultValue={filters.status}>
        <Options values={STATUS_FILTERS} labels={FILTER_LABELS} />
      </FilterSelect>
      <FilterSelect id="review-suite" label="Suite" name="suite" defaultValue={filters.suite ?? ""} className="min-w-48">
        <NamedOptions items={suites} none="All suites" />
      </FilterSelect>
      {filters.run && <input type="hidden" name="run" value={filters.run} />}
      <Check name="mine" label="Assigned to me" checked={filters.mine} />
      <Check name="todo" label="Waiting for me" checked={filters.todo} />
      <Check name="overturned" label="Disagreements" checked={filters.overturned} />
    </FilterForm>
  );
}
