// The bench's fake OpenAI server in its own process: tests/fake-openai/cli.ts plus the server's
// own time per chat request. Prints the base URL on the first line, then one JSON line per
// answered chat request ({question, serverMs}), written in batches; stops on SIGINT/SIGTERM.
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

// Written every 100 ms, not per request: a pipe write is synchronous here and wakes the bench's
// event loop, which a line per answer did ~250 times a second during the measured run.
const pending: string[] = [];
recordServerTimes((t) => pending.push(JSON.stringify(t)));
const flush = () => {
  if (pending.length > 0) process.stdout.write(`${pending.splice(0).join("\n")}\n`);
};
setInterval(flush, 100).unref();
process.on("exit", flush);
const server = await startFakeOpenAI({ port: 0, latencyMs });
serveUntilSignalled(server);
