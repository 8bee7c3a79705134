import { DIFFICULTIES, TEST_CASE_STATUSES, type TestCaseStatus } from "@/lib/test-cases/schemas";

/** The suite page's filters as they appear in its (shareable) URL. */
export type ListFilters = {
  tags: string[];
  match: "any" | "all";
  status?: TestCaseStatus;
  difficulty?: (typeof DIFFICULTIES)[number];
  q?: string;
  /** "verdict": last verdict first (failed, error, passed, never run); absent: the suite's run order. */
  sort?: "verdict";
};

/** Pagination: the current cursor plus the cursors of earlier pages ("" = first page) for "Previous". */
export type ListPage = { cursor?: string; prev: string[] };

type SearchParams = Record<string, string | string[] | undefined>;

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const oneOf = <T extends string>(values: readonly T[], v: string | undefined): T | undefined =>
  (values as readonly string[]).includes(v ?? "") ? (v as T) : undefined;

export function parseListParams(sp: SearchParams): { filters: ListFilters; page: ListPage } {
  const rawTags = sp.tag === undefined ? [] : Array.isArray(sp.tag) ? sp.tag : [sp.tag];
  const tags = [...new Set(rawTags.map((t) => t.trim()).filter(Boolean))];
  const q = one(sp.q)?.trim().slice(0, 200);
  const cursor = one(sp.cursor) || undefined;
  const prevRaw = one(sp.prev);
  return {
    filters: {
      tags,
      match: one(sp.match) === "all" ? "all" : "any",
      status: oneOf(TEST_CASE_STATUSES, one(sp.status)),
      difficulty: oneOf(DIFFICULTIES, one(sp.difficulty)),
      q: q || undefined,
      sort: one(sp.sort) === "verdict" ? "verdict" : undefined,
    },
    page: { cursor, prev: prevRaw ? prevRaw.split(",").map((c) => (c === "-" ? "" : c)) : [] },
  };
}

/** Whether anything narrows the list (the sort does not). */
export function hasFilters(f: ListFilters): boolean {
  return f.tags.length > 0 || Boolean(f.status || f.difficulty || f.q);
}

/** The suite page URL for these filters (and page); filters always start at the first page. */
export function listHref(base: string, f: ListFilters, page?: ListPage): string {
  const p = new URLSearchParams();
  for (const t of f.tags) p.append("tag", t);
  if (f.match === "all") p.set("match", "all");
  if (f.status) p.set("status", f.status);
  if (f.difficulty) p.set("difficulty", f.difficulty);
  if (f.q) p.set("q", f.q);
  if (f.sort) p.set("sort", f.sort);
  if (page?.cursor) {
    p.set("cursor", page.cursor);
    if (page.prev.length > 0) p.set("prev", page.prev.map((c) => c || "-").join(","));
  }
  const qs = p.toString();
  return qs ? `${base}?${qs}` : base;
}
