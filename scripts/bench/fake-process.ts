// The bench's fake OpenAI server in its own process: tests/fake-openai/cli.ts plus the server's
// own time per chat request. Prints the base URL on the first line, then one JSON line per
// answered chat request ({question, serverMs}); stops on SIGINT/SIGTERM.
//   node --import tsx scripts/bench/fake-process.ts --latency 200
import { serveUntilSignalled } from "../../tests/fake-openai/process";
import { startFakeOpenAI } from "../../tests/fake-openai/server";
import { recordServerTimes } from "./fake-timing";

const args = process.argv.slice(2);
const latencyAt = args.indexOf("--latency");
const latencyMs = latencyAt >= 0 ? Number(args[latencyAt + 1]) : 0;
if (!Number.isFinite(latencyMs) || latencyMs < 0) {
  process.stderr.write(`fake-process: --latency must be a number ≥ 0\n`);
  process.exit(2);
}

recordServerTimes((t) => process.stdout.write(`${JSON.stringify(t)}\n`));
const server = await startFakeOpenAI({ port: 0, latencyMs });
serveUntilSignalled(server);
