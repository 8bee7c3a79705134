/**
 * The checked connection under the guarded fetch (./safe-fetch.ts): resolve a user-supplied
 * host, check every address against the address policy (./address-policy.ts) and connect to
 * exactly the addresses checked, so a DNS answer that changes between the check and the
 * connection (DNS rebinding) cannot slip by. Keep-alive agents built here open sockets only this
 * way, and can open them ahead of need (`preconnect`).
 */
import "server-only";
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net, { isIP, type LookupFunction } from "node:net";
import tls from "node:tls";
import { assertAddressAllowed, checkUrlStatically, normaliseHost, type NetworkPolicy } from "./address-policy";

/** dns.lookup with `all: true`; injectable so tests can simulate DNS answers. */
export type Resolver = (hostname: string, family: 0 | 4 | 6) => Promise<{ address: string; family: number }[]>;

/**
 * Where a checked connection goes: `addresses` are the resolved addresses, every one already
 * allowed by the policy (`host` is the first); `hostname` is the URL's.
 */
export type ConnectTarget = {
  host: string;
  addresses: { address: string; family: number }[];
  port: number;
  hostname: string;
  tls: boolean;
  servername?: string;
};

/** Opens the socket for a checked address; injectable so tests can refuse anything not loopback. */
export type Connector = (target: ConnectTarget) => net.Socket;

export type GuardedFetchOptions = NetworkPolicy & { resolver?: Resolver; connect?: Connector };

const systemResolver: Resolver = async (hostname, family) => dns.promises.lookup(hostname, { all: true, family });
/**
 * Connects with Node's own happy eyeballs (IPv6 first, IPv4 fallback) over the checked addresses
 * only: the lookup answers from the list, so no second DNS answer can slip in.
 */
const systemConnector: Connector = (t) => {
  const lookup: LookupFunction = (_hostname, options, callback) => {
    const list = t.addresses.filter((a) => !options.family || a.family === options.family);
    if (list.length === 0) callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${t.hostname}`), { code: "ENOTFOUND" }), "", 0);
    else if (options.all) callback(null, list);
    else callback(null, list[0]!.address, list[0]!.family);
  };
  const common = { host: t.hostname, port: t.port, lookup, autoSelectFamily: true };
  return t.tls ? tls.connect({ ...common, servername: t.servername, ALPNProtocols: ["http/1.1"] }) : net.connect(common);
};

/** Resolves `hostname` (or takes it as an IP literal) and checks every address; returns the checked addresses. */
export async function resolveChecked(hostname: string, opts: GuardedFetchOptions): Promise<{ address: string; family: number }[]> {
  const host = normaliseHost(hostname);
  const addresses = isIP(host) !== 0 ? [{ address: host, family: isIP(host) }] : await (opts.resolver ?? systemResolver)(host, 0);
  if (addresses.length === 0) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND", hostname: host });
  // One refused address refuses the host: a name that also points at metadata is not trusted.
  for (const a of addresses) assertAddressAllowed(host, a.address, opts);
  return addresses;
}

/**
 * Resolves the URL's host and throws BlockedAddressError when the URL or any of its addresses
 * may not be reached under `opts`. Useful for an early, readable error; the guarded fetch
 * checks again at connect time (DNS answers can change between the two).
 */
export async function assertUrlAllowed(url: string | URL, opts: GuardedFetchOptions): Promise<void> {
  const parsed = checkUrlStatically(url, opts);
  await resolveChecked(parsed.hostname, opts);
}

type ConnectOptions = { host?: string | null; hostname?: string | null; port?: number | string | null };

/**
 * An agent whose sockets go only to addresses this module resolved and checked: the check and
 * the connection use the same address, so a DNS answer that changes in between cannot slip by.
 */
export function guardedAgent(isHttps: boolean, opts: GuardedFetchOptions): GuardedAgent {
  const agent = isHttps ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  const connect = opts.connect ?? systemConnector;
  /** Connections opened ahead by `preconnect`, by host:port, handed to the next requests that need a socket. */
  const warm = new Map<string, net.Socket[]>();
  const drops = new WeakMap<net.Socket, () => void>();
  const takeWarm = (key: string): net.Socket | undefined => {
    const list = warm.get(key);
    let socket = list?.pop();
    while (socket && (socket.destroyed || !socket.writable)) socket = list?.pop();
    if (list && list.length === 0) warm.delete(key);
    return socket;
  };
  // Node's Agent accepts an asynchronous createConnection: return nothing, call back later.
  (agent as unknown as { createConnection: unknown }).createConnection = (
    options: ConnectOptions,
    callback: (err: Error | null, socket?: net.Socket) => void,
  ): undefined => {
    const hostname = normaliseHost(String(options.hostname ?? options.host ?? ""));
    const port = Number(options.port) || (isHttps ? 443 : 80);
    const ready = takeWarm(`${hostname}:${port}`);
    if (ready) {
      const drop = drops.get(ready);
      if (drop) for (const event of ["error", "close", "timeout"]) ready.off(event, drop);
      ready.setTimeout(0);
      callback(null, ready);
      return undefined;
    }
    resolveChecked(hostname, opts).then(
      (addresses) => {
        try {
          const target: ConnectTarget = { host: addresses[0]!.address, addresses, port, hostname, tls: isHttps };
          if (isHttps && isIP(hostname) === 0) target.servername = hostname;
          callback(null, connect(target));
        } catch (err) {
          callback(err as Error);
        }
      },
      (err: Error) => callback(err),
    );
    return undefined;
  };
  const preconnect = async (hostname: string, port: number, count: number, timeoutMs: number): Promise<void> => {
    const key = `${hostname}:${port}`;
    const addresses = await resolveChecked(hostname, opts);
    const target: ConnectTarget = { host: addresses[0]!.address, addresses, port, hostname, tls: isHttps };
    if (isHttps && isIP(hostname) === 0) target.servername = hostname;
    const have = warm.get(key)?.length ?? 0;
    const sockets = Array.from({ length: Math.max(0, count - have) }, () => connect(target));
    const list = warm.get(key) ?? [];
    warm.set(key, list);
    await Promise.all(
      sockets.map(
        (socket) =>
          new Promise<void>((resolve) => {
            const drop = () => {
              const i = list.indexOf(socket);
              if (i >= 0) list.splice(i, 1);
              socket.destroy();
              resolve();
            };
            drops.set(socket, drop);
            socket.once("error", drop);
            socket.once("close", drop);
            // Unused for this long: closed (the timer does not keep the process alive).
            socket.setTimeout(30_000, drop);
            socket.once(isHttps ? "secureConnect" : "connect", () => resolve());
            list.push(socket);
            setTimeout(resolve, timeoutMs).unref();
          }),
      ),
    );
  };
  return { agent, preconnect };
}

/** A guarded keep-alive agent and the way to open its connections ahead of need. */
export type GuardedAgent = {
  agent: http.Agent;
  preconnect: (hostname: string, port: number, count: number, timeoutMs: number) => Promise<void>;
};
