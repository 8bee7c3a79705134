import { RUN_STATUSES, type RunStatus } from "@/lib/runs/schemas";

/**
 * Where the suite's run history stands, as it appears in the page's (shareable) URL: which runs
 * (the suite's history, or its experiments: comparison arms and matrix combinations), cursor,
 * earlier cursors ("" = first page) for "Newer runs", and a status filter.
 * Plain functions: used by the server page and the client view alike.
 */
export type SuiteRunsKind = "ordinary" | "experiment";
export type SuiteRunsLocation = { kind: SuiteRunsKind; cursor?: string; prev: string[]; status?: RunStatus };

/** Runs in the charts when the page opens. */
export const DEFAULT_TREND_WINDOW = 50;
export const HISTORY_PAGE_SIZE = 20;

type SearchParams = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export function parseSuiteRunsLocation(sp: SearchParams): SuiteRunsLocation {
  const status = one(sp.status);
  const prev = one(sp.prev);
  return {
    // The history is the default: anything but `experiment` (absent, misspelt) shows it.
    kind: one(sp.kind) === "experiment" ? "experiment" : "ordinary",
    cursor: one(sp.cursor) || undefined,
    prev: prev ? prev.split(",").map((c) => (c === "-" ? "" : c)) : [],
    status: (RUN_STATUSES as readonly string[]).includes(status ?? "") ? (status as RunStatus) : undefined,
  };
}

/** The page URL for a history location (the default kind, the history, is left out). */
export function historyHref(base: string, loc: SuiteRunsLocation): string {
  const q = new URLSearchParams();
  if (loc.kind === "experiment") q.set("kind", "experiment");
  if (loc.status) q.set("status", loc.status);
  if (loc.cursor) {
    q.set("cursor", loc.cursor);
    if (loc.prev.length) q.set("prev", loc.prev.map((c) => c || "-").join(","));
  }
  const s = q.toString();
  return s ? `${base}?${s}` : base;
}
