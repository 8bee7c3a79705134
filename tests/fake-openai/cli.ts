// Runs the fake OpenAI-compatible server as its own process (benchmarks, manual testing):
//   node --import tsx tests/fake-openai/cli.ts --port 3199 [--latency 200] [--host 127.0.0.1]
//     [--rpm 600] [--tpm 60000] [--burst-seconds 1]   (a provider budget; see rate-limit.ts)
// Prints the base URL and stops on SIGINT/SIGTERM.
import { serveUntilSignalled } from "./process";
import { startFakeOpenAI, type RateLimit } from "./server";

function option(name: string): string | undefined {
  const args = process.argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === `--${name}`) return args[i + 1];
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
  }
  return undefined;
}

function fail(message: string): never {
  process.stderr.write(`fake-openai: ${message}\n`);
  process.exit(2);
}

function numberOption(name: string, fallback: number): number {
  const raw = option(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) fail(`--${name} must be a number ≥ 0 (got "${raw}")`);
  return value;
}

function positiveOption(name: string): number | undefined {
  const raw = option(name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) fail(`--${name} must be a number > 0 (got "${raw}")`);
  return value;
}

/** --rpm / --tpm / --burst-seconds as a budget; undefined when neither limit is given. */
function rateLimitOptions(): RateLimit | undefined {
  const [rpm, tpm, burstSeconds] = [positiveOption("rpm"), positiveOption("tpm"), positiveOption("burst-seconds")];
  if (rpm === undefined && tpm === undefined) {
    if (burstSeconds !== undefined) fail("--burst-seconds needs --rpm or --tpm");
    return undefined;
  }
  return { rpm, tpm, burstSeconds };
}

const server = await startFakeOpenAI({
  port: numberOption("port", 3199),
  host: option("host") ?? "127.0.0.1",
  latencyMs: numberOption("latency", 0),
  rateLimit: rateLimitOptions(),
});
serveUntilSignalled(server);
