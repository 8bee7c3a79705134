// What the fake server's command-line entry points share (cli.ts, scripts/bench/fake-process.ts):
// announce the base URL on stdout, then close the server and exit on SIGINT or SIGTERM.
import type { FakeOpenAI } from "./types";

/** Prints `server.url` as its own line and stops the process cleanly, once, on the first signal. */
export function serveUntilSignalled(server: FakeOpenAI): void {
  process.stdout.write(`${server.url}\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void server.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
