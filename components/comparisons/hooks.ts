import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiGet, LIVE_INTERVAL_MS } from "@/lib/runs/hooks";
import type { ComparisonChartData, ComparisonDto, ComparisonPairDto } from "@/lib/comparisons/dto";
import { isActiveComparison } from "./format";
import { comparisonApi, type PairFilters } from "./paths";

export { isActiveComparison };

/**
 * Client data of the comparison page: the session JSON routes under
 * /w/{workspaceId}/comparisons/{id}/data/ (signed-in user, same services as the API) and
 * TanStack Query hooks that poll while the comparison is pending or running.
 */

export type PairPage = { data: ComparisonPairDto[]; next_cursor: string | null };

export const comparisonKeys = {
  all: (w: string, id: string) => ["comparisons", w, id] as const,
  comparison: (w: string, id: string) => ["comparisons", w, id, "comparison"] as const,
  chart: (w: string, id: string) => ["comparisons", w, id, "chart"] as const,
  pairs: (w: string, id: string, f: PairFilters) =>
    ["comparisons", w, id, "pairs", f.sort, f.verdict_change ?? "", f.cursor ?? "", f.limit ?? 0] as const,
};

/** The comparison, refreshed every second while it is pending or running. */
export function useComparison(workspaceId: string, id: string, initial: ComparisonDto) {
  return useQuery({
    queryKey: comparisonKeys.comparison(workspaceId, id),
    queryFn: ({ signal }) => apiGet<ComparisonDto>(comparisonApi.comparison(workspaceId, id), signal),
    initialData: initial,
    staleTime: 0,
    refetchInterval: (q) => (isActiveComparison(q.state.data?.status) ? LIVE_INTERVAL_MS : false),
  });
}

/** The charts' points (completed pairs); refreshed every few seconds while live. */
export function useChartData(workspaceId: string, id: string, opts: { live: boolean; initial: ComparisonChartData }) {
  return useQuery({
    queryKey: comparisonKeys.chart(workspaceId, id),
    queryFn: ({ signal }) => apiGet<ComparisonChartData>(comparisonApi.chart(workspaceId, id), signal),
    initialData: opts.initial,
    staleTime: 0,
    refetchInterval: opts.live ? 3 * LIVE_INTERVAL_MS : false,
  });
}

/** One page of pairs in the API's sort, optionally filtered by verdict change; polls while live. */
export function usePairs(workspaceId: string, id: string, filters: PairFilters, opts: { live: boolean; initial?: PairPage }) {
  return useQuery({
    queryKey: comparisonKeys.pairs(workspaceId, id, filters),
    queryFn: ({ signal }) => apiGet<PairPage>(comparisonApi.pairs(workspaceId, id, filters), signal),
    initialData: opts.initial,
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: opts.live ? 2 * LIVE_INTERVAL_MS : false,
  });
}
