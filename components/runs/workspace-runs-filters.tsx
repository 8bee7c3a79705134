import { RUN_KINDS, RUN_STATUSES, RUN_TRIGGERS } from "@/lib/runs/schemas";
import { InputField, NamedOptions, Options } from "@/components/ui/field";
import { FilterForm, FilterSelect } from "@/components/ui/filter-form";
import { RUN_STATUS_LABELS } from "./status-badges";
import { TRIGGER_LABELS } from "./format";

const KIND_LABELS = { ordinary: "Suite runs", experiment: "Experiments", all: "All runs" } as const;

export type WorkspaceRunsRawFilters = { suite_id?: string; status?: string; trigger?: string; metadata?: string; kind?: string };

/** The Runs page's filters as a plain GET form: the URL holds them, so a filtered list can be shared as a link. */
export function WorkspaceRunsFilters({
  base,
  suites,
  raw,
  errors,
}: {
  base: string;
  suites: { id: string; name: string }[];
  raw: WorkspaceRunsRawFilters;
  errors: Record<string, string>;
}) {
  const filtered = Object.values(raw).some(Boolean);
  /** A filter's value from the URL and its message, and the parameter it is sent as (`name`, when not the filter's own). */
  const fromUrl = (key: keyof WorkspaceRunsRawFilters, name: string = key) => ({ name, defaultValue: raw[key] ?? "", error: errors[key] });
  return (
    <FilterForm base={base} label="Filter runs" filtered={filtered}>
      <FilterSelect id="runs-suite" label="Suite" className="max-w-full min-w-48" {...fromUrl("suite_id", "suite")}>
        <NamedOptions items={suites} none="All suites" />
      </FilterSelect>
      <FilterSelect id="runs-status" label="Status" {...fromUrl("status")}>
        <Options values={RUN_STATUSES} labels={RUN_STATUS_LABELS} none="Any status" />
      </FilterSelect>
      <FilterSelect id="runs-trigger" label="Trigger" {...fromUrl("trigger")}>
        <Options values={RUN_TRIGGERS} labels={(t) => TRIGGER_LABELS[t] ?? t} none="Any trigger" />
      </FilterSelect>
      <FilterSelect id="runs-kind" label="Runs" error={errors.kind} name="kind" defaultValue={raw.kind ?? "ordinary"}>
        <Options values={RUN_KINDS} labels={KIND_LABELS} />
      </FilterSelect>
      <InputField
        id="runs-metadata"
        label="Metadata"
        hint="key:value, for example branch:main"
        placeholder="branch:main"
        className="w-48"
        {...fromUrl("metadata")}
      />
    </FilterForm>
  );
}
