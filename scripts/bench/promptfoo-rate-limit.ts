// `npm run bench -- --rate-limit rpm=600,tpm=60000 --promptfoo BIN`: after Assay's measurement,
// the same workload through promptfoo, beside it. The same fake, its budget refilled, the same
// latency; promptfoo's own concurrency (-j, set to the run's concurrency) and its own retry on a
// 429 (it reads Retry-After and x-ratelimit-reset-*). Everything is read from the fake's request
// log over the same window: the rate it admitted, the 429s it answered, the questions answered and
// how many were asked again after an answer. promptfoo is not a dependency: BIN is an installed
// `promptfoo` (e.g. `npm i promptfoo@0.118.0` in a directory of its own). It runs with telemetry,
// update checks and its cache off, its state in a temporary directory, talking only to the fake.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BenchFake } from "./fake";
import { fakeRequests, setFakeRateLimit, SETTLE_SECONDS } from "./rate-limit-bench";

export type PromptfooRateLimitResult = {
  version: string;
  concurrency: number;
  tests: number;
  windowSeconds: number;
  admitted: number;
  refused: number;
  achievedRpm: number;
  rpmShare: number | null;
  refusedShare: number;
  /** 429 answers in the start before the window (its first wave meets an empty budget). */
  refusedAtStart: number;
  /** Distinct questions with an admitted answer, from promptfoo's start to the window's end. */
  answered: number;
  /** Admitted answers beyond the first for a question: promptfoo asked again after an answer. */
  askedAgain: number;
  /** promptfoo's last lines, when it stopped before the window ended. */
  exitedEarly: string | null;
};

const QUESTION = "pf question";

export async function benchPromptfooRateLimit(opts: {
  bin: string;
  fake: BenchFake;
  rpm: number | null;
  tpm: number | null;
  concurrency: number;
  seconds: number;
  say: (line: string) => void;
}): Promise<PromptfooRateLimitResult> {
  const { fake, rpm, tpm, say } = opts;
  const dir = mkdtempSync(path.join(os.tmpdir(), "assay-bench-promptfoo-"));
  const version = execFileSync(opts.bin, ["--version"], { env: promptfooEnv(dir), encoding: "utf8" }).trim();
  const perSecond = rpm ? rpm / 60 : 50;
  // As many tests as Assay's run had cases: more than the budget admits over the window.
  const tests = Math.ceil(perSecond * (opts.seconds + SETTLE_SECONDS + 20) * 1.3);
  // JSON is YAML: promptfoo reads it as its promptfooconfig.yaml.
  const config = {
    description: "Assay bench: provider budget",
    prompts: ["{{question}}"],
    providers: [{ id: "openai:chat:fake-model", config: { apiBaseUrl: fake.url, apiKey: "bench-key" } }],
    tests: Array.from({ length: tests }, (_, i) => ({ vars: { question: `${QUESTION} ${i}` } })),
  };
  writeFileSync(path.join(dir, "promptfooconfig.yaml"), JSON.stringify(config));
  // The budget starts full again, as it did for Assay.
  await setFakeRateLimit(fake.url, null);
  await setFakeRateLimit(fake.url, { rpm, tpm });
  const logFile = path.join(dir, "promptfoo.log");
  const log = openSync(logFile, "w");
  const epoch = Date.now();
  const child = spawn(
    opts.bin,
    ["eval", "-c", "promptfooconfig.yaml", "-j", String(opts.concurrency), "--no-cache", "--no-progress-bar", "--no-table", "--no-write"],
    { cwd: dir, env: promptfooEnv(dir), stdio: ["ignore", log, log], detached: true },
  );
  let exited = false;
  child.on("exit", () => (exited = true));
  say(`  promptfoo ${version}: ${tests} tests at -j ${opts.concurrency}; measuring ${opts.seconds} s after the first ${SETTLE_SECONDS} s…`);
  const from = epoch + SETTLE_SECONDS * 1000;
  const to = from + opts.seconds * 1000;
  try {
    for (let t = Date.now(); t < to && !exited; t = Date.now()) {
      await new Promise((r) => setTimeout(r, Math.min(15_000, to - t)));
      say(`  ${Math.round((Date.now() - epoch) / 1000)} s: promptfoo ${exited ? "exited" : "running"}`);
    }
  } finally {
    await stop(child);
    closeSync(log);
  }
  const exitedEarly = Date.now() < to ? readFileSync(logFile, "utf8").trim().split("\n").slice(-5).join(" / ") : null;
  rmSync(dir, { recursive: true, force: true });

  const ours = (await fakeRequests(fake.url)).filter(
    (r) => r.endpoint === "chat" && r.at >= epoch && JSON.stringify(r.body?.messages ?? "").includes(QUESTION),
  );
  const inWindow = ours.filter((r) => r.at >= from && r.at < to);
  const admitted = inWindow.filter((r) => r.status === 200).length;
  const refusedAtStart = ours.filter((r) => r.at < from && r.status === 429).length;
  const refused = inWindow.filter((r) => r.status === 429).length;
  const answers = new Map<string, number>();
  for (const r of ours.filter((q) => q.status === 200 && q.at < to)) {
    const question = String(r.body?.messages?.at(-1)?.content ?? "");
    answers.set(question, (answers.get(question) ?? 0) + 1);
  }
  const achievedRpm = admitted / (opts.seconds / 60);
  return {
    version,
    concurrency: opts.concurrency,
    tests,
    windowSeconds: opts.seconds,
    admitted,
    refused,
    achievedRpm,
    rpmShare: rpm ? achievedRpm / rpm : null,
    refusedShare: inWindow.length ? refused / inWindow.length : 0,
    refusedAtStart,
    answered: answers.size,
    askedAgain: [...answers.values()].reduce((sum, n) => sum + n - 1, 0),
    exitedEarly,
  };
}

/** No telemetry, no update check, no sharing, no cache; promptfoo's database in `dir`. */
function promptfooEnv(dir: string): NodeJS.ProcessEnv {
  return {
    NODE_ENV: "production",
    // The machine's `node`, not the project's (npm run puts node_modules/.bin, with the pinned
    // Node, first): promptfoo's native modules are built for the Node that installed it.
    PATH: (process.env.PATH ?? "")
      .split(path.delimiter)
      .filter((dir) => !dir.includes(`node_modules${path.sep}.bin`))
      .join(path.delimiter),
    HOME: dir,
    PROMPTFOO_CONFIG_DIR: path.join(dir, ".promptfoo"),
    PROMPTFOO_DISABLE_TELEMETRY: "1",
    PROMPTFOO_DISABLE_UPDATE: "1",
    PROMPTFOO_DISABLE_SHARING: "1",
    PROMPTFOO_CACHE_ENABLED: "false",
    PROMPTFOO_DISABLE_REMOTE_GENERATION: "true",
    OPENAI_API_KEY: "bench-key",
  };
}

/** Stops promptfoo and everything it started (its process group): SIGTERM, then SIGKILL after 5 s. */
async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child.once("exit", r));
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, s);
    } catch {
      // already gone
    }
  };
  signal("SIGTERM");
  const timer = setTimeout(() => signal("SIGKILL"), 5_000);
  await gone;
  clearTimeout(timer);
}

const pct = (v: number | null) => (v === null ? "n/a" : `${(v * 100).toFixed(1)} %`);

export function formatPromptfooRateLimit(r: PromptfooRateLimitResult): string {
  return [
    `  promptfoo ${r.version} on the same budget and fake (-j ${r.concurrency}, its own retry on 429), window ${r.windowSeconds} s after a ${SETTLE_SECONDS} s start:`,
    `    admitted: ${r.admitted} requests = ${r.achievedRpm.toFixed(1)}/min (${pct(r.rpmShare)} of the rpm budget)`,
    `    429 answers: ${r.refused} of ${r.admitted + r.refused} requests = ${pct(r.refusedShare)} (and ${r.refusedAtStart} in the ${SETTLE_SECONDS} s before the window)`,
    `    questions answered: ${r.answered} of ${r.tests}; asked again after an answer: ${r.askedAgain}`,
    ...(r.exitedEarly ? [`    promptfoo stopped before the window ended: ${r.exitedEarly}`] : []),
  ].join("\n");
}
