"use client";
import { useId, useState } from "react";
import { useRouter } from "next/navigation";
import { startRunAction } from "@/lib/runs/actions";
import { DEFAULT_RUN_CONCURRENCY, MAX_RUN_CONCURRENCY } from "@/lib/runs/schemas";
import type { IssueList } from "@/lib/errors";
import { LaunchDialog, LaunchForm } from "@/components/ui/launch-dialog";
import type { VariableValue } from "@/lib/agents/schemas";
import type { RunVariablesContext } from "@/lib/presets/schemas";
import type { TestCaseVariables } from "@/lib/test-cases/variables";
import { RunVariablesFields } from "@/components/variables/run-variables-fields";
import { unreadableMessage } from "@/components/variables/unreadable";
import { ConcurrencyField } from "./concurrency-field";
import { CaseFilterFields, difficultyOf, type CaseFilter } from "./case-filter-fields";
import { FilteredTrialsField, TrialsField, trialsError } from "./trials-field";

/** What the run dialog needs of the suite it starts: where it is, its tags (to narrow the cases), its variables model and its default trials. */
export type SuiteLaunch = {
  workspaceId: string;
  suiteId: string;
  tags: string[];
  /** The agent's variables, the suite's values and presets: typed inputs instead of nothing. */
  variables?: RunVariablesContext;
  /** The suite's `default_trials`: the trials field's starting value (a chosen preset's trials replace it). */
  defaultTrials?: number;
};

/**
 * "Run suite": a dialog with the run options (active cases narrowed by tags and difficulty,
 * concurrency, trials per case with the agent executions they imply, run-level variable values
 * as typed inputs with their resolved value and source, presets), then starts a manual run and opens its page. With `caseIds` it runs exactly those
 * cases ("Run this case", "Run selected"); with one case it opens that case's live view.
 * Render it for editors only (or pass `canEdit={false}` and it renders nothing).
 */
export function StartRunButton({
  suite,
  canEdit = true,
  caseIds,
  caseConfig,
  label = "Run suite",
  buttonVariant = "primary",
  disabled: buttonDisabled = false,
}: {
  suite: SuiteLaunch;
  canEdit?: boolean;
  /** Run exactly these cases (any status) instead of the active ones narrowed by tags. */
  caseIds?: string[];
  /** With a single case: its own variable configuration (exposure, locks, restricted values). */
  caseConfig?: TestCaseVariables;
  label?: string;
  buttonVariant?: "primary" | "secondary";
  disabled?: boolean;
}) {
  const { workspaceId, suiteId, tags, variables: variablesContext, defaultTrials = 1 } = suite;
  const router = useRouter();
  const uid = useId();
  const [filter, setFilter] = useState<CaseFilter>({ tags: [], tag_match: "any", difficulty: "" });
  const [concurrency, setConcurrency] = useState(String(DEFAULT_RUN_CONCURRENCY));
  const [trials, setTrials] = useState(String(defaultTrials));
  const [variables, setVariables] = useState<Record<string, VariableValue>>({});
  const [error, setError] = useState<string | null>(null);
  const [issues, setIssues] = useState<IssueList>([]);
  const [busy, setBusy] = useState(false);
  const [unreadable, setUnreadable] = useState<string[]>([]);
  if (!canEdit) return null;

  const id = (name: string) => `${uid}-${name}`;
  const issueAt = (prefix: string) =>
    issues
      .filter((i) => i.path === prefix || i.path.startsWith(`${prefix}.`))
      .map((i) => (i.path.startsWith(`${prefix}.`) ? `${i.path.slice(prefix.length + 1)}: ${i.message}` : i.message))
      .join("; ") || undefined;
  const known = ["tags", "case_ids", "tag_match", "difficulty", "concurrency", "trials"];
  const variableErrors = Object.fromEntries(
    issues.filter((i) => i.path.startsWith("variables.")).map((i) => [i.path.slice("variables.".length).split(".")[0]!, i.message]),
  );
  const single = caseIds?.length === 1;
  // A variable's issue shows at its input (or, for one the agent does not declare, under the inputs), not twice.
  const otherIssues = issues.filter(
    (i) => !i.path.startsWith("variables.") && !known.some((k) => i.path === k || i.path.startsWith(`${k}.`)),
  );

  const submit: React.ComponentProps<typeof LaunchForm>["onSubmit"] = async (e, dialog) => {
    e.preventDefault();
    setError(null);
    setIssues([]);
    const n = Number(concurrency);
    if (concurrency.trim() === "" || !Number.isInteger(n) || n < 1 || n > MAX_RUN_CONCURRENCY) {
      setIssues([{ path: "concurrency", message: `Use a whole number from 1 to ${MAX_RUN_CONCURRENCY}` }]);
      return;
    }
    // The trials field shows its own message; nothing to send until it is a valid number.
    if (trialsError(trials)) return;
    // A variable box holding no value of its type (a number box holding "1e") is refused at it, not sent as unset.
    const unreadableIssues = unreadable.flatMap((name) => {
      const def = variablesContext?.definitions.find((d) => d.name === name);
      return def ? [{ path: `variables.${name}`, message: unreadableMessage(def) }] : [];
    });
    if (unreadableIssues.length > 0) {
      setIssues(unreadableIssues);
      return;
    }
    setBusy(true);
    try {
      const selection = caseIds
        ? { case_ids: caseIds }
        : { tags: filter.tags, tag_match: filter.tag_match, difficulty: difficultyOf(filter) };
      const result = await startRunAction(workspaceId, {
        suite_id: suiteId,
        options: { ...selection, concurrency: n, trials: Number(trials), variables },
      });
      if (!result.ok) {
        setError(result.error);
        setIssues(result.issues);
        return;
      }
      dialog.close();
      const runHref = `/w/${workspaceId}/runs/${result.data.id}`;
      // One case: its live case view (it follows the case until it finishes).
      const caseResultId = single ? await firstCaseResultId(workspaceId, result.data.id) : null;
      router.push(caseResultId ? `${runHref}/cases/${caseResultId}` : runHref);
    } finally {
      setBusy(false);
    }
  };

  const concurrencyField = (
    <ConcurrencyField
      unit="Cases"
      id={id("concurrency")}
      error={issueAt("concurrency")}
      value={concurrency}
      onChange={(e) => setConcurrency(e.target.value)}
    />
  );
  const trialsProps = { id: id("trials"), value: trials, onChange: setTrials, serverError: issueAt("trials") };

  return (
    <LaunchDialog
      label={label}
      variant={buttonVariant}
      disabled={buttonDisabled}
      description={
        caseIds
          ? `Runs ${single ? "this test case" : `the ${caseIds.length} selected test cases`} against the suite's agent.`
          : "Runs the suite's active test cases against its agent. Narrow the selection below."
      }
      onOpen={() => {
        setError(null);
        setIssues([]);
        setUnreadable([]);
        setTrials(String(defaultTrials));
      }}
    >
      {() => (
        <LaunchForm onSubmit={submit} pending={busy} error={error} issues={otherIssues.map((i) => i.message)} submitLabel="Start run">
          {caseIds ? (
            <>
              {issueAt("case_ids") && <p className="text-xs text-red-600">{issueAt("case_ids")}</p>}
              <div className="grid gap-4 sm:grid-cols-2">
                {concurrencyField}
                <TrialsField {...trialsProps} cases={caseIds.length} />
              </div>
            </>
          ) : (
            <CaseFilterFields
              id={uid}
              tags={tags}
              value={filter}
              onChange={setFilter}
              errors={{ tags: issueAt("tags") ?? issueAt("case_ids"), difficulty: issueAt("difficulty") }}
              summary={filter.tags.length === 0 ? "No tag selected: every active case runs." : `${filter.tags.length} selected.`}
            >
              {concurrencyField}
              <FilteredTrialsField {...trialsProps} workspaceId={workspaceId} suiteId={suiteId} filter={filter} />
            </CaseFilterFields>
          )}
          {variablesContext && (
            <RunVariablesFields
              context={variablesContext}
              value={variables}
              onChange={setVariables}
              errors={variableErrors}
              caseConfig={single ? caseConfig : undefined}
              onPreset={(preset) => setTrials(String(preset.trials ?? defaultTrials))}
              onUnreadable={(name, bad) => setUnreadable((names) => [...names.filter((n) => n !== name), ...(bad ? [name] : [])])}
            />
          )}
          {issues.some(
            (i) => i.path.startsWith("variables.") && !variablesContext?.definitions.some((d) => `variables.${d.name}` === i.path),
          ) && (
            <p className="text-xs text-red-600">
              {issues
                .filter((i) => i.path.startsWith("variables."))
                .map((i) => `${i.path.slice(10)}: ${i.message}`)
                .join("; ")}
            </p>
          )}
        </LaunchForm>
      )}
    </LaunchDialog>
  );
}

/** The first case result of a run (a one-case run has exactly one), via the browser's JSON route. */
async function firstCaseResultId(workspaceId: string, runId: string): Promise<string | null> {
  try {
    const res = await fetch(`/api/w/${workspaceId}/runs/${runId}/results?limit=1`, { headers: { accept: "application/json" } });
    if (!res.ok) return null;
    const body = (await res.json()) as { data?: { id: string }[] };
    return body.data?.[0]?.id ?? null;
  } catch {
    return null;
  }
}
