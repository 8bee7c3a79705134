// The guarded fetch's preconnect (lib/net/safe-fetch.ts): connections opened ahead are the ones the next requests use.
import http from "node:http";
import { expect, it } from "vitest";
import { createGuardedFetch, preconnect, rawExchangeOf } from "@/lib/net/safe-fetch";
it("opens connections ahead of need, and the next requests to that origin use them instead of connecting", async () => {
  let connections = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => res.end("ok"));
  });
  server.on("connection", () => connections++);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as { port: number }).port;
  const fetch = createGuardedFetch({ allowPrivateNetworks: false, allowLoopback: true });
  await preconnect(fetch, `http://127.0.0.1:${port}/v1`, 3);
  await new Promise((r) => setTimeout(r, 50));
  expect(connections).toBe(3);
  const raw = rawExchangeOf(fetch)!;
  const out = await Promise.all(
    [1, 2, 3].map(() =>
      raw(`http://127.0.0.1:${port}/v1/x`, { method: "POST", headers: {}, body: "{}", signal: new AbortController().signal }),
    ),
  );
  expect(out.map((o) => o.text)).toEqual(["ok", "ok", "ok"]);
  expect(connections).toBe(3);
  const res = await fetch(`http://127.0.0.1:${port}/v1/y`, { method: "POST", body: "{}" });
  expect(await res.text()).toBe("ok");
  expect(connections).toBe(3);
  server.closeAllConnections();
  server.close();
});
