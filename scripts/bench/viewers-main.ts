// `npm run bench -- --viewers N`: the viewers mode — scripts/bench/viewers-bench.ts on a throwaway
// database and the fake OpenAI server, in the life every built-app mode shares (./app-mode.ts).
// Exits 1 only when results are wrong (or the bench could not run), never because a target was
// missed.
import type { BenchArgs } from "./args";
import { runAppBenchMode } from "./app-mode";
import { startBenchFake } from "./fake";
import { benchMeta } from "./report";

export function viewersMain(root: string, args: BenchArgs): Promise<number> {
  return runAppBenchMode(root, args, "viewers", async ({ database, loadBefore, app, closeAtEnd }) => {
    const fake = await startBenchFake({ latencyMs: args.latencyMs, separate: args.separateFake, root });
    closeAtEnd(() => fake.close());
    const { benchViewers, formatViewersReport } = await import("./viewers-bench");
    const result = await benchViewers({
      ...app,
      fake,
      viewers: args.viewers,
      cases: args.cases,
      concurrency: args.concurrency,
      latencyMs: args.latencyMs,
      executor: args.viewersExecutor,
    });
    const meta = benchMeta(database, loadBefore);
    return {
      failures: result.failures,
      json: { mode: "viewers", ...meta, viewers: result, failures: result.failures },
      table: formatViewersReport(result, meta),
    };
  });
}
