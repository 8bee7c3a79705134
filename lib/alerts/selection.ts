import { createHash } from "node:crypto";

/**
 * The case selection a run was started with, reduced to a stable key (`Run.selectionKey`):
 * regression alerts compare a run only with runs over the same selection, so a run of the
 * "smoke" tag never raises an alert against a run of the whole suite. Order and duplicates do
 * not matter (tags and case ids are sorted and de-duplicated); `tag_match` only counts when tags
 * are given. No `server-only`: a pure function, tested on its own.
 */
export type SelectionInput = {
  tags?: readonly string[] | null;
  tag_match?: "any" | "all" | null;
  difficulty?: string | null;
  case_ids?: readonly string[] | null;
};

const sortedUnique = (values: readonly string[]) => [...new Set(values)].sort();

export function selectionKeyOf(selection: SelectionInput): string {
  const tags = sortedUnique(selection.tags ?? []);
  const normalised = {
    tags,
    tag_match: tags.length > 0 ? (selection.tag_match ?? "any") : "any",
    difficulty: selection.difficulty ?? null,
    case_ids: selection.case_ids ? sortedUnique(selection.case_ids.map((id) => id.toLowerCase())) : null,
  };
  return createHash("sha256").update(JSON.stringify(normalised)).digest("hex").slice(0, 32);
}
