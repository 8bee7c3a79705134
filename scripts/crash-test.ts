// `npm run test:crash`: two crashes mid-run, each followed by a check that the run completes with
// every case recorded exactly once.
//  1. SIGKILL of the executor process alone: the web server keeps answering, /api/health says the
//     executor is restarting, the launcher's supervisor brings it back and it takes over the dead
//     process's leases at once.
//  2. SIGKILL of the whole app (launcher, next, executor, postmaster), started again at once.
//
// The app is started as a user would (`node scripts/launch.mjs start`: embedded PostgreSQL +
// `next start`) on a fresh temp data directory with a headless first run, against the fake
// OpenAI server (200 ms per call) in this process. 300 cases run with concurrency 16; when a
// third of them are done the launcher's whole process group (launcher, next, postmaster) gets
// SIGKILL, and the launcher is started again immediately. Uses the production build in
// ASSAY_DIST_DIR (.next), building it only when missing. Loopback only; bounded in time; prints
// "N passed, N failed".
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { startFakeOpenAI, type FakeOpenAI } from "../tests/fake-openai/server";
import { freePort } from "./bench/app-server";

const root = path.resolve(import.meta.dirname, "..");
const CASES = Number(process.env.CRASH_CASES ?? 300);
const CONCURRENCY = 16;
const LATENCY_MS = 200;
const DEADLINE_MS = Number(process.env.CRASH_TIMEOUT_MS ?? 180_000);
const distDir = process.env.ASSAY_DIST_DIR || ".next";
const apiKey = `crash-${randomBytes(24).toString("hex")}`;
const started = Date.now();

let passed = 0;
let failed = 0;
/** The failed checks, for `npm test`'s list of failures. */
const failures: string[] = [];
function check(ok: boolean, what: string, detail = "") {
  if (ok) passed++;
  else {
    failed++;
    failures.push(`${what}${detail ? ` — ${detail}` : ""}`);
  }
  console.log(`${ok ? "✓" : "✗"} ${what}${detail ? ` — ${detail}` : ""}`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const left = () => DEADLINE_MS - (Date.now() - started);

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    spawn(cmd, args, { cwd: root, env, stdio: "inherit" }).on("exit", (code) => resolve(code ?? 1));
  });
}

const tmp = mkdtempSync(path.join(os.tmpdir(), "assay-crash-"));
chmodSync(tmp, 0o711); // as root, the `postgres` user must reach the data directory inside
const dataDir = path.join(tmp, "data");
const logFile = path.join(tmp, "app.log");
const log = createWriteStream(logFile, { flags: "a" });
let app: ChildProcess | null = null;
let fake: FakeOpenAI | null = null;
let databaseUp = false;

/** Starts the launcher as its own process group, so that one kill reaches all its processes. */
function startApp(env: NodeJS.ProcessEnv, echo = false): ChildProcess {
  const t0 = Date.now();
  const child = spawn(process.execPath, ["scripts/launch.mjs", "start"], {
    cwd: root,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.pipe(log, { end: false });
    // The launcher's own lines of the restart show how it recovered, with their timing.
    if (!echo) continue;
    createInterface({ input: stream }).on("line", (line) => {
      if (!line.startsWith("[assay]")) return;
      console.log(`  +${Date.now() - t0} ms ${line}`);
      if (line.includes("embedded PostgreSQL on")) databaseUp = true;
    });
  }
  return child;
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

async function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return true;
  return Promise.race([new Promise<boolean>((r) => child.once("exit", () => r(true))), sleep(ms).then(() => false)]);
}

async function until<T>(what: string, fn: () => Promise<T | null | undefined>, everyMs = 100): Promise<T> {
  for (;;) {
    if (left() <= 0) throw new Error(`timed out waiting for ${what}`);
    if (app && app.exitCode !== null) throw new Error(`the app exited (code ${app.exitCode}) while waiting for ${what}`);
    const value = await fn().catch(() => null);
    if (value !== null && value !== undefined) return value;
    await sleep(everyMs);
  }
}

async function main() {
  if (!existsSync(path.join(root, distDir, "BUILD_ID"))) {
    console.log(`no production build in ${distDir}: building it`);
    if ((await run("npm", ["run", "build"], { ...process.env, ASSAY_DIST_DIR: distDir })) !== 0) throw new Error("the build failed");
  }
  fake = await startFakeOpenAI({ latencyMs: LATENCY_MS });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    ASSAY_DIST_DIR: distDir,
    ASSAY_DATA_DIR: dataDir,
    ASSAY_INIT_USER_EMAIL: "crash@example.com",
    ASSAY_INIT_USER_PASSWORD: "crash-test-password",
    ASSAY_INIT_WORKSPACE: "Crash test",
    ASSAY_INIT_API_KEY: apiKey,
    LOG_LEVEL: "warn",
  };
  delete env.DATABASE_URL;
  delete env.AUTH_SECRET;
  delete env.ASSAY_SECRET;

  const api = async <T>(method: string, url: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${base}/api/v1${url}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const healthy = async () => ((await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2_000) })).ok ? true : null);

  // First start, data, run.
  app = startApp(env);
  let t = Date.now();
  await until("the first start", healthy);
  console.log(`first start: ${Date.now() - t} ms`);
  // `npm start` runs the web server and, beside it, the process that executes the runs.
  const launched = JSON.parse(readFileSync(path.join(dataDir, "launcher-start.json"), "utf8")) as { children?: { pid: number }[] };
  check(launched.children?.length === 2, "npm start runs the web server and an executor process", JSON.stringify(launched.children));
  const config = await api<{ id: string }>("POST", "/model-configs", {
    name: "Fake",
    base_url: fake.url,
    model: "gpt-4o-mini",
    api_key: "sk-fake",
  });
  const agent = await api<{ id: string }>("POST", "/agents", {
    name: "Crash bot",
    kind: "chat",
    system_prompt: "Answer.",
    model_config_id: config.id,
  });
  const suite = await api<{ id: string }>("POST", "/suites", { agent_id: agent.id, name: "Crash suite" });
  const messages = Array.from({ length: CASES }, (_, i) => `crash case ${i}`);
  const cases = messages.map((m, i) => ({ name: `Case ${i}`, status: "active", initial_message: m, max_turns: 1 }));
  await api("POST", `/suites/${suite.id}/test-cases/import`, cases);
  type Health = { status: string; executor?: { state: string; restarts: number | null } };
  const health = async () => (await (await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2_000) })).json()) as Health;
  type Run = {
    status: string;
    total_cases: number;
    passed_cases: number;
    failed_cases: number;
    error_cases: number;
    skipped_cases: number;
  };
  const done = (r: Run) => r.passed_cases + r.failed_cases + r.error_cases + r.skipped_cases;
  const finished = (runId: string) =>
    until(
      "the run to finish",
      async () => {
        const r = await api<Run>("GET", `/runs/${runId}`);
        return ["completed", "failed", "cancelled"].includes(r.status) ? r : null;
      },
      200,
    );

  type Result = { test_case_id: string; status: string };
  const resultsOf = async (runId: string) => {
    const results: Result[] = [];
    for (let cursor: string | null = null; ;) {
      const page: { data: Result[]; next_cursor: string | null } = await api(
        "GET",
        `/runs/${runId}/results?limit=500${cursor ? `&cursor=${cursor}` : ""}`,
      );
      results.push(...page.data);
      cursor = page.next_cursor;
      if (!cursor) break;
    }
    return results;
  };
  /** How many times the fake model was asked each case's message so far (its log records a request as it arrives). */
  const askedCounts = () => {
    const asked = new Map<string, number>();
    for (const r of fake!.requests) {
      if (r.endpoint !== "chat") continue;
      const msgs = (r.body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
      const last = msgs.filter((m) => m.role === "user").at(-1)?.content;
      if (typeof last === "string") asked.set(last, (asked.get(last) ?? 0) + 1);
    }
    return asked;
  };
  /** How many of the run's cases the model had been asked so far. */
  const askedCases = () => {
    const asked = askedCounts();
    return messages.filter((m) => asked.has(m)).length;
  };
  /**
   * The kill must land mid-run, or the restart proves nothing: read synchronously right after the
   * kill (nothing else has run yet), the cases the model had been asked are fewer than all, so
   * fewer than all were done; the run's own count before the kill says at least a third were.
   */
  const checkMidRun = (askedAtKill: number, doneBefore: number, which: string) =>
    check(
      askedAtKill < CASES && doneBefore >= CASES / 3 && doneBefore < CASES,
      `the ${which} kill came mid-run (fewer than all cases done)`,
      `${askedAtKill}/${CASES} cases asked at the kill, ${doneBefore} done just before`,
    );
  /** Every case exactly once, every result final, and the model asked again only what was in flight at the kill. */
  const verifyRun = (final: Run, results: Result[], when: string) => {
    check(final.status === "completed", `the run completes ${when}`, final.status);
    check(final.total_cases === CASES && done(final) === CASES, `the run counts ${CASES} cases`, `${done(final)}/${final.total_cases}`);
    check(
      final.error_cases === 0 && final.skipped_cases === 0,
      "no case errored or was skipped",
      `error ${final.error_cases}, skipped ${final.skipped_cases}`,
    );
    const perCase = new Map<string, number>();
    for (const r of results) perCase.set(r.test_case_id, (perCase.get(r.test_case_id) ?? 0) + 1);
    check(results.length === CASES && perCase.size === CASES, "one result per case", `${results.length} results, ${perCase.size} cases`);
    check(
      results.every((r) => r.status === "passed" || r.status === "failed"),
      "every result is final",
      [...new Set(results.map((r) => r.status))].join(","),
    );
    // The model saw every case; only cases in flight at the kill (≤ concurrency) were asked twice.
    const asked = askedCounts();
    const twice = messages.filter((m) => (asked.get(m) ?? 0) > 1);
    check(
      messages.every((m) => (asked.get(m) ?? 0) >= 1),
      "the model was asked every case",
      `${messages.filter((m) => asked.has(m)).length}/${CASES}`,
    );
    check(
      twice.length <= CONCURRENCY && twice.every((m) => asked.get(m) === 2),
      `only cases in flight at the kill were asked again (≤ ${CONCURRENCY}, at most twice)`,
      `${twice.length} asked twice`,
    );
  };

  // Crash 1: the executor process alone.
  await until("the executor to beat", async () => ((await health()).executor?.state === "up" ? true : null));
  const firstRun = await api<{ id: string }>("POST", `/suites/${suite.id}/runs`, { concurrency: CONCURRENCY });
  const firstBeforeKill = await until("a third of the first run's cases", async () => {
    const r = await api<Run>("GET", `/runs/${firstRun.id}`);
    return done(r) >= CASES / 3 ? r : null;
  });
  const executorPid = launched.children![1]!.pid;
  process.kill(executorPid, "SIGKILL");
  checkMidRun(askedCases(), done(firstBeforeKill), "executor");
  t = Date.now();
  const states: string[] = [];
  let webAnswered = 0;
  let webFailed = 0;
  // The web server keeps answering while the executor comes back; the health route says so.
  await until("the executor to be up again", async () => {
    try {
      const h = await health();
      webAnswered++;
      if (h.executor && states.at(-1) !== h.executor.state) states.push(h.executor.state);
      return h.executor?.state === "up" && states.includes("restarting") && (h.executor.restarts ?? 0) >= 1 ? h : null;
    } catch {
      webFailed++;
      return null;
    }
  });
  const executorBackMs = Date.now() - t;
  console.log(`executor killed (pid ${executorPid}): up again after ${executorBackMs} ms; health said ${states.join(" → ")}`);
  check(
    webFailed === 0 && webAnswered > 0,
    "the web server kept answering while the executor restarted",
    `${webAnswered} answers, ${webFailed} failures`,
  );
  check(states.includes("restarting"), "/api/health reported the executor restarting, then up", states.join(" → "));
  const relaunched = JSON.parse(readFileSync(path.join(dataDir, "launcher-start.json"), "utf8")) as { children?: { pid: number }[] };
  check(
    relaunched.children?.length === 2 &&
      relaunched.children[0]!.pid === launched.children![0]!.pid &&
      relaunched.children[1]!.pid !== executorPid,
    "the launcher restarted the executor process alone",
    JSON.stringify(relaunched.children),
  );
  const firstFinal = await finished(firstRun.id);
  verifyRun(firstFinal, await resultsOf(firstRun.id), "after the executor's crash");
  fake.requests.length = 0;

  // Crash 2: the whole app.
  const theRun = await api<{ id: string }>("POST", `/suites/${suite.id}/runs`, { concurrency: CONCURRENCY });
  await until("a third of the cases", async () => {
    const r = await api<Run>("GET", `/runs/${theRun.id}`);
    return done(r) >= CASES / 3 ? r : null;
  });

  // Crash: the launcher's whole process group at once, mid-run.
  const beforeKill = await api<Run>("GET", `/runs/${theRun.id}`);
  const chatBefore = fake.requests.filter((r) => r.endpoint === "chat").length;
  // CRASH_KILL=launcher: only the launcher dies; next and the postmaster are left running.
  if (process.env.CRASH_KILL === "launcher") app.kill("SIGKILL");
  else killGroup(app, "SIGKILL");
  checkMidRun(askedCases(), done(beforeKill), "whole-app");
  await waitForExit(app, 5_000);
  console.log(`SIGKILL with ${done(beforeKill)}/${CASES} cases done, ${chatBefore} model calls made`);

  // Restart at once.
  t = Date.now();
  databaseUp = false;
  app = startApp(env, true);
  // Only the new app counts: an old `next start` left running may still answer until it is stopped.
  await until("the restart", async () => (databaseUp ? healthy() : null), 50);
  const restartMs = Date.now() - t;
  console.log(`restart: healthy after ${restartMs} ms`);
  t = Date.now();
  const final = await finished(theRun.id);
  const completeMs = Date.now() - t;
  console.log(`run finished ${completeMs} ms after the restart was healthy`);
  verifyRun(final, await resultsOf(theRun.id), "after the whole app's crash");

  // Nothing world-writable, the secret private.
  const mode = (p: string) => statSync(p).mode & 0o777;
  check(mode(path.join(dataDir, "secret")) === 0o600, "the secret file is 0600", mode(path.join(dataDir, "secret")).toString(8));
  check((mode(dataDir) & 0o022) === 0, "the data directory is not group/world-writable", mode(dataDir).toString(8));
  check(mode(path.join(dataDir, "pg")) === 0o700, "the cluster directory is 0700", mode(path.join(dataDir, "pg")).toString(8));

  console.log(`timings: restart ${restartMs} ms, complete after restart ${completeMs} ms, total ${Date.now() - started} ms`);
}

async function cleanup() {
  if (app && app.exitCode === null) {
    killGroup(app, "SIGTERM");
    if (!(await waitForExit(app, 15_000))) killGroup(app, "SIGKILL");
  }
  await fake?.close().catch(() => undefined);
  log.end();
}

/** The closing line; with CRASH_RESULT_FILE (set by `npm test`) also the counts and failed checks as JSON. */
function report(passedChecks: number, failedChecks: number) {
  console.log(`\n${passedChecks} passed, ${failedChecks} failed`);
  if (process.env.CRASH_RESULT_FILE)
    writeFileSync(process.env.CRASH_RESULT_FILE, JSON.stringify({ passed: passedChecks, failed: failedChecks, failures }));
}

const timer = setTimeout(() => {
  console.error(`crash test: over ${DEADLINE_MS} ms, giving up`);
  if (app) killGroup(app, "SIGKILL");
  report(passed, failed + 1);
  process.exit(1);
}, DEADLINE_MS + 20_000);
timer.unref();

try {
  await main();
} catch (err) {
  check(false, "the crash scenario ran to the end", err instanceof Error ? err.message : String(err));
}
await cleanup();
if (failed) {
  console.log(`\napp log (last lines of ${logFile}):`);
  console.log(readFileSync(logFile, "utf8").split("\n").slice(-40).join("\n"));
}
rmSync(tmp, { recursive: true, force: true });
report(passed, failed);
process.exit(failed ? 1 : 0);
