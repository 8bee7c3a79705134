import { draftSuitesAction } from "@/lib/traffic/actions";
import { Field, Select } from "@/components/ui/field";

type DraftSuite = { id: string; name: string; agent_name: string; has_judge: boolean };

/** The suites a case can be drafted into, loaded when a draft dialog first opens (one cache entry for both dialogs). */
export const draftSuiteOptions = (workspaceId: string) => ({
  queryKey: ["draft-suites", workspaceId],
  action: () => draftSuitesAction(workspaceId, {}),
  what: "The suites",
  loading: "Loading the suites…",
});

/**
 * The suite a case is drafted into (the Make-a-test-case and bulk dialogs): "suite · agent",
 * marked when the suite has no judge model to draft personas with; a note instead of an empty
 * list when the workspace has no suite.
 */
export function DraftSuiteField({
  id,
  suites,
  value,
  onChange,
}: {
  id: string;
  suites: DraftSuite[];
  value: string;
  onChange: (suiteId: string) => void;
}) {
  if (suites.length === 0) {
    return <p className="text-sm text-slate-600">This workspace has no suite yet: create one for the agent first.</p>;
  }
  return (
    <Field id={id} label="Suite">
      <Select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {suites.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name} · {s.agent_name}
            {s.has_judge ? "" : " (no judge model)"}
          </option>
        ))}
      </Select>
    </Field>
  );
}
