import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CaseResultDetail, CaseResultPage, CaseTableFilters, RunChangeDetails, RunChanges, RunDto } from "@/lib/runs/dto";
import type { CaseResultStatus, RunStatus } from "@/lib/runs/schemas";
import { caseTableParams } from "@/lib/runs/case-table-location";

/**
 * Client data for the run pages: one typed fetch client for the session JSON routes under
 * /api/w/{workspaceId}/ and TanStack Query hooks that poll while a run is active.
 */

export type ReportFormat = "json" | "markdown" | "csv" | "junit";
/** A page of the run page's case table: its location (filters, search, order, page) and page size. */
export type CaseResultFilters = CaseTableFilters & { limit?: number };

/** How often live views refresh while a run is pending or running. */
export const LIVE_INTERVAL_MS = 1_000;

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message);
  }
}

export const isActiveRun = (status: RunStatus | undefined) => status === "pending" || status === "running";
export const isOpenCase = (status: CaseResultStatus | undefined) => status === "pending" || status === "running";

/** Paths of the session routes (also used for download links). */
export const runApi = {
  run: (w: string, runId: string) => `/api/w/${w}/runs/${runId}`,
  results: (w: string, runId: string, f: CaseResultFilters = {}) => {
    const q = caseTableParams(f);
    if (f.limit) q.set("limit", String(f.limit));
    const s = q.toString();
    return `/api/w/${w}/runs/${runId}/results${s ? `?${s}` : ""}`;
  },
  changes: (w: string, runId: string) => `/api/w/${w}/runs/${runId}/changes`,
  changeDetails: (w: string, runId: string) => `/api/w/${w}/runs/${runId}/changes/details`,
  report: (w: string, runId: string, format: ReportFormat) => `/api/w/${w}/runs/${runId}/report?format=${format}`,
  caseResult: (w: string, id: string) => `/api/w/${w}/case-results/${id}`,
};

/**
 * GET a session JSON route; errors become ApiError with the envelope's message. `live`: a poll of
 * a live view, which accepts an answer up to a second old (the server shares one read between
 * the viewers of a live run, lib/runs/live-answers.ts); otherwise the server reads afresh.
 */
export async function apiGet<T>(path: string, signal?: AbortSignal, opts: { live?: boolean } = {}): Promise<T> {
  const res = await fetch(path, {
    signal,
    headers: { accept: "application/json", "cache-control": opts.live ? "max-age=1" : "no-cache" },
    cache: "no-store",
  });
  if (!res.ok) {
    let message = `Request failed (${res.status})`;
    let code = "http_error";
    try {
      const body = (await res.json()) as { error?: { message?: string; code?: string } };
      message = body.error?.message ?? message;
      code = body.error?.code ?? code;
    } catch {
      /* not JSON: keep the generic message */
    }
    throw new ApiError(message, res.status, code);
  }
  return (await res.json()) as T;
}

export const runKeys = {
  all: (w: string, runId: string) => ["runs", w, runId] as const,
  run: (w: string, runId: string) => ["runs", w, runId, "run"] as const,
  results: (w: string, runId: string, f: CaseResultFilters) => ["runs", w, runId, "results", runApi.results(w, runId, f)] as const,
  changes: (w: string, runId: string) => ["runs", w, runId, "changes"] as const,
  /** `flips`: how many verdicts had flipped when asked; a live run's later flips ask again. */
  changeDetails: (w: string, runId: string, flips: number) => ["runs", w, runId, "changes", "details", flips] as const,
  caseResult: (w: string, id: string) => ["case-results", w, id] as const,
};

/*
 * The hooks below start from the data the server rendered the page with, which is fresh: they do
 * not fetch it again on mount (staleTime = their polling interval) but poll from there.
 */

/**
 * `path`'s resource under `key`, refreshed every second while `isLive` says its status may still
 * change; each such poll asks for the shared live answer (apiGet's `live`).
 */
function usePolledWhileLive<S, T extends { status: S }>(
  key: readonly unknown[],
  path: string,
  initial: T,
  isLive: (status: S | undefined) => boolean,
) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: key,
    queryFn: ({ signal }) => apiGet<T>(path, signal, { live: isLive(queryClient.getQueryData<T>(key)?.status) }),
    initialData: initial,
    staleTime: LIVE_INTERVAL_MS,
    refetchInterval: (q) => (isLive(q.state.data?.status) ? LIVE_INTERVAL_MS : false),
  });
}

/** The run, refreshed every second while it is pending or running. */
export function useRun(workspaceId: string, runId: string, initial: RunDto) {
  return usePolledWhileLive(runKeys.run(workspaceId, runId), runApi.run(workspaceId, runId), initial, isActiveRun);
}

/** One page of the run's case results (slim rows); `live` polls while the run is active. */
export function useCaseResults(
  workspaceId: string,
  runId: string,
  filters: CaseResultFilters,
  opts: { live: boolean; initial?: CaseResultPage },
) {
  return useQuery({
    queryKey: runKeys.results(workspaceId, runId, filters),
    queryFn: ({ signal }) => apiGet<CaseResultPage>(runApi.results(workspaceId, runId, filters), signal, { live: opts.live }),
    initialData: opts.initial,
    placeholderData: keepPreviousData,
    staleTime: LIVE_INTERVAL_MS,
    refetchInterval: opts.live ? LIVE_INTERVAL_MS : false,
  });
}

/** Regressions and fixes since the suite's previous completed run. */
export function useRunChanges(workspaceId: string, runId: string, opts: { live: boolean; initial?: RunChanges }) {
  return useQuery({
    queryKey: runKeys.changes(workspaceId, runId),
    queryFn: ({ signal }) => apiGet<RunChanges>(runApi.changes(workspaceId, runId), signal, { live: opts.live }),
    initialData: opts.initial,
    staleTime: 3 * LIVE_INTERVAL_MS,
    refetchInterval: opts.live ? 3 * LIVE_INTERVAL_MS : false,
  });
}

/**
 * What changed since the previous run, field by field, read when the changes card's "What
 * changed" is opened (`enabled`). Snapshots never change once a case ran, so an answer stays
 * fresh until more verdicts flip (`flips`, part of the key); the previous answer shows meanwhile.
 */
export function useRunChangeDetails(workspaceId: string, runId: string, opts: { enabled: boolean; flips: number }) {
  return useQuery({
    queryKey: runKeys.changeDetails(workspaceId, runId, opts.flips),
    queryFn: ({ signal }) => apiGet<RunChangeDetails>(runApi.changeDetails(workspaceId, runId), signal),
    enabled: opts.enabled,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
}

/** One case result with its LLM calls, refreshed while the case is still pending or running. */
export function useCaseResult(workspaceId: string, id: string, initial: CaseResultDetail) {
  return usePolledWhileLive(runKeys.caseResult(workspaceId, id), runApi.caseResult(workspaceId, id), initial, isOpenCase);
}
