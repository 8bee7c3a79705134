/**
 * Where the run page's case table stands — status, tag, search, order, page — as URL query
 * parameters, so a reload, a shared link, a case opened from a row and its "Back to run" link
 * all show the same list. Reading is lenient (a hand-edited bad value is dropped, not an error
 * page); writing leaves defaults out so plain links stay plain. Pure: pages and client
 * components use it alike.
 */
import { caseTableQuery, type CaseTableQuery } from "./schemas";
import { DEFAULT_CASE_SORT } from "./case-sort";
import type { CaseTableFilters } from "./dto";

type SearchParams = Record<string, string | string[] | undefined> | URLSearchParams;

const KEYS = ["status", "tag", "q", "sort", "dir", "page"] as const;

function read(sp: SearchParams, key: string): string | undefined {
  const v = sp instanceof URLSearchParams ? sp.get(key) : sp[key];
  return typeof v === "string" ? v : undefined;
}

/** The table's location from a URL's query; each bad or missing value falls back to its default. */
export function caseTableLocation(sp: SearchParams): CaseTableFilters {
  const out: CaseTableFilters = {};
  for (const key of KEYS) {
    const raw = read(sp, key);
    if (raw === undefined) continue;
    const parsed = caseTableQuery.shape[key].safeParse(raw);
    if (parsed.success && parsed.data !== undefined) Object.assign(out, { [key]: parsed.data });
  }
  return out;
}

/** The location's query parameters with defaults left out; `page: false` drops the page (a case link). */
export function caseTableParams(f: CaseTableFilters, opts: { page?: boolean } = {}): URLSearchParams {
  const p = new URLSearchParams();
  if (f.status) p.set("status", f.status);
  if (f.tag) p.set("tag", f.tag);
  if (f.q) p.set("q", f.q);
  const sort = f.sort ?? DEFAULT_CASE_SORT.sort;
  const dir = f.dir ?? DEFAULT_CASE_SORT.dir;
  if (sort !== DEFAULT_CASE_SORT.sort || dir !== DEFAULT_CASE_SORT.dir) {
    p.set("sort", sort);
    p.set("dir", dir);
  }
  if (opts.page !== false && f.page && f.page > 1) p.set("page", String(f.page));
  return p;
}

/** `base` with the location's query ("?status=failed&q=refund"), or `base` alone for the defaults. */
export function withCaseTableParams(base: string, f: CaseTableFilters, opts: { page?: boolean } = {}): string {
  const s = caseTableParams(f, opts).toString();
  return s ? `${base}?${s}` : base;
}

/** The full query of a table page: the location with the page size. */
export function caseTableQueryOf(f: CaseTableFilters, limit: number): CaseTableQuery {
  return caseTableQuery.parse({ ...f, limit });
}
