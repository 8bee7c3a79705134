// `npm run bench -- --otlp`: the OTLP ingestion mode — scripts/bench/otlp-bench.ts on a throwaway
// database, in the life every built-app mode shares (./app-mode.ts). Exits 1 only when results are
// wrong (lost or duplicated spans, wrong turns, failed exports) or the bench could not run, never
// because a target was missed.
import type { BenchArgs } from "./args";
import { runAppBenchMode } from "./app-mode";
import { databaseLabel } from "./report";

export function otlpMain(root: string, args: BenchArgs): Promise<number> {
  return runAppBenchMode(root, args, "otlp", async ({ database, app }) => {
    const { benchOtlp, formatOtlpReport } = await import("./otlp-bench");
    const result = await benchOtlp({ ...app, spansPerSecond: args.spansPerSecond, seconds: args.seconds, batch: args.batch });
    const meta = { database: databaseLabel(database) };
    return {
      failures: result.failures,
      json: { mode: "otlp", ...meta, otlp: result, failures: result.failures },
      table: formatOtlpReport(result, meta),
    };
  });
}
