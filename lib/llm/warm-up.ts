/**
 * Warms the model-call path before a process's executor claims its first case: a private
 * loopback server answers a few hundred chat completions sent through a private guarded fetch
 * and LlmClient, so that V8 has compiled the request building, node:http client and parser, the
 * raw exchange, the wire timing and the response parsing before real answers arrive. Without it
 * the first wave of a run (up to its whole concurrency at once) is processed by cold code, and
 * the later answers of that burst are read, and stamped, late: the recorded latencies of a run's
 * first second were 10–25 ms above the server's, against 4–5 ms once warm.
 * Nothing leaves the machine: the server listens on 127.0.0.1 and is closed afterwards.
 */
import "server-only";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { logger } from "@/lib/logger";
import { createGuardedFetch } from "@/lib/net/safe-fetch";
import { LlmClient } from "./client";

const COMPLETION = JSON.stringify({
  id: "chatcmpl-warm-up",
  object: "chat.completion",
  created: 0,
  model: "warm-up",
  choices: [{ index: 0, message: { role: "assistant", content: "Warm." }, finish_reason: "stop" }],
  usage: { prompt_tokens: 12, completion_tokens: 2, total_tokens: 14 },
});

/** Sends `calls` chat completions (`concurrency` at a time) to a loopback server of its own; never throws. */
export async function warmUpModelCalls({ calls = 200, concurrency = 16 } = {}): Promise<void> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(COMPLETION) });
      res.end(COMPLETION);
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    // Its own fetch (own keep-alive agents, loopback allowed for this server only) and limiter key.
    const client = new LlmClient(
      {
        id: "assay-warm-up",
        baseUrl: `http://127.0.0.1:${port}/v1`,
        apiKey: null,
        model: "warm-up",
        embeddingModel: null,
        temperature: null,
        maxTokens: null,
      },
      { fetch: createGuardedFetch({ allowPrivateNetworks: false, allowLoopback: true }), retryPolicy: { maxAttempts: 1 } },
    );
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < calls) {
          const i = next++;
          await client.chat({ messages: [{ role: "user", content: `warm-up ${i}` }] }, { purpose: "agent", timeoutMs: 5_000 });
        }
      }),
    );
  } catch (err) {
    logger.warn({ err }, "could not warm up the model-call path");
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
