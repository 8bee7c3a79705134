import Link from "next/link";
import { RUN_KINDS, RUN_STATUSES, RUN_TRIGGERS } from "@/lib/runs/schemas";
import { Field, Input, NamedOptions, Options, Select } from "@/components/ui/field";
import { buttonClass } from "@/components/ui/button";
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
  return (
    <form method="get" action={base} role="search" aria-label="Filter runs" className="flex flex-wrap items-end gap-3">
      <Field id="runs-suite" label="Suite" error={errors.suite_id}>
        <Select id="runs-suite" name="suite" defaultValue={raw.suite_id ?? ""} className="max-w-full min-w-48">
          <NamedOptions items={suites} none="All suites" />
        </Select>
      </Field>
      <Field id="runs-status" label="Status" error={errors.status}>
        <Select id="runs-status" name="status" defaultValue={raw.status ?? ""}>
          <Options values={RUN_STATUSES} labels={RUN_STATUS_LABELS} none="Any status" />
        </Select>
      </Field>
      <Field id="runs-trigger" label="Trigger" error={errors.trigger}>
        <Select id="runs-trigger" name="trigger" defaultValue={raw.trigger ?? ""}>
          <Options values={RUN_TRIGGERS} labels={(t) => TRIGGER_LABELS[t] ?? t} none="Any trigger" />
        </Select>
      </Field>
      <Field id="runs-kind" label="Runs" error={errors.kind}>
        <Select id="runs-kind" name="kind" defaultValue={raw.kind ?? "ordinary"}>
          <Options values={RUN_KINDS} labels={KIND_LABELS} />
        </Select>
      </Field>
      <Field id="runs-metadata" label="Metadata" hint="key:value, for example branch:main" error={errors.metadata}>
        <Input
          id="runs-metadata"
          name="metadata"
          defaultValue={raw.metadata ?? ""}
          placeholder="branch:main"
          aria-invalid={!!errors.metadata}
          className="w-48"
        />
      </Field>
      <button type="submit" className={buttonClass("secondary")}>
        Filter
      </button>
      {filtered && (
        <Link href={base} className="pb-2 text-sm text-indigo-700 hover:underline">
          Reset
        </Link>
      )}
    </form>
  );
}
