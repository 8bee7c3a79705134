import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { createGuardedFetch, type Connector } from "@/lib/net/safe-fetch";

/**
 * Test plumbing for webhook deliveries: a receiver on 127.0.0.1 that answers from a script and
 * records every request, and a guarded fetch whose connector refuses anything but loopback (so
 * no test can ever reach another address, whatever the guard does).
 */

export type Received = { headers: http.IncomingHttpHeaders; body: string; at: number };

export async function startReceiver(script: (n: number) => { status: number; body?: string } = () => ({ status: 200, body: "ok" })) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      const answer = script(received.length);
      res.writeHead(answer.status, { "content-type": "text/plain" });
      res.end(answer.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const loopbackOnly: Connector = (target) => {
  const outside = target.addresses.map((a) => a.address).find((a) => a !== "127.0.0.1" && a !== "::1");
  if (outside || (target.host !== "127.0.0.1" && target.host !== "::1")) {
    throw new Error(`test connector: refusing to connect to non-loopback ${outside ?? target.host}`);
  }
  return net.connect({ host: target.host, port: target.port });
};

export const loopbackFetch = createGuardedFetch({ allowPrivateNetworks: false, allowLoopback: true, connect: loopbackOnly });

/** A clock the test moves by hand. */
export function manualClock(start = new Date()) {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    set: (d: Date) => {
      now = d.getTime();
    },
    advance: (ms: number) => {
      now += ms;
    },
  };
}
