"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Field, Input, Select } from "@/components/ui/field";
import { hasFilters, listHref, type ListFilters } from "@/lib/test-cases/list-url";
import { ToggleChip } from "@/components/ui/toggle-chip";

/** Tag (any/all), difficulty and text search filters; every change updates the URL. */
export function CaseFilters({ base, filters, suiteTags }: { base: string; filters: ListFilters; suiteTags: string[] }) {
  const router = useRouter();
  const go = useCallback((next: ListFilters) => router.replace(listHref(base, next), { scroll: false }), [router, base]);
  const latest = useRef(filters);
  useEffect(() => {
    latest.current = filters;
  });

  // The controls answer at once; the URL (and so the list) follows. When the URL changes from
  // elsewhere (e.g. "Clear filters"), the controls take its values again (adjusted while
  // rendering, as React recommends for state derived from changed props).
  const [match, setMatch] = useState(filters.match);
  const [difficulty, setDifficulty] = useState(filters.difficulty ?? "");
  const [q, setQ] = useState(filters.q ?? "");
  const [seen, setSeen] = useState({ match: filters.match, difficulty: filters.difficulty, q: filters.q });
  if (seen.match !== filters.match || seen.difficulty !== filters.difficulty || seen.q !== filters.q) {
    setSeen({ match: filters.match, difficulty: filters.difficulty, q: filters.q });
    if (seen.match !== filters.match) setMatch(filters.match);
    if (seen.difficulty !== filters.difficulty) setDifficulty(filters.difficulty ?? "");
    if (seen.q !== filters.q) setQ(filters.q ?? "");
  }
  const setTagMatch = (m: "any" | "all") => {
    setMatch(m);
    go({ ...filters, match: m });
  };

  // Debounce typing into the search box.
  useEffect(() => {
    const trimmed = q.trim();
    if (trimmed === (latest.current.q ?? "")) return;
    const timer = setTimeout(() => go({ ...latest.current, q: trimmed || undefined }), 300);
    return () => clearTimeout(timer);
  }, [q, go]);

  const toggleTag = (tag: string) =>
    go({ ...filters, tags: filters.tags.includes(tag) ? filters.tags.filter((t) => t !== tag) : [...filters.tags, tag] });
  const tagOptions = [...new Set([...suiteTags, ...filters.tags])].sort();

  return (
    <div className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-end gap-4">
        <Field id="case-search" label="Search" className="min-w-56 flex-1">
          <Input
            id="case-search"
            type="search"
            placeholder="Name, description or message"
            value={q}
            onChange={(e) => setQ(e.target.value)}
          />
        </Field>
        <Field id="case-difficulty" label="Difficulty">
          <Select
            id="case-difficulty"
            value={difficulty}
            onChange={(e) => {
              const v = e.target.value === "hard" || e.target.value === "normal" ? e.target.value : undefined;
              setDifficulty(v ?? "");
              go({ ...filters, difficulty: v });
            }}
          >
            <option value="">Any</option>
            <option value="normal">Normal</option>
            <option value="hard">Hard</option>
          </Select>
        </Field>
        {hasFilters(filters) && (
          <Link href={base} className="pb-2 text-sm font-medium text-indigo-700 hover:underline">
            Clear filters
          </Link>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <div role="group" aria-label="Filter by tag" className="flex flex-wrap items-center gap-1.5">
          <span className="text-sm font-medium text-slate-700">Tags</span>
          {tagOptions.length === 0 && <span className="text-sm text-slate-500">No tags in this suite yet</span>}
          {tagOptions.map((tag) => {
            const on = filters.tags.includes(tag);
            return (
              <ToggleChip key={tag} on={on} onClick={() => toggleTag(tag)}>
                {tag}
              </ToggleChip>
            );
          })}
        </div>
        {tagOptions.length > 1 && (
          <fieldset className="ml-2 flex items-center gap-3 text-sm text-slate-700">
            <legend className="sr-only">Tag match</legend>
            <label className="flex items-center gap-1">
              <input type="radio" name="tag-match" checked={match === "any"} onChange={() => setTagMatch("any")} />
              Any selected tag
            </label>
            <label className="flex items-center gap-1">
              <input type="radio" name="tag-match" checked={match === "all"} onChange={() => setTagMatch("all")} />
              All selected tags
            </label>
          </fieldset>
        )}
      </div>
    </div>
  );
}
