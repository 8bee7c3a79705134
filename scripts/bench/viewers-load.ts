// Virtual dashboard users for the viewers bench: each one behaves like a browser tab on the live
// run page (components/runs/run-view.tsx and lib/runs/hooks.ts): it loads the page (server-
// rendered HTML), its TanStack queries refetch on mount and then poll — the run every second, the
// case table's first page (limit 50) every second, the changes card every three seconds — and now
// and then it opens a case view (HTML, then the case result's data, polled while the case is
// open) and goes back. Requests carry the signed-in session cookie. Plain fetch (undici's
// keep-alive pool): one request per poll, as the browser sends, with no load tool's own pacing.

export type EndpointName = "run page (HTML)" | "run" | "results" | "changes" | "case page (HTML)" | "case result";
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
  run: "/api/w/{w}/runs/{run}",
  results: "/api/w/{w}/runs/{run}/results?limit=50",
  changes: "/api/w/{w}/runs/{run}/changes",
  "case page (HTML)": "/w/{w}/runs/{run}/cases/{id}",
  "case result": "/api/w/{w}/case-results/{id}",
};

type Sample = { ms: number; error: string | null };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const between = (lo: number, hi: number) => lo + Math.random() * (hi - lo);

/**
 * Visits every route once, unmeasured (the first request to each route of a fresh `next start`
 * loads its code); fails when a route refuses the session.
 */
export async function warmRoutes(opts: { url: string; cookie: string; workspaceId: string; runId: string }): Promise<void> {
  const get = async (path: string) => {
    const res = await fetch(`${opts.url}${path}`, {
      headers: { cookie: opts.cookie },
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

  async function hit(name: EndpointName, path: string, json: boolean): Promise<unknown> {
    const started = performance.now();
    let error: string | null = null;
    let body: unknown = null;
    try {
      const res = await fetch(`${opts.url}${path}`, {
        headers: { cookie: opts.cookie, accept: json ? "application/json" : "text/html" },
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
        if (!json && /data-dgst="/.test(body as string)) error = "rendered error";
      }
    } catch (err) {
      error = err instanceof Error && err.name === "TimeoutError" ? "timeout" : "network";
    }
    if (started < stoppedAt) samples.get(name)!.push({ ms: performance.now() - started, error });
    return error ? null : body;
  }

  const run = `/api/w/${opts.workspaceId}/runs/${opts.runId}`;
  /** What one tab knows: the run's status and the case table's current rows. */
  type Tab = { status: string; rows: { id: string }[] };

  /** One TanStack query's polling: fetch on mount, then every `everyMs` (no overlap) until `until`. */
  async function poll(fetchOnce: () => Promise<unknown>, everyMs: number, until: number, stillLive: () => boolean) {
    let next = performance.now();
    while (!stopped && performance.now() < until) {
      await fetchOnce();
      if (!stillLive()) return;
      next = Math.max(next + everyMs, performance.now());
      await pause(Math.min(next, until) - performance.now());
    }
  }

  /** On the run page for `dwellMs` from when its HTML has arrived (the user sees it). */
  async function runPage(tab: Tab, dwellMs: number) {
    await hit("run page (HTML)", `/w/${opts.workspaceId}/runs/${opts.runId}`, false);
    const until = performance.now() + dwellMs;
    const active = () => tab.status === "pending" || tab.status === "running";
    await Promise.all([
      poll(
        async () => {
          const r = (await hit("run", run, true)) as { status?: string } | null;
          if (r?.status) tab.status = r.status;
        },
        1_000,
        until,
        active,
      ),
      poll(
        async () => {
          const page = (await hit("results", `${run}/results?limit=50`, true)) as { data?: { id: string }[] } | null;
          if (page?.data?.length) tab.rows = page.data;
        },
        1_000,
        until,
        active,
      ),
      poll(() => hit("changes", `${run}/changes`, true), 3_000, until, active),
    ]);
    await pause(until - performance.now());
  }

  async function caseView(tab: Tab, dwellMs: number) {
    const id = tab.rows.length ? tab.rows[Math.floor(Math.random() * tab.rows.length)]!.id : null;
    if (!id) return;
    await hit("case page (HTML)", `/w/${opts.workspaceId}/runs/${opts.runId}/cases/${id}`, false);
    const until = performance.now() + dwellMs;
    let open = true;
    await poll(
      async () => {
        const c = (await hit("case result", `/api/w/${opts.workspaceId}/case-results/${id}`, true)) as { status?: string } | null;
        open = c?.status === "pending" || c?.status === "running";
      },
      1_000,
      until,
      () => open,
    );
    await pause(until - performance.now());
  }

  async function user() {
    const tab: Tab = { status: "pending", rows: [] };
    await pause(between(0, 1_000)); // users arrive over the first second
    while (!stopped) {
      // Short visits, so that a run of a few seconds sees case views too.
      await runPage(tab, between(2_000, 6_000));
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
