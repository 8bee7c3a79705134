// Runs the fake OpenAI-compatible server as its own process (benchmarks, manual testing):
//   node --import tsx tests/fake-openai/cli.ts --port 3199 [--latency 200] [--host 127.0.0.1]
// Prints the base URL and stops on SIGINT/SIGTERM.
import { serveUntilSignalled } from "./process";
import { startFakeOpenAI } from "./server";

function option(name: string): string | undefined {
  const args = process.argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === `--${name}`) return args[i + 1];
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
  }
  return undefined;
}

function numberOption(name: string, fallback: number): number {
  const raw = option(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    process.stderr.write(`fake-openai: --${name} must be a number ≥ 0 (got "${raw}")\n`);
    process.exit(2);
  }
  return value;
}

const server = await startFakeOpenAI({
  port: numberOption("port", 3199),
  host: option("host") ?? "127.0.0.1",
  latencyMs: numberOption("latency", 0),
});
serveUntilSignalled(server);
