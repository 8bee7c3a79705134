"use client";
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import type { VariableValue } from "@/lib/agents/schemas";
import type { IssueList } from "@/lib/errors";
import type { RunVariablesContext } from "@/lib/presets/schemas";
import { createPresetAction, deletePresetAction, updatePresetAction } from "@/lib/presets/actions";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormError, InputField } from "@/components/ui/field";
import { NumberField } from "@/components/ui/number-field";
import { MAX_TRIALS } from "@/lib/runs/schemas";
import { VariableFields } from "@/components/suites/variable-fields";
import { formatVariableValue } from "./source-badge";

type Preset = RunVariablesContext["presets"][number];
/** `trials` as typed: "" means the suite's default trials. */
type Draft = { id: string | null; name: string; values: Record<string, VariableValue>; trials: string };

/** The typed trials as the action takes them: empty → null (the suite's default); anything else a number for zod to check. */
const trialsValue = (text: string) => (text.trim() === "" ? null : Number(text));

/**
 * Suite settings: the suite's variable presets (the variables model), named sets of run values
 * that the run and Compare dialogs offer and `POST …/runs` accepts as `preset`.
 */
export function PresetsManager({
  workspaceId,
  suiteId,
  context,
  canEdit,
}: {
  workspaceId: string;
  suiteId: string;
  context: RunVariablesContext;
  canEdit: boolean;
}) {
  const router = useRouter();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [issues, setIssues] = useState<IssueList>([]);
  const [pending, startTransition] = useTransition();

  const edit = (p: Preset | null) => {
    setError(null);
    setIssues([]);
    setDraft(
      p
        ? { id: p.id, name: p.name, values: p.values, trials: p.trials === null ? "" : String(p.trials) }
        : { id: null, name: "", values: {}, trials: "" },
    );
  };
  const save = () =>
    startTransition(async () => {
      if (!draft) return;
      const body = { name: draft.name, values: draft.values, trials: trialsValue(draft.trials) };
      const result = draft.id
        ? await updatePresetAction(workspaceId, { id: draft.id, patch: body })
        : await createPresetAction(workspaceId, { suite_id: suiteId, preset: body });
      if (!result.ok) {
        setError(result.error);
        setIssues(result.issues);
        return;
      }
      setDraft(null);
      router.refresh();
    });
  const remove = (p: Preset) =>
    startTransition(async () => {
      if (!window.confirm(`Delete the preset "${p.name}"?`)) return;
      const result = await deletePresetAction(workspaceId, { id: p.id });
      if (!result.ok) setError(result.error);
      router.refresh();
    });

  const valueErrors = Object.fromEntries(
    issues.filter((i) => i.path.startsWith("values.")).map((i) => [i.path.slice("values.".length), i.message]),
  );
  const nameError = issues.find((i) => i.path === "name")?.message;
  const trialsError = issues.find((i) => i.path === "trials")?.message;

  return (
    <Card className="mt-6 max-w-3xl space-y-4 p-5" aria-labelledby="presets-title">
      <div className="flex items-start justify-between gap-4">
        <div>
          <h2 id="presets-title" className="text-base font-semibold">
            Variable presets
          </h2>
          <p className="text-sm text-slate-600">
            Named sets of run values (e.g. &quot;model B, cold&quot;), optionally with the trials per case, to pick when starting a run or a
            comparison, or with the CLI&apos;s --preset.
          </p>
        </div>
        {canEdit && !draft && context.definitions.length > 0 && (
          <Button variant="secondary" size="sm" onClick={() => edit(null)}>
            New preset
          </Button>
        )}
      </div>
      {context.definitions.length === 0 && <p className="text-sm text-slate-500">The suite&apos;s agent declares no variables.</p>}
      {context.presets.length === 0 && context.definitions.length > 0 && !draft && (
        <p className="text-sm text-slate-500">No presets yet.</p>
      )}
      {context.presets.length > 0 && (
        <ul className="divide-y divide-slate-100 rounded-md border border-slate-200" aria-label="Presets">
          {context.presets.map((p) => (
            <li key={p.id} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
              <div className="min-w-0">
                <p className="font-medium">{p.name}</p>
                <p className="truncate text-xs text-slate-600">
                  {Object.entries(p.values)
                    .map(([k, v]) => `${k} = ${formatVariableValue(v)}`)
                    .join(" · ") || "No values"}
                  {p.trials !== null && ` · ${p.trials} trial${p.trials === 1 ? "" : "s"}`}
                </p>
              </div>
              {canEdit && (
                <div className="flex shrink-0 gap-2">
                  <Button variant="ghost" size="sm" onClick={() => edit(p)} aria-label={`Edit preset ${p.name}`} disabled={pending}>
                    Edit
                  </Button>
                  <Button variant="ghost" size="sm" onClick={() => remove(p)} aria-label={`Delete preset ${p.name}`} disabled={pending}>
                    Delete
                  </Button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {draft && (
        <div className="space-y-3 rounded-md border border-slate-200 p-4">
          <InputField
            id="preset-name"
            label="Preset name"
            error={nameError}
            value={draft.name}
            onChange={(e) => setDraft({ ...draft, name: e.target.value })}
          />
          <NumberField
            id="preset-trials"
            label="Trials (optional)"
            hint={`Times each case runs in a run with this preset (1–${MAX_TRIALS}); empty: the suite's default trials`}
            error={trialsError}
            min={1}
            max={MAX_TRIALS}
            step={1}
            inputMode="numeric"
            value={draft.trials}
            onChange={(e) => setDraft({ ...draft, trials: e.target.value })}
          />
          <VariableFields
            definitions={context.definitions}
            value={draft.values}
            onChange={(values) => setDraft({ ...draft, values })}
            errors={valueErrors}
            disabled={pending}
          />
          <FormError message={error} />
          <div className="flex gap-2">
            <Button onClick={save} disabled={pending}>
              {pending ? "Saving…" : draft.id ? "Save preset" : "Add preset"}
            </Button>
            <Button variant="secondary" onClick={() => setDraft(null)} disabled={pending}>
              Cancel
            </Button>
          </div>
        </div>
      )}
      {!draft && error && <FormError message={error} />}
    </Card>
  );
}
