// The life every bench mode that drives the built app shares (the viewers and OTLP modes): check
// the build, open the throwaway database, run the mode, print its table or one JSON object, clean
// up (also on SIGINT/SIGTERM). Returns the exit code: 1 only when results are wrong (or the bench
// could not run), never because a target was missed.
import type { BenchArgs } from "./args";
import { assertBuild } from "./app-server";
import { openBenchDatabase, type BenchDatabase } from "./database";
import { loadAverage } from "./report";

export type AppModeContext = {
  database: BenchDatabase;
  loadBefore: string;
  /** What every built-app bench is given: the build to start and the database it runs on. */
  app: { root: string; distDir: string; databaseUrl: string; dbCpuMs: () => number | null; say: (line: string) => void };
  /** Closes `close` when the bench ends, before the database goes (what is kept last closes first). */
  closeAtEnd: (close: () => Promise<unknown>) => void;
};

/** What a mode reports: its failures (any makes the exit code 1), its --json object and its table. */
export type AppModeReport = { failures: string[]; json: object; table: string };

export async function runAppBenchMode(
  root: string,
  args: BenchArgs,
  mode: string,
  run: (context: AppModeContext) => Promise<AppModeReport>,
): Promise<number> {
  const say = (line: string) => {
    if (!args.json) process.stderr.write(`${line}\n`);
  };
  const closers: (() => Promise<unknown>)[] = [];
  let cleaning: Promise<void> | undefined;
  const cleanup = () =>
    (cleaning ??= (async () => {
      for (const close of closers.reverse()) await close().catch(() => undefined);
    })());
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void cleanup().finally(() => process.exit(130)));

  const loadBefore = loadAverage();
  try {
    assertBuild(root, args.distDir);
    const serverUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || undefined;
    say(serverUrl ? "creating a throwaway database on the configured PostgreSQL…" : "starting an embedded PostgreSQL…");
    const database = await openBenchDatabase(root, serverUrl);
    closers.push(() => database.dispose());
    const app = { root, distDir: args.distDir, databaseUrl: database.url, dbCpuMs: database.cpuMs, say };
    const report = await run({ database, loadBefore, app, closeAtEnd: (close) => closers.push(close) });
    process.stdout.write(args.json ? `${JSON.stringify(report.json)}\n` : `${report.table}\n`);
    return report.failures.length ? 1 : 0;
  } catch (err) {
    const message = `bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
    process.stderr.write(`${message}\n`);
    if (args.json) process.stdout.write(`${JSON.stringify({ mode, loadBefore, loadAfter: loadAverage(), failures: [message] })}\n`);
    return 1;
  } finally {
    await cleanup();
  }
}
