"use client";
import { useQuery } from "@tanstack/react-query";
import { countComparisonCasesAction } from "@/lib/comparisons/actions";
import { DIFFICULTIES } from "@/lib/test-cases/schemas";
import { Field, Options, Select } from "@/components/ui/field";

/**
 * Which of the suite's active cases a run, comparison or matrix takes: tags (any or all of
 * them) and a difficulty. The run, compare and matrix dialogs share these fields and, for the
 * estimate, the count of matching cases.
 */

export type TagMatch = "any" | "all";
export type Difficulty = (typeof DIFFICULTIES)[number];
/** As the inputs hold it: no difficulty is "". */
export type CaseFilter = { tags: string[]; tag_match: TagMatch; difficulty: string };

/** The filter's difficulty as the actions take it (null: any). */
export const difficultyOf = (filter: CaseFilter) => (filter.difficulty || null) as Difficulty | null;

const difficultyLabel = (d: string) => d[0]!.toUpperCase() + d.slice(1);

export function CaseFilterFields({
  id,
  tags,
  value,
  onChange,
  errors = {},
  summary,
  children,
}: {
  /** Prefix of the inputs' ids (from `useId`). */
  id: string;
  /** The tags of the suite's cases. */
  tags: string[];
  value: CaseFilter;
  onChange: (next: CaseFilter) => void;
  errors?: { tags?: string; difficulty?: string };
  /** A line under the tags (e.g. what the selection means). */
  summary?: React.ReactNode;
  /** Fields shown beside the difficulty (concurrency, repetitions). */
  children?: React.ReactNode;
}) {
  const toggle = (tag: string) =>
    onChange({ ...value, tags: value.tags.includes(tag) ? value.tags.filter((t) => t !== tag) : [...value.tags, tag] });
  return (
    <>
      <fieldset className="space-y-2" aria-describedby={errors.tags ? `${id}-tags-error` : undefined}>
        <legend className="text-sm font-medium text-slate-700">Tags</legend>
        {tags.length === 0 ? (
          <p className="text-xs text-slate-500">This suite&apos;s cases have no tags.</p>
        ) : (
          <div className="flex max-h-36 flex-wrap gap-x-4 gap-y-1 overflow-y-auto rounded-md border border-slate-200 p-2">
            {tags.map((tag) => (
              <label key={tag} className="inline-flex items-center gap-1.5 text-sm">
                <input type="checkbox" checked={value.tags.includes(tag)} onChange={() => toggle(tag)} />
                {tag}
              </label>
            ))}
          </div>
        )}
        {value.tags.length > 1 && (
          <div className="flex gap-4 text-sm" role="radiogroup" aria-label="Tag match">
            {(["any", "all"] as const).map((m) => (
              <label key={m} className="inline-flex items-center gap-1.5">
                <input
                  type="radio"
                  name={`${id}-match`}
                  checked={value.tag_match === m}
                  onChange={() => onChange({ ...value, tag_match: m })}
                />
                {m === "any" ? "Any of these tags" : "All of these tags"}
              </label>
            ))}
          </div>
        )}
        {errors.tags && (
          <p id={`${id}-tags-error`} className="text-xs text-red-600">
            {errors.tags}
          </p>
        )}
        {summary && <p className="text-xs text-slate-500">{summary}</p>}
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={`${id}-difficulty`} label="Difficulty" error={errors.difficulty}>
          <Select id={`${id}-difficulty`} value={value.difficulty} onChange={(e) => onChange({ ...value, difficulty: e.target.value })}>
            <Options values={DIFFICULTIES} labels={difficultyLabel} none="Any difficulty" />
          </Select>
        </Field>
        {children}
      </div>
    </>
  );
}

/** How many active cases of the suite match the filter (undefined while counting). */
export function useCaseCount(workspaceId: string, suiteId: string, filter: CaseFilter) {
  return useQuery({
    queryKey: ["suite-case-count", workspaceId, suiteId, filter.tags.join("\u0000"), filter.tag_match, filter.difficulty],
    queryFn: async () => {
      const result = await countComparisonCasesAction(workspaceId, {
        suite_id: suiteId,
        tags: filter.tags,
        tag_match: filter.tag_match,
        difficulty: difficultyOf(filter),
      });
      if (!result.ok) throw new Error(result.error);
      return result.data;
    },
    staleTime: 10_000,
  });
}
