// `npm run bench -- --otlp`: the OTLP ingestion mode's whole life — check the build, open the
// throwaway database, run scripts/bench/otlp-bench.ts, print the table or one JSON object, clean
// up (also on SIGINT/SIGTERM). Returns the exit code: 1 only when results are wrong (lost or
// duplicated spans, wrong turns, failed exports) or the bench could not run, never because a
// target was missed.
import type { BenchArgs } from "./args";
import { assertBuild } from "./app-server";
import { openBenchDatabase, type BenchDatabase } from "./database";
import { databaseLabel, loadAverage } from "./report";

export async function otlpMain(root: string, args: BenchArgs): Promise<number> {
  const say = (line: string) => {
    if (!args.json) process.stderr.write(`${line}\n`);
  };
  let database: BenchDatabase | undefined;
  let cleaning: Promise<void> | undefined;
  const cleanup = () => (cleaning ??= (async () => void (await database?.dispose().catch(() => undefined)))());
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void cleanup().finally(() => process.exit(130)));

  const loadBefore = loadAverage();
  try {
    assertBuild(root, args.distDir);
    const serverUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || undefined;
    say(serverUrl ? "creating a throwaway database on the configured PostgreSQL…" : "starting an embedded PostgreSQL…");
    database = await openBenchDatabase(root, serverUrl);
    const { benchOtlp, formatOtlpReport } = await import("./otlp-bench");
    const result = await benchOtlp({
      root,
      distDir: args.distDir,
      databaseUrl: database.url,
      dbCpuMs: database.cpuMs,
      spansPerSecond: args.spansPerSecond,
      seconds: args.seconds,
      batch: args.batch,
      say,
    });
    const meta = { database: databaseLabel(database) };
    process.stdout.write(
      args.json
        ? `${JSON.stringify({ mode: "otlp", ...meta, otlp: result, failures: result.failures })}\n`
        : `${formatOtlpReport(result, meta)}\n`,
    );
    return result.failures.length ? 1 : 0;
  } catch (err) {
    const message = `bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
    process.stderr.write(`${message}\n`);
    if (args.json) process.stdout.write(`${JSON.stringify({ mode: "otlp", loadBefore, loadAfter: loadAverage(), failures: [message] })}\n`);
    return 1;
  } finally {
    await cleanup();
  }
}
