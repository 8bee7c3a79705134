// The built app for the viewers bench: `next start` on the bench database (the executor inside
// the web process, as deployed by default), or with ASSAY_EXECUTOR=off next to one `npm run worker`
// process. A headless first run (ASSAY_INIT_*) creates the owner, the workspace and an API key.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

export type BenchApp = {
  url: string;
  apiKey: string;
  email: string;
  password: string;
  /** Pid of the process that executes runs (the web process, or the worker). */
  executorPid: number | null;
  webPid: number | null;
  workerPid: number | null;
  logFile: string;
  stop: () => Promise<void>;
};

/** Fails with a clear message when there is no production build to start. */
export function assertBuild(root: string, distDir: string): void {
  if (!existsSync(path.join(root, distDir, "BUILD_ID")))
    throw new Error(
      `--viewers and --otlp need a production build in ${distDir}/ and there is none: run \`npm run build\` first ` +
        `(or name another build directory with ASSAY_DIST_DIR or --dist-dir)`,
    );
}

/** A TCP port on loopback that nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  child.kill("SIGTERM");
  await Promise.race([exited, sleep(10_000)]);
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}

export async function startBenchApp(opts: {
  root: string;
  distDir: string;
  databaseUrl: string;
  executor: "web" | "worker";
  logFile: string;
}): Promise<BenchApp> {
  const { root } = opts;
  assertBuild(root, opts.distDir);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const apiKey = `bench-${randomBytes(24).toString("hex")}`;
  const email = "viewer@example.test";
  const password = `bench-${randomBytes(8).toString("hex")}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    DATABASE_URL: opts.databaseUrl,
    AUTH_SECRET: "assay-bench-secret-assay-bench-secret-0123",
    ASSAY_DIST_DIR: opts.distDir,
    ASSAY_INIT_USER_EMAIL: email,
    ASSAY_INIT_USER_PASSWORD: password,
    ASSAY_INIT_WORKSPACE: "Viewers bench",
    ASSAY_INIT_API_KEY: apiKey,
    // As `npm start` runs them: the web server with ASSAY_EXECUTOR=process and an executor process.
    ASSAY_EXECUTOR: opts.executor === "web" ? "on" : "process",
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "warn",
  };
  delete env.ASSAY_SECRET;
  const log = createWriteStream(opts.logFile, { flags: "a" });
  const children: ChildProcess[] = [];
  const spawnLogged = (args: string[], extraEnv: Record<string, string> = {}) => {
    const child = spawn(process.execPath, args, { cwd: root, env: { ...env, ...extraEnv }, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout!.pipe(log, { end: false });
    child.stderr!.pipe(log, { end: false });
    children.push(child);
    return child;
  };
  // One process (not the `next` shell script), so its pid is the server's for CPU readings.
  // BENCH_WEB_PROFILE=<dir>: the web process writes a V8 CPU profile there when it stops (SIGTERM,
  // which next start answers with a clean exit).
  const profileDir = process.env.BENCH_WEB_PROFILE;
  const profileArgs = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(profileDir)}`] : [];
  const web = spawnLogged([
    ...profileArgs,
    path.join(root, "node_modules/next/dist/bin/next"),
    "start",
    "-p",
    String(port),
    "-H",
    "127.0.0.1",
  ]);
  const killAll = () => children.forEach((c) => c.exitCode === null && c.kill("SIGKILL"));
  process.once("exit", killAll);
  const stop = async () => {
    await Promise.all(children.map(stopChild));
    process.off("exit", killAll);
    log.end();
  };

  try {
    // Healthy, then the headless first run done: the API key answers.
    const deadline = Date.now() + 90_000;
    for (;;) {
      if (web.exitCode !== null) throw new Error(`next start exited with code ${web.exitCode}`);
      if (Date.now() > deadline) throw new Error("the app did not answer within 90 s");
      const ok = await fetch(`${url}/api/v1/suites`, { headers: { authorization: `Bearer ${apiKey}` }, signal: AbortSignal.timeout(5_000) })
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) break;
      await sleep(200);
    }
    let worker: ChildProcess | null = null;
    if (opts.executor === "worker") worker = spawnLogged(["--conditions=react-server", "--import", "tsx", "scripts/worker.ts"]);
    return {
      url,
      apiKey,
      email,
      password,
      executorPid: (worker ?? web).pid ?? null,
      webPid: web.pid ?? null,
      workerPid: worker?.pid ?? null,
      logFile: opts.logFile,
      stop,
    };
  } catch (err) {
    await stop();
    throw new Error(`${err instanceof Error ? err.message : String(err)}; the app's log (${opts.logFile}) ends:\n${tail(opts.logFile)}`);
  }
}

/**
 * Signs in through Auth.js's credentials endpoint as the browser's form does and returns the
 * session cookie ("name=value"), so the viewers call the session routes the run page polls.
 */
export async function signInCookie(url: string, email: string, password: string): Promise<string> {
  const csrf = await fetch(`${url}/api/auth/csrf`);
  if (!csrf.ok) throw new Error(`GET /api/auth/csrf: ${csrf.status}`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const pair = (c: string) => c.split(";")[0]!;
  const res = await fetch(`${url}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrf.headers.getSetCookie().map(pair).join("; ") },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: `${url}/` }),
  });
  const session = res.headers
    .getSetCookie()
    .map(pair)
    .filter((c) => /^(__Secure-)?authjs\.session-token(\.\d+)?=./.test(c));
  if (session.length === 0)
    throw new Error(`sign-in gave no session cookie (${res.status} → ${res.headers.get("location") ?? "no redirect"})`);
  return session.join("; ");
}
