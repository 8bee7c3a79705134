// Command-line flags of `npm run bench`.

export type BenchArgs = {
  cases: number;
  concurrency: number;
  latencyMs: number;
  history: number;
  historyCases: number;
  /** Print EXPLAIN (ANALYZE, BUFFERS) of the history pages' main queries. */
  explain: boolean;
  /** Run the fake OpenAI server in its own process (default) so its CPU is not the executor's. */
  separateFake: boolean;
  /** Per-model-configuration request cap for the bench's model config; null: the product's (ASSAY_MODEL_CONCURRENCY). */
  endpointCap: number | null;
  /** "sleep": a runner that only sleeps, to measure the executor's own overhead. */
  runner: "real" | "sleep";
  timelineFile: string | undefined;
  /** Writes a V8 CPU profile of the measured run only (startRun → completed) to this file. */
  profileFile: string | undefined;
  /** --memory: cases of a first run in the same process and executor, memory read after each run; 0: off. */
  memoryBaselineCases: number;
  /** --cold: the executor skips its warm-up of the model-call path (a cold first second, for comparison). */
  coldStart: boolean;
  /** Fairness mode: a big slow run in workspace A, then a small run in workspace B, on one executor. */
  fairness: boolean;
  bigCases: number;
  bigConcurrency: number;
  slowLatencyMs: number;
  /** Slots of the fairness bench's executor; null: ASSAY_WORKER_SLOTS. */
  slots: number | null;
  /** ASSAY_WORKSPACE_MAX_RUNNING for the fairness bench; null: no cap. */
  workspaceCap: number | null;
  /** Workers mode: run the same big run through each number of `scripts/worker.ts` processes; empty: off. */
  workers: number[];
  workerSlots: number;
  /** Workers mode: runs sharing --cases and --concurrency (one run may use at most 64 at once). */
  runs: number;
  /** Viewers mode: this many dashboard users poll the live run page of the built app; 0: off. */
  viewers: number;
  /** Viewers mode: where runs execute — the web process (default deployment) or one `npm run worker`. */
  viewersExecutor: "web" | "worker";
  /** Viewers and OTLP modes: the production build to start (ASSAY_DIST_DIR, default .next). */
  distDir: string;
  /** OTLP mode: spans sent to the built app's traces endpoint by the real OpenTelemetry exporter. */
  otlp: boolean;
  /** OTLP mode: the target rate, open loop. */
  spansPerSecond: number;
  /** OTLP mode: the measured window (a short unmeasured warm-up comes before it). */
  seconds: number;
  /** OTLP mode: spans per export request (the BatchSpanProcessor's default is 512). */
  batch: number;
  /** Trials mode: every case runs this many times in one run (1–20); null: off. */
  trials: number | null;
  /** A/B mode: a comparison of two arms instead of a run. */
  ab: boolean;
  variantLatencyMs: number;
  ordering: "sequential" | "randomized" | "concurrent";
  /** A/B mode: cases of an unmeasured warm-up comparison before the measured one. */
  warmupCases: number;
  /** Provider-budget mode: the budget the fake enforces (and the model configuration declares); null: off. */
  rateLimit: { rpm: number | null; tpm: number | null } | null;
  /** Provider-budget mode: declare nothing and learn the limits from the answers. */
  learned: boolean;
  /** Provider-budget mode: an installed promptfoo to run the same workload through, beside Assay. */
  promptfoo: string | null;
  json: boolean;
  help: boolean;
};

export const USAGE = `npm run bench -- [options]

  --cases N            single-turn cases in the executor run (default 1000)
  --concurrency C      run concurrency (default 50)
  --latency MS         fake model latency per call (default 200)
  --history N          completed runs of history for the suite-page query timing (default 500; 0 skips)
  --history-cases N    case results per history run (default 20)
  --explain            print EXPLAIN (ANALYZE, BUFFERS) of the history pages' main queries
  --in-process-fake    run the fake OpenAI server inside the bench process (default: its own process)
  --endpoint-cap N     per-model-config request cap for the bench's model config
                       (default: the product's, ASSAY_MODEL_CONCURRENCY, as the executor sets it)
  --runner real|sleep  real: the case runner against the fake (default); sleep: a runner that only
                       sleeps --latency ms, measuring the executor's own overhead (claims, writes)
  --timeline FILE      write one CSV line per case (claimed/completed ms after the run was created, duration, agent latency)
  --profile FILE       write a CPU profile (.cpuprofile) of the measured run only, without start-up
  --memory             memory growth: a 1,000-case run first, then the measured run (default 10,000
                       cases) on the same executor; RSS and heap after a full GC after each, and the growth
  --cold               the executor skips its start-up warm-up of the model-call path (for comparison)
  --fairness           fairness mode: workspace A runs --big-cases against a slow agent (--slow-latency)
                       at --big-concurrency; workspace B runs --cases (default 100) at --latency and
                       --concurrency, alone first, then while A holds the slots; reports the ratio
  --big-cases N        fairness mode: cases of A's run (default 2000)
  --big-concurrency C  fairness mode: concurrency of A's run (default 64, the most a run may ask)
  --slow-latency MS    fairness mode: A's agent latency (default 1000)
  --slots N            fairness mode: the executor's slots (default ASSAY_WORKER_SLOTS, 64)
  --workspace-cap N    fairness mode: ASSAY_WORKSPACE_MAX_RUNNING (default unset)
  --workers LIST       workers mode: e.g. 1,2,4 — for each count, that many \`scripts/worker.ts\`
                       processes run --runs runs (default 8) sharing --cases (default 4000) and
                       --concurrency (default 400) against --latency (default 1000); reports
                       throughput and speed-up
  --runs N             workers mode: runs sharing the cases and the concurrency (default 8)
  --worker-slots N     workers mode: ASSAY_WORKER_SLOTS (and ASSAY_MODEL_CONCURRENCY) per worker (default 100)
  --viewers N          viewers mode: N dashboard users (signed-in session) poll the live run page's
                       data routes and open case views while the run executes in the production
                       build (\`npm run build\` first); the same run alone first, then with viewers
  --viewers-executor W worker (default, as \`npm start\` runs it): runs execute in their own process
                       (scripts/worker.ts) next to the web server; web: inside the web process
                       (ASSAY_EXECUTOR=on)
  --dist-dir DIR       viewers and OTLP modes: the build directory to start (default ASSAY_DIST_DIR or .next)
  --otlp               OTLP mode: many interleaved multi-turn GenAI conversations sent by the real
                       OpenTelemetry JS exporter (protobuf) to the production build's traces endpoint,
                       open loop at --spans-per-second; reports the rate achieved, export latency
                       p50/p95/p99/max (target: 1,000 spans/s sustained, p95 < 100 ms) and checks in
                       SQL that every span was stored once and every conversation has its user turns
  --spans-per-second N OTLP mode: the target rate (default 1000)
  --seconds S          OTLP mode: the measured window (default 30; an unmeasured 5 s warm-up first)
  --batch N            OTLP mode: spans per export request (default 512, the BatchSpanProcessor's)
  --trials T           trials mode: one run of --cases cases × T trials (1–20), every trial its own case
                       result; reports the wall time against the ideal (cases × T × --latency ÷
                       --concurrency) and checks in SQL that every trial was stored exactly once
  --ab                 A/B mode: a comparison of two arms on the same cases (default 500 cases;
                       baseline at --latency, variant at --variant-latency), reporting the error of
                       the recorded latency diff against the true one
  --variant-latency MS the variant model's latency in A/B mode (default 260)
  --ordering O         A/B ordering: sequential (default), randomized or concurrent
  --warmup N           A/B mode: cases of an unmeasured warm-up comparison first (default 100; 0 = measure
                       a cold process, whose first second adds connection set-up and JIT to the latencies)
  --rate-limit rpm=R,tpm=T
                       provider-budget mode: the fake enforces the budget (429 with Retry-After and
                       x-ratelimit-* headers past it); --workers N (default 2) \`scripts/worker.ts\`
                       processes share it through PostgreSQL over one big run at --concurrency;
                       reports the rate admitted against the budget over --seconds (default 300, after
                       a 10 s start), the share of 429 answers and any case failed by a 429
  --learned            provider-budget mode: the model configuration declares nothing (limits learned)
  --promptfoo BIN      provider-budget mode: then the same workload through an installed promptfoo
                       (BIN, e.g. node_modules/.bin/promptfoo; -j = --concurrency, its own retries),
                       reported beside Assay's figures
  --json               print one JSON object instead of the table

Database: BENCH_DATABASE_URL (or DATABASE_URL) names a PostgreSQL server on which a throwaway
database is created and dropped; without either an embedded PostgreSQL starts in a temp dir.`;

export function parseArgs(argv: string[]): BenchArgs {
  const out: BenchArgs = {
    cases: 1000,
    concurrency: 50,
    latencyMs: 200,
    history: 500,
    historyCases: 20,
    explain: false,
    separateFake: true,
    endpointCap: null,
    runner: "real",
    timelineFile: undefined,
    profileFile: undefined,
    memoryBaselineCases: 0,
    coldStart: false,
    fairness: false,
    bigCases: 2000,
    bigConcurrency: 64,
    slowLatencyMs: 1000,
    slots: null,
    workspaceCap: null,
    workers: [],
    workerSlots: 100,
    runs: 8,
    viewers: 0,
    viewersExecutor: "worker",
    distDir: process.env.ASSAY_DIST_DIR || ".next",
    otlp: false,
    spansPerSecond: 1000,
    seconds: 30,
    batch: 512,
    trials: null,
    ab: false,
    variantLatencyMs: 260,
    ordering: "sequential",
    rateLimit: null,
    learned: false,
    promptfoo: null,
    warmupCases: 100,
    json: false,
    help: false,
  };
  const int = (name: string, raw: string | undefined, min: number): number => {
    const n = Number(raw);
    if (raw === undefined || !Number.isInteger(n) || n < min)
      throw new Error(`--${name} needs an integer ≥ ${min} (got ${raw ?? "nothing"})`);
    return n;
  };
  let casesGiven = false;
  let secondsGiven = false;
  let concurrencyGiven = false;
  let latencyGiven = false;
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i]!;
    const [flag, inline] = raw.includes("=") ? [raw.slice(0, raw.indexOf("=")), raw.slice(raw.indexOf("=") + 1)] : [raw, undefined];
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case "--cases":
        out.cases = int("cases", value(), 1);
        casesGiven = true;
        break;
      case "--concurrency":
        out.concurrency = int("concurrency", value(), 1);
        concurrencyGiven = true;
        break;
      case "--latency":
        out.latencyMs = int("latency", value(), 0);
        latencyGiven = true;
        break;
      case "--history":
        out.history = int("history", value(), 0);
        break;
      case "--history-cases":
        out.historyCases = int("history-cases", value(), 1);
        break;
      case "--explain":
        out.explain = true;
        break;
      case "--separate-fake":
        out.separateFake = true;
        break;
      case "--in-process-fake":
        out.separateFake = false;
        break;
      case "--endpoint-cap": {
        const v = value();
        out.endpointCap = int("endpoint-cap", v, 1);
        break;
      }
      case "--runner": {
        const v = value();
        if (v !== "real" && v !== "sleep") throw new Error(`--runner is real or sleep (got ${v ?? "nothing"})`);
        out.runner = v;
        break;
      }
      case "--timeline": {
        const v = value();
        if (!v) throw new Error("--timeline needs a file name");
        out.timelineFile = v;
        break;
      }
      case "--fairness":
        out.fairness = true;
        break;
      case "--big-cases":
        out.bigCases = int("big-cases", value(), 1);
        break;
      case "--big-concurrency":
        out.bigConcurrency = int("big-concurrency", value(), 1);
        break;
      case "--slow-latency":
        out.slowLatencyMs = int("slow-latency", value(), 0);
        break;
      case "--slots":
        out.slots = int("slots", value(), 1);
        break;
      case "--workspace-cap":
        out.workspaceCap = int("workspace-cap", value(), 1);
        break;
      case "--workers": {
        const v = value() ?? "";
        out.workers = v.split(",").map((n) => int("workers", n.trim(), 1));
        break;
      }
      case "--runs":
        out.runs = int("runs", value(), 1);
        break;
      case "--worker-slots":
        out.workerSlots = int("worker-slots", value(), 1);
        break;
      case "--viewers":
        out.viewers = int("viewers", value(), 0);
        break;
      case "--viewers-executor": {
        const v = value();
        if (v !== "web" && v !== "worker") throw new Error(`--viewers-executor is web or worker (got ${v ?? "nothing"})`);
        out.viewersExecutor = v;
        break;
      }
      case "--dist-dir": {
        const v = value();
        if (!v) throw new Error("--dist-dir needs a directory name");
        out.distDir = v;
        break;
      }
      case "--profile": {
        const v = value();
        if (!v) throw new Error("--profile needs a file name");
        out.profileFile = v;
        break;
      }
      case "--memory":
        out.memoryBaselineCases = 1000;
        break;
      case "--cold":
        out.coldStart = true;
        break;
      case "--trials": {
        const v = value();
        out.trials = int("trials", v, 1);
        if (out.trials > 20) throw new Error(`--trials needs an integer ≤ 20, as a run allows (got ${v})`);
        break;
      }
      case "--ab":
        out.ab = true;
        break;
      case "--variant-latency":
        out.variantLatencyMs = int("variant-latency", value(), 0);
        break;
      case "--ordering": {
        const v = value();
        if (v !== "sequential" && v !== "randomized" && v !== "concurrent")
          throw new Error(`--ordering is sequential, randomized or concurrent (got ${v ?? "nothing"})`);
        out.ordering = v;
        break;
      }
      case "--warmup":
        out.warmupCases = int("warmup", value(), 0);
        break;
      case "--otlp":
        out.otlp = true;
        break;
      case "--spans-per-second":
        out.spansPerSecond = int("spans-per-second", value(), 1);
        break;
      case "--seconds":
        out.seconds = int("seconds", value(), 1);
        secondsGiven = true;
        break;
      case "--batch":
        out.batch = int("batch", value(), 1);
        break;
      case "--rate-limit":
        out.rateLimit = parseBudget(value() ?? "");
        break;
      case "--learned":
        out.learned = true;
        break;
      case "--promptfoo": {
        const bin = value();
        if (!bin) throw new Error("--promptfoo takes the path of an installed promptfoo (its bin)");
        out.promptfoo = bin;
        break;
      }
      case "--json":
        out.json = true;
        break;
      case "--help":
      case "-h":
        out.help = true;
        break;
      default:
        throw new Error(`Unknown option ${raw}\n\n${USAGE}`);
    }
  }
  if (out.rateLimit) {
    if (out.ab || out.fairness || out.trials !== null || out.otlp || out.viewers > 0)
      throw new Error("--rate-limit is a mode of its own (with --workers N for the number of processes)");
    if (out.workers.length > 1) throw new Error("--rate-limit takes one --workers count");
    if (!secondsGiven) out.seconds = 300;
    return out;
  }
  if (out.learned) throw new Error("--learned belongs to --rate-limit");
  if (out.promptfoo) throw new Error("--promptfoo belongs to --rate-limit");
  if (out.ab && !casesGiven) out.cases = 500;
  if (out.memoryBaselineCases > 0 && !casesGiven) out.cases = 10_000;
  if (out.ab && out.viewers > 0) throw new Error("--viewers and --ab are separate modes");
  if (out.fairness && !casesGiven) out.cases = 100;
  if (out.workers.length > 0) {
    if (!casesGiven) out.cases = 4000;
    if (!concurrencyGiven) out.concurrency = 400;
    if (!latencyGiven) out.latencyMs = 1000;
  }
  if ([out.ab, out.fairness, out.workers.length > 0, out.trials !== null].filter(Boolean).length > 1)
    throw new Error("--ab, --fairness, --workers and --trials are separate modes");
  if (out.trials !== null && out.viewers > 0) throw new Error("--viewers and --trials are separate modes");
  if (out.otlp && (out.viewers > 0 || out.ab || out.fairness || out.workers.length > 0 || out.trials !== null))
    throw new Error("--otlp is a mode of its own (not with --viewers, --ab, --fairness, --workers or --trials)");
  if (out.ab && out.variantLatencyMs < out.latencyMs) throw new Error("--variant-latency must be ≥ --latency");
  return out;
}

/** "rpm=600,tpm=60000" (either may be left out, not both). */
function parseBudget(text: string): { rpm: number | null; tpm: number | null } {
  const budget: { rpm: number | null; tpm: number | null } = { rpm: null, tpm: null };
  for (const part of text.split(",")) {
    const [key = "", raw = ""] = part.split("=").map((p) => p.trim());
    const n = Number(raw);
    if ((key !== "rpm" && key !== "tpm") || !Number.isInteger(n) || n < 1)
      throw new Error(`--rate-limit takes rpm=N,tpm=N with whole numbers ≥ 1 (got "${text}")`);
    budget[key] = n;
  }
  return budget;
}
