import type { PairSort } from "@/lib/comparisons/schemas";
import type { VerdictChange } from "@/lib/comparisons/diffs";

/** URLs of the comparison pages and of their session JSON routes (client- and server-safe). */

export type ReportFormat = "json" | "csv";
export type PairFilters = { verdict_change?: VerdictChange; sort: PairSort; cursor?: string; limit?: number };

export const comparisonHref = (w: string, id: string) => `/w/${w}/comparisons/${id}`;
export const pairHref = (w: string, id: string, index: number) => `/w/${w}/comparisons/${id}/pairs/${index}`;
export const suiteComparisonsHref = (w: string, suiteId: string) => `/w/${w}/suites/${suiteId}/comparisons`;

const base = comparisonHref;

export const comparisonApi = {
  comparison: (w: string, id: string) => `${base(w, id)}/data/comparison`,
  chart: (w: string, id: string) => `${base(w, id)}/data/chart`,
  pairs: (w: string, id: string, f: PairFilters) => {
    const q = new URLSearchParams({ sort: f.sort });
    if (f.verdict_change) q.set("verdict_change", f.verdict_change);
    if (f.cursor) q.set("cursor", f.cursor);
    if (f.limit) q.set("limit", String(f.limit));
    return `${base(w, id)}/data/pairs?${q.toString()}`;
  },
  /** A session-authenticated download (the /api/v1 report needs an API key). */
  report: (w: string, id: string, format: ReportFormat) => `${base(w, id)}/report?format=${format}`,
};
