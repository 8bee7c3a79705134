"use client";
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { bulkStatusAction, bulkTagsAction } from "@/lib/test-cases/actions";
import type { TestCaseStatus } from "@/lib/test-cases/schemas";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/field";

type Outcome = { tone: "ok" | "error"; text: string; details: string[] };

/** Status and tag changes for the selected cases; skipped cases are listed with their reason. */
export function BulkActions({
  workspaceId,
  suiteId,
  selected,
  names,
  suiteTags,
  onClear,
}: {
  workspaceId: string;
  suiteId: string;
  selected: string[];
  names: Map<string, string>;
  suiteTags: string[];
  onClear: () => void;
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [tag, setTag] = useState("");
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const none = selected.length === 0;
  const plural = (n: number) => `${n} test case${n === 1 ? "" : "s"}`;

  const setStatus = (status: TestCaseStatus) =>
    startTransition(async () => {
      setOutcome(null);
      const r = await bulkStatusAction(workspaceId, { suite_id: suiteId, ids: selected, status });
      if (!r.ok) return setOutcome({ tone: "error", text: r.error, details: r.issues.map((i) => i.message) });
      setOutcome({
        tone: r.data.skipped.length > 0 ? "error" : "ok",
        text: `Updated ${plural(r.data.updated)}.${r.data.skipped.length > 0 ? ` Skipped ${r.data.skipped.length}:` : ""}`,
        details: r.data.skipped.map((s) => `${names.get(s.id) ?? s.id} — ${s.reason}`),
      });
      router.refresh();
    });

  const changeTag = (mode: "add" | "remove") =>
    startTransition(async () => {
      const t = tag.trim();
      if (!t) return setOutcome({ tone: "error", text: "Type a tag first", details: [] });
      setOutcome(null);
      const r = await bulkTagsAction(workspaceId, {
        suite_id: suiteId,
        ids: selected,
        add: mode === "add" ? [t] : [],
        remove: mode === "remove" ? [t] : [],
      });
      if (!r.ok) return setOutcome({ tone: "error", text: r.issues[0]?.message ?? r.error, details: [] });
      const untouched = selected.length - r.data.updated;
      setOutcome({
        tone: "ok",
        text: `${mode === "add" ? `Added "${t}" to` : `Removed "${t}" from`} ${plural(r.data.updated)}.${untouched > 0 ? ` ${untouched} archived case${untouched === 1 ? " was" : "s were"} left unchanged (read-only).` : ""}`,
        details: [],
      });
      setTag("");
      router.refresh();
    });

  return (
    <div className="space-y-2 rounded-lg border border-indigo-200 bg-indigo-50/50 px-4 py-3" role="region" aria-label="Bulk actions">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm font-medium text-slate-800" aria-live="polite">
          {none ? "Select cases to change them together" : `${plural(selected.length)} selected`}
        </span>
        {!none && (
          <Button size="sm" variant="ghost" onClick={onClear}>
            Clear selection
          </Button>
        )}
        <div className="flex flex-wrap gap-1.5" role="group" aria-label="Set status of selected">
          <Button size="sm" variant="secondary" disabled={none || pending} onClick={() => setStatus("active")}>
            Activate selected
          </Button>
          <Button size="sm" variant="secondary" disabled={none || pending} onClick={() => setStatus("draft")}>
            Move selected to draft
          </Button>
          <Button size="sm" variant="secondary" disabled={none || pending} onClick={() => setStatus("archived")}>
            Archive selected
          </Button>
        </div>
        <div className="flex items-center gap-1.5">
          <label htmlFor="bulk-tag" className="text-sm text-slate-700">
            Tag
          </label>
          <div className="w-40">
            <Input
              id="bulk-tag"
              list="bulk-tag-suggestions"
              className="py-1"
              value={tag}
              onChange={(e) => setTag(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter" && !none) {
                  e.preventDefault();
                  changeTag("add");
                }
              }}
            />
          </div>
          <datalist id="bulk-tag-suggestions">
            {suiteTags.map((t) => (
              <option key={t} value={t} />
            ))}
          </datalist>
          <Button size="sm" variant="secondary" className="whitespace-nowrap" disabled={none || pending} onClick={() => changeTag("add")}>
            Add tag
          </Button>
          <Button
            size="sm"
            variant="secondary"
            className="whitespace-nowrap"
            disabled={none || pending}
            onClick={() => changeTag("remove")}
          >
            Remove tag
          </Button>
        </div>
      </div>
      {outcome && (
        <div role="status" className={outcome.tone === "ok" ? "text-sm text-green-800" : "text-sm text-amber-800"}>
          <p>{outcome.text}</p>
          {outcome.details.length > 0 && (
            <ul className="mt-1 list-disc pl-5">
              {outcome.details.map((d, i) => (
                <li key={i}>{d}</li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
