// Loopback-only plumbing the network tests share: a connector for the guarded fetch that records
// every target and refuses anything off this machine, and an HTTP test server's start and stop.
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import type { ConnectTarget, Connector } from "@/lib/net/safe-fetch";

/**
 * A connector that records each target in `connected` and throws on anything that is not
 * loopback, so a regressed guard fails the test instead of opening a connection elsewhere.
 */
export function loopbackConnector() {
  const connected: ConnectTarget[] = [];
  const connect: Connector = (target) => {
    connected.push(target);
    const outside = target.addresses.map((a) => a.address).find((a) => a !== "127.0.0.1" && a !== "::1");
    if (outside || (target.host !== "127.0.0.1" && target.host !== "::1")) {
      throw new Error(`test connector: refusing to connect to non-loopback ${outside ?? target.host}`);
    }
    return net.connect({ host: target.host, port: target.port });
  };
  return { connected, connect };
}

/** Starts `server` on a free loopback port and returns its base URL. */
export async function listenOnLoopback(server: http.Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Stops `server`, dropping kept-alive connections first. */
export async function closeServer(server: http.Server) {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
}

/**
 * An HTTP test server for the test file, answering with `handler`: started on loopback before
 * its tests and stopped after them. `base` is its URL once started.
 */
export function withLoopbackServer(handler: http.RequestListener): { readonly base: string } {
  let server: http.Server | undefined;
  let base = "";
  beforeAll(async () => {
    server = http.createServer(handler);
    base = await listenOnLoopback(server);
  });
  afterAll(async () => {
    if (server) await closeServer(server);
  });
  return {
    get base() {
      return base;
    },
  };
}
