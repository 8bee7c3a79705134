// `npm run bench -- --viewers N`: the viewers mode's whole life — check the build, open the
// throwaway database and the fake OpenAI server, run scripts/bench/viewers-bench.ts, print the
// table or one JSON object, clean up (also on SIGINT/SIGTERM). Returns the exit code: 1 only when
// results are wrong (or the bench could not run), never because a target was missed.
import type { BenchArgs } from "./args";
import { assertBuild } from "./app-server";
import { openBenchDatabase, type BenchDatabase } from "./database";
import { startBenchFake, type BenchFake } from "./fake";
import { benchMeta, loadAverage } from "./report";

export async function viewersMain(root: string, args: BenchArgs): Promise<number> {
  const say = (line: string) => {
    if (!args.json) process.stderr.write(`${line}\n`);
  };
  let database: BenchDatabase | undefined;
  let fake: BenchFake | undefined;
  let cleaning: Promise<void> | undefined;
  const cleanup = () =>
    (cleaning ??= (async () => {
      await fake?.close().catch(() => undefined);
      await database?.dispose().catch(() => undefined);
    })());
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void cleanup().finally(() => process.exit(130)));

  const loadBefore = loadAverage();
  try {
    assertBuild(root, args.distDir);
    const serverUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || undefined;
    say(serverUrl ? "creating a throwaway database on the configured PostgreSQL…" : "starting an embedded PostgreSQL…");
    database = await openBenchDatabase(root, serverUrl);
    fake = await startBenchFake({ latencyMs: args.latencyMs, separate: args.separateFake, root });
    const { benchViewers, formatViewersReport } = await import("./viewers-bench");
    const result = await benchViewers({
      root,
      distDir: args.distDir,
      databaseUrl: database.url,
      dbCpuMs: database.cpuMs,
      fake,
      viewers: args.viewers,
      cases: args.cases,
      concurrency: args.concurrency,
      latencyMs: args.latencyMs,
      executor: args.viewersExecutor,
      say,
    });
    const meta = benchMeta(database, loadBefore);
    process.stdout.write(
      args.json
        ? `${JSON.stringify({ mode: "viewers", ...meta, viewers: result, failures: result.failures })}\n`
        : `${formatViewersReport(result, meta)}\n`,
    );
    return result.failures.length ? 1 : 0;
  } catch (err) {
    const message = `bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
    process.stderr.write(`${message}\n`);
    if (args.json)
      process.stdout.write(`${JSON.stringify({ mode: "viewers", loadBefore, loadAfter: loadAverage(), failures: [message] })}\n`);
    return 1;
  } finally {
    await cleanup();
  }
}
