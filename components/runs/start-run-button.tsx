"use client";
import { useId, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { startRunAction } from "@/lib/runs/actions";
import { DEFAULT_RUN_CONCURRENCY, MAX_RUN_CONCURRENCY } from "@/lib/runs/schemas";
import { DIFFICULTIES } from "@/lib/test-cases/schemas";
import type { IssueList } from "@/lib/errors";
import { Button } from "@/components/ui/button";
import { Field, FormError, Input, Select } from "@/components/ui/field";
import type { VariableValue } from "@/lib/agents/schemas";
import type { RunVariablesContext } from "@/lib/presets/schemas";
import type { TestCaseVariables } from "@/lib/test-cases/variables";
import { RunVariablesFields } from "@/components/variables/run-variables-fields";

type Difficulty = (typeof DIFFICULTIES)[number];

/**
 * "Run suite": a dialog with the run options (active cases narrowed by tags and difficulty,
 * concurrency, run-level variable values as typed inputs with their resolved value and source,
 * presets), then starts a manual run and opens its page. With `caseIds` it runs exactly those
 * cases ("Run this case", "Run selected"); with one case it opens that case's live view.
 * Render it for editors only (or pass `canEdit={false}` and it renders nothing).
 */
export function StartRunButton({
  workspaceId,
  suiteId,
  tags,
  canEdit = true,
  variablesContext,
  caseIds,
  caseConfig,
  label = "Run suite",
  buttonVariant = "primary",
  disabled: buttonDisabled = false,
}: {
  workspaceId: string;
  suiteId: string;
  tags: string[];
  canEdit?: boolean;
  /** The agent's variables, the suite's values and presets: typed inputs instead of nothing. */
  variablesContext?: RunVariablesContext;
  /** Run exactly these cases (any status) instead of the active ones narrowed by tags. */
  caseIds?: string[];
  /** With a single case: its own variable configuration (exposure, locks, restricted values). */
  caseConfig?: TestCaseVariables;
  label?: string;
  buttonVariant?: "primary" | "secondary";
  disabled?: boolean;
}) {
  const router = useRouter();
  const ref = useRef<HTMLDialogElement>(null);
  const uid = useId();
  const [selected, setSelected] = useState<string[]>([]);
  const [tagMatch, setTagMatch] = useState<"any" | "all">("any");
  const [difficulty, setDifficulty] = useState<Difficulty | "">("");
  const [concurrency, setConcurrency] = useState(String(DEFAULT_RUN_CONCURRENCY));
  const [variables, setVariables] = useState<Record<string, VariableValue>>({});
  const [error, setError] = useState<string | null>(null);
  const [issues, setIssues] = useState<IssueList>([]);
  const [busy, setBusy] = useState(false);
  if (!canEdit) return null;

  const id = (name: string) => `${uid}-${name}`;
  const issueAt = (prefix: string) =>
    issues
      .filter((i) => i.path === prefix || i.path.startsWith(`${prefix}.`))
      .map((i) => (i.path.startsWith(`${prefix}.`) ? `${i.path.slice(prefix.length + 1)}: ${i.message}` : i.message))
      .join("; ") || undefined;
  const known = ["tags", "case_ids", "tag_match", "difficulty", "concurrency"];
  const variableErrors = Object.fromEntries(
    issues.filter((i) => i.path.startsWith("variables.")).map((i) => [i.path.slice("variables.".length).split(".")[0]!, i.message]),
  );
  const single = caseIds?.length === 1;
  const otherIssues = issues.filter((i) => !known.some((k) => i.path === k || i.path.startsWith(`${k}.`)));

  const open = () => {
    setError(null);
    setIssues([]);
    ref.current?.showModal();
  };
  const toggleTag = (tag: string) => setSelected((s) => (s.includes(tag) ? s.filter((t) => t !== tag) : [...s, tag]));

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    setIssues([]);
    const n = Number(concurrency);
    if (concurrency.trim() === "" || !Number.isInteger(n) || n < 1 || n > MAX_RUN_CONCURRENCY) {
      setIssues([{ path: "concurrency", message: `Use a whole number from 1 to ${MAX_RUN_CONCURRENCY}` }]);
      return;
    }
    setBusy(true);
    try {
      const selection = caseIds ? { case_ids: caseIds } : { tags: selected, tag_match: tagMatch, difficulty: difficulty || null };
      const result = await startRunAction(workspaceId, {
        suite_id: suiteId,
        options: { ...selection, concurrency: n, variables },
      });
      if (!result.ok) {
        setError(result.error);
        setIssues(result.issues);
        return;
      }
      ref.current?.close();
      const runHref = `/w/${workspaceId}/runs/${result.data.id}`;
      // One case: its live case view (it follows the case until it finishes).
      const caseResultId = single ? await firstCaseResultId(workspaceId, result.data.id) : null;
      router.push(caseResultId ? `${runHref}/cases/${caseResultId}` : runHref);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button onClick={open} variant={buttonVariant} disabled={buttonDisabled}>
        {label}
      </Button>
      <dialog ref={ref} aria-labelledby={id("title")} className="m-auto w-full max-w-lg rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40">
        <form onSubmit={submit} className="space-y-4 p-5" noValidate>
          <div>
            <h2 id={id("title")} className="text-base font-semibold">
              {label}
            </h2>
            <p className="mt-1 text-sm text-slate-600">
              {caseIds
                ? `Runs ${single ? "this test case" : `the ${caseIds.length} selected test cases`} against the suite's agent.`
                : "Runs the suite's active test cases against its agent. Narrow the selection below."}
            </p>
          </div>
          {caseIds ? (
            issueAt("case_ids") && <p className="text-xs text-red-600">{issueAt("case_ids")}</p>
          ) : (
            <fieldset className="space-y-2" aria-describedby={issueAt("tags") || issueAt("case_ids") ? id("tags-error") : undefined}>
              <legend className="text-sm font-medium text-slate-700">Tags</legend>
              {tags.length === 0 ? (
                <p className="text-xs text-slate-500">This suite&apos;s cases have no tags.</p>
              ) : (
                <div className="flex max-h-36 flex-wrap gap-x-4 gap-y-1 overflow-y-auto rounded-md border border-slate-200 p-2">
                  {tags.map((tag) => (
                    <label key={tag} className="inline-flex items-center gap-1.5 text-sm">
                      <input type="checkbox" checked={selected.includes(tag)} onChange={() => toggleTag(tag)} />
                      {tag}
                    </label>
                  ))}
                </div>
              )}
              {selected.length > 1 && (
                <div className="flex gap-4 text-sm" role="radiogroup" aria-label="Tag match">
                  <label className="inline-flex items-center gap-1.5">
                    <input type="radio" name={id("match")} checked={tagMatch === "any"} onChange={() => setTagMatch("any")} />
                    Any of these tags
                  </label>
                  <label className="inline-flex items-center gap-1.5">
                    <input type="radio" name={id("match")} checked={tagMatch === "all"} onChange={() => setTagMatch("all")} />
                    All of these tags
                  </label>
                </div>
              )}
              {(issueAt("tags") || issueAt("case_ids")) && (
                <p id={id("tags-error")} className="text-xs text-red-600">
                  {issueAt("tags") ?? issueAt("case_ids")}
                </p>
              )}
              <p className="text-xs text-slate-500">
                {selected.length === 0 ? "No tag selected: every active case runs." : `${selected.length} selected.`}
              </p>
            </fieldset>
          )}
          <div className="grid grid-cols-2 gap-4">
            {!caseIds && (
              <Field id={id("difficulty")} label="Difficulty" error={issueAt("difficulty")}>
                <Select id={id("difficulty")} value={difficulty} onChange={(e) => setDifficulty(e.target.value as Difficulty | "")}>
                  <option value="">Any difficulty</option>
                  {DIFFICULTIES.map((d) => (
                    <option key={d} value={d}>
                      {d[0]!.toUpperCase() + d.slice(1)}
                    </option>
                  ))}
                </Select>
              </Field>
            )}
            <Field
              id={id("concurrency")}
              label="Concurrency"
              hint={`Cases at once, 1–${MAX_RUN_CONCURRENCY}`}
              error={issueAt("concurrency")}
            >
              <Input
                id={id("concurrency")}
                type="number"
                inputMode="numeric"
                min={1}
                max={MAX_RUN_CONCURRENCY}
                value={concurrency}
                onChange={(e) => setConcurrency(e.target.value)}
                aria-invalid={Boolean(issueAt("concurrency"))}
              />
            </Field>
          </div>
          {variablesContext && (
            <RunVariablesFields
              context={variablesContext}
              value={variables}
              onChange={setVariables}
              errors={variableErrors}
              caseConfig={single ? caseConfig : undefined}
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
          <FormError message={error} />
          {otherIssues.length > 0 && (
            <ul className="list-disc pl-5 text-xs text-red-600">
              {otherIssues.map((i) => (
                <li key={`${i.path}-${i.message}`}>{i.message}</li>
              ))}
            </ul>
          )}
          <div className="flex justify-end gap-2 pt-1">
            <Button variant="secondary" onClick={() => ref.current?.close()} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? "Starting…" : "Start run"}
            </Button>
          </div>
        </form>
      </dialog>
    </>
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
