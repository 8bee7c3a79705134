import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { RUN_CASES_PAGE_SIZE, type RunCasesFilters, type RunCasesPage } from "./dto";
import { apiGet, LIVE_INTERVAL_MS, runKeys } from "./hooks";

/**
 * Client data for the run page's per-case table (runs with several trials): the session route
 * /api/w/{workspaceId}/runs/{runId}/cases, polled like the case table while the run is active.
 */

export function runCasesPath(w: string, runId: string, f: RunCasesFilters & { cursor?: string }) {
  const q = new URLSearchParams({ limit: String(RUN_CASES_PAGE_SIZE) });
  if (f.stability) q.set("stability", f.stability);
  if (f.cursor) q.set("cursor", f.cursor);
  return `/api/w/${w}/runs/${runId}/cases?${q}`;
}

/** One page of the run's test cases with their trials; under the run's key, so the run's end refreshes it. */
export function useRunCases(
  workspaceId: string,
  runId: string,
  filters: RunCasesFilters & { cursor?: string },
  opts: { live: boolean; initial?: RunCasesPage },
) {
  return useQuery({
    queryKey: [...runKeys.all(workspaceId, runId), "cases", filters.stability ?? "", filters.cursor ?? ""],
    queryFn: ({ signal }) => apiGet<RunCasesPage>(runCasesPath(workspaceId, runId, filters), signal, { live: opts.live }),
    initialData: opts.initial,
    placeholderData: keepPreviousData,
    staleTime: LIVE_INTERVAL_MS,
    refetchInterval: opts.live ? LIVE_INTERVAL_MS : false,
  });
}
