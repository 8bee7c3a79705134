"use client";
import { useId, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { startRunAction } from "@/lib/runs/actions";
import { DEFAULT_RUN_CONCURRENCY, MAX_RUN_CONCURRENCY } from "@/lib/runs/schemas";
import { DIFFICULTIES } from "@/lib/test-cases/schemas";
import type { IssueList } from "@/lib/errors";
import { Button } from "@/components/ui/button";
import { Field, FormError, Input, Select, Textarea } from "@/components/ui/field";

type Difficulty = (typeof DIFFICULTIES)[number];

/**
 * "Run suite": a dialog with the run options (active cases narrowed by tags and difficulty,
 * concurrency, run-level variable values), then starts a manual run and opens its page.
 * Render it for editors only (or pass `canEdit={false}` and it renders nothing).
 */
export function StartRunButton({
  workspaceId,
  suiteId,
  tags,
  canEdit = true,
}: {
  workspaceId: string;
  suiteId: string;
  tags: string[];
  canEdit?: boolean;
}) {
  const router = useRouter();
  const ref = useRef<HTMLDialogElement>(null);
  const uid = useId();
  const [selected, setSelected] = useState<string[]>([]);
  const [tagMatch, setTagMatch] = useState<"any" | "all">("any");
  const [difficulty, setDifficulty] = useState<Difficulty | "">("");
  const [concurrency, setConcurrency] = useState(String(DEFAULT_RUN_CONCURRENCY));
  const [variables, setVariables] = useState("");
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
  const known = ["tags", "case_ids", "tag_match", "difficulty", "concurrency", "variables"];
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
    let values: Record<string, unknown> = {};
    if (variables.trim() !== "") {
      let parsed: unknown;
      try {
        parsed = JSON.parse(variables);
      } catch {
        parsed = undefined;
      }
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
        setIssues([{ path: "variables", message: 'Enter a JSON object, e.g. {"Temperature": 0.2}' }]);
        return;
      }
      values = parsed as Record<string, unknown>;
    }
    setBusy(true);
    try {
      const result = await startRunAction(workspaceId, {
        suite_id: suiteId,
        options: { tags: selected, tag_match: tagMatch, difficulty: difficulty || null, concurrency: n, variables: values },
      });
      if (!result.ok) {
        setError(result.error);
        setIssues(result.issues);
        return;
      }
      ref.current?.close();
      router.push(`/w/${workspaceId}/runs/${result.data.id}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button onClick={open}>Run suite</Button>
      <dialog ref={ref} aria-labelledby={id("title")} className="m-auto w-full max-w-lg rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40">
        <form onSubmit={submit} className="space-y-4 p-5" noValidate>
          <div>
            <h2 id={id("title")} className="text-base font-semibold">
              Run suite
            </h2>
            <p className="mt-1 text-sm text-slate-600">
              Runs the suite&apos;s active test cases against its agent. Narrow the selection below.
            </p>
          </div>
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
          <div className="grid grid-cols-2 gap-4">
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
          <Field
            id={id("variables")}
            label="Variable values (optional)"
            hint='A JSON object of run-level values; they override the suite and agent defaults, e.g. {"Temperature": 0.2}'
            error={issueAt("variables")}
          >
            <Textarea
              id={id("variables")}
              value={variables}
              onChange={(e) => setVariables(e.target.value)}
              className="font-mono text-xs"
              rows={3}
              aria-invalid={Boolean(issueAt("variables"))}
            />
          </Field>
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
