// Virtual dashboard users for the viewers bench: each one behaves like a browser tab on the live
// run page (components/runs/run-view.tsx, lib/runs/hooks.ts, components/runs/case-view.tsx):
// - it arrives with a full page load (server-rendered HTML), whose data the TanStack queries
//   start from without fetching it again;
// - its queries poll: the run every second, the case table's first page (limit 50) every
//   second, the changes card every three seconds;
// - now and then it opens a case (a row is a client-side link: the app router fetches the case
//   page's server components, `RSC: 1`; the case result's data is polled every second while the
//   case is open) and goes back (the breadcrumb, a link again: the run page's server
//   components, and the queries, stale by then, refetch on mount before polling again).
// Server-component requests carry no router state tree, so the server renders the whole tree
// (layout included), more work than the browser's navigation asks for. Requests carry the
// signed-in session cookie and the polls the browser's `Cache-Control: max-age=1` (an answer up
// to a second old is fine, lib/runs/live-answers.ts). Plain fetch (undici's keep-alive pool):
// one request per poll, as the browser sends, with no load tool's own pacing.

export type EndpointName = "run page (HTML)" | "run page (RSC)" | "run" | "results" | "changes" | "case page (RSC)" | "case result";
/** The JSON routes the page's queries poll: the "page data" of the target. */
export const PAGE_DATA: EndpointName[] = ["run", "results", "changes", "case result"];

export type EndpointStats = {
  endpoint: EndpointName;
  path: string;
  requests: number;
  errors: number;
  /** Error kinds: HTTP status, "rendered error" (a 200 page streaming an error digest), "timeout" or "network", with counts. */
  errorKinds: Record<string, number>;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
};

export type ViewersLoadResult = {
  viewers: number;
  durationMs: number;
  requests: number;
  requestsPerSecond: number;
  errors: number;
  endpoints: EndpointStats[];
  /** All page-data requests together. */
  pageData: { requests: number; errors: number; p50Ms: number; p95Ms: number; p99Ms: number; maxMs: number };
};

/** The q-quantile (0..1) of sorted samples, nearest rank. */
export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

const PATHS: Record<EndpointName, string> = {
  "run page (HTML)": "/w/{w}/runs/{run}",
  "run page (RSC)": "/w/{w}/runs/{run}",
  run: "/api/w/{w}/runs/{run}",
  results: "/api/w/{w}/runs/{run}/results?limit=50",
  changes: "/api/w/{w}/runs/{run}/changes",
  "case page (RSC)": "/w/{w}/runs/{run}/cases/{id}",
  "case result": "/api/w/{w}/case-results/{id}",
};

type Kind = "json" | "html" | "rsc";
/**
 * A server-component request carries `_rsc`, a hash of its router headers (Next.js redirects a
 * request without it); with no router state tree the hash is empty.
 */
const RSC_QUERY = "?_rsc";
const HEADERS: Record<Kind, Record<string, string>> = {
  json: { accept: "application/json", "cache-control": "max-age=1" },
  html: { accept: "text/html" },
  rsc: { accept: "*/*", rsc: "1" },
};

type Sample = { ms: number; error: string | null };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const between = (lo: number, hi: number) => lo + Math.random() * (hi - lo);

/**
 * Visits every route once, unmeasured (the first request to each route of a fresh `next start`
 * loads its code); fails when a route refuses the session.
 */
export async function warmRoutes(opts: { url: string; cookie: string; workspaceId: string; runId: string }): Promise<void> {
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${opts.url}${path}`, {
      headers: { cookie: opts.cookie, ...headers },
      redirect: "manual",
      signal: AbortSignal.timeout(60_000),
    });
    if (res.status !== 200) throw new Error(`GET ${path} with the session answered ${res.status}`);
    return res;
  };
  const w = opts.workspaceId;
  await (await get(`/w/${w}/runs/${opts.runId}`)).text();
  await (await get(`/api/w/${w}/runs/${opts.runId}`)).json();
  const page = (await (await get(`/api/w/${w}/runs/${opts.runId}/results?limit=50`)).json()) as { data: { id: string }[] };
  await (await get(`/api/w/${w}/runs/${opts.runId}/changes`)).json();
  const id = page.data[0]?.id;
  if (!id) return;
  await (await get(`/w/${w}/runs/${opts.runId}/cases/${id}`)).text();
  await (await get(`/w/${w}/runs/${opts.runId}/cases/${id}${RSC_QUERY}`, { rsc: "1" })).text();
  await (await get(`/w/${w}/runs/${opts.runId}${RSC_QUERY}`, { rsc: "1" })).text();
  await (await get(`/api/w/${w}/case-results/${id}`)).json();
}

/**
 * Starts `viewers` users on the run's pages; `stop()` ends them and returns the figures over the
 * requests that started before it was called (those in flight are awaited and counted).
 */
export function startViewers(opts: { url: string; cookie: string; workspaceId: string; runId: string; viewers: number }): {
  stop: () => Promise<ViewersLoadResult>;
} {
  const samples = new Map<EndpointName, Sample[]>(Object.keys(PATHS).map((k) => [k as EndpointName, []]));
  let stopped = false;
  let stoppedAt = Infinity;
  const t0 = performance.now();
  let stopNow: () => void = () => undefined;
  const stopSignal = new Promise<void>((resolve) => (stopNow = resolve));
  const pause = (ms: number) => Promise.race([sleep(ms), stopSignal]);

  async function hit(name: EndpointName, path: string, kind: Kind): Promise<unknown> {
    const json = kind === "json";
    const started = performance.now();
    let error: string | null = null;
    let body: unknown = null;
    try {
      const res = await fetch(`${opts.url}${path}`, {
        headers: { cookie: opts.cookie, ...HEADERS[kind] },
        redirect: "manual",
        signal: AbortSignal.timeout(30_000),
      });
      if (res.status !== 200) {
        error = String(res.status);
        await res.arrayBuffer();
      } else {
        body = json ? await res.json() : await res.text();
        // A server component that failed after the 200 went out streams React's error digest
        // instead of its content (the server logs the cause, e.g. a pool timeout): an error too.
        if (kind === "html" && /data-dgst="/.test(body as string)) error = "rendered error";
        if (kind === "rsc" && /"digest":"/.test(body as string)) error = "rendered error";
      }
    } catch (err) {
      error = err instanceof Error && err.name === "TimeoutError" ? "timeout" : "network";
    }
    if (started < stoppedAt) samples.get(name)!.push({ ms: performance.now() - started, error });
    return error ? null : body;
  }

  const run = `/api/w/${opts.workspaceId}/runs/${opts.runId}`;
  /** What one tab knows: the run's status and the case table's current rows. */
  type Tab = { status: string; rows: { id: string; status: string }[] };

  /**
   * One TanStack query's polling until `until`, no overlap: from data fresh from the server the
   * first fetch is `everyMs` later; a query remounted with stale data (`refetchNow`) fetches at
   * once. Then every `everyMs` while live.
   */
  async function poll(fetchOnce: () => Promise<unknown>, everyMs: number, until: number, stillLive: () => boolean, refetchNow: boolean) {
    let next = performance.now() + (refetchNow ? 0 : everyMs);
    await pause(Math.min(next, until) - performance.now());
    while (!stopped && performance.now() < until && stillLive()) {
      await fetchOnce();
      next = Math.max(next + everyMs, performance.now());
      await pause(Math.min(next, until) - performance.now());
    }
  }

  /**
   * On the run page for `dwellMs` from when it has arrived: the first visit is a page load (its
   * queries start from the server's data); coming back from a case is a client-side navigation
   * (the queries' cached data is stale by then, so they refetch at once).
   */
  async function runPage(tab: Tab, dwellMs: number, arrival: boolean) {
    const page = `/w/${opts.workspaceId}/runs/${opts.runId}`;
    await (arrival ? hit("run page (HTML)", page, "html") : hit("run page (RSC)", `${page}${RSC_QUERY}`, "rsc"));
    const until = performance.now() + dwellMs;
    const active = () => tab.status === "pending" || tab.status === "running";
    const refetchNow = !arrival;
    await Promise.all([
      poll(
        async () => {
          const r = (await hit("run", run, "json")) as { status?: string } | null;
          if (r?.status) tab.status = r.status;
        },
        1_000,
        until,
        active,
        refetchNow,
      ),
      poll(
        async () => {
          const page = (await hit("results", `${run}/results?limit=50`, "json")) as { data?: Tab["rows"] } | null;
          if (page?.data?.length) tab.rows = page.data;
        },
        1_000,
        until,
        active,
        refetchNow,
      ),
      poll(() => hit("changes", `${run}/changes`, "json"), 3_000, until, active, refetchNow),
    ]);
    await pause(until - performance.now());
  }

  /** A case opened from the table (a client-side navigation), for `dwellMs`. */
  async function caseView(tab: Tab, dwellMs: number) {
    const row = tab.rows.length ? tab.rows[Math.floor(Math.random() * tab.rows.length)]! : null;
    if (!row) return;
    const id = row.id;
    await hit("case page (RSC)", `/w/${opts.workspaceId}/runs/${opts.runId}/cases/${id}${RSC_QUERY}`, "rsc");
    const until = performance.now() + dwellMs;
    // The page's data says whether the case is still open (only then does the view poll).
    let open = row.status === "pending" || row.status === "running";
    await poll(
      async () => {
        const c = (await hit("case result", `/api/w/${opts.workspaceId}/case-results/${id}`, "json")) as { status?: string } | null;
        open = c?.status === "pending" || c?.status === "running";
      },
      1_000,
      until,
      () => open,
      false,
    );
    await pause(until - performance.now());
  }

  async function user() {
    const tab: Tab = { status: "pending", rows: [] };
    await pause(between(0, 1_000)); // users arrive over the first second
    let arrival = true;
    while (!stopped) {
      // Short visits, so that a run of a few seconds sees case views too.
      await runPage(tab, between(2_000, 6_000), arrival);
      arrival = false;
      if (!stopped) await caseView(tab, between(1_000, 3_000));
    }
  }

  const users = Array.from({ length: opts.viewers }, () => user());

  return {
    async stop() {
      stoppedAt = performance.now();
      const durationMs = stoppedAt - t0;
      stopped = true;
      stopNow();
      await Promise.all(users);
      const endpoints: EndpointStats[] = [];
      const pageData: number[] = [];
      let pageDataErrors = 0;
      for (const [endpoint, list] of samples) {
        const ms = list.map((s) => s.ms).sort((a, b) => a - b);
        const errorKinds: Record<string, number> = {};
        for (const s of list) if (s.error) errorKinds[s.error] = (errorKinds[s.error] ?? 0) + 1;
        const errors = list.filter((s) => s.error).length;
        if (PAGE_DATA.includes(endpoint)) {
          pageData.push(...ms);
          pageDataErrors += errors;
        }
        endpoints.push({
          endpoint,
          path: PATHS[endpoint],
          requests: list.length,
          errors,
          errorKinds,
          p50Ms: quantile(ms, 0.5),
          p95Ms: quantile(ms, 0.95),
          p99Ms: quantile(ms, 0.99),
          maxMs: ms[ms.length - 1] ?? NaN,
        });
      }
      pageData.sort((a, b) => a - b);
      const requests = endpoints.reduce((n, e) => n + e.requests, 0);
      return {
        viewers: opts.viewers,
        durationMs,
        requests,
        requestsPerSecond: requests / (durationMs / 1000),
        errors: endpoints.reduce((n, e) => n + e.errors, 0),
        endpoints,
        pageData: {
          requests: pageData.length,
          errors: pageDataErrors,
          p50Ms: quantile(pageData, 0.5),
          p95Ms: quantile(pageData, 0.95),
          p99Ms: quantile(pageData, 0.99),
          maxMs: pageData[pageData.length - 1] ?? NaN,
        },
      };
    },
  };
}
