/**
 * Outbound HTTP to URLs users configure (model endpoints, HTTP agents): `createGuardedFetch`
 * checks every resolved address at connect time (DNS rebinding safe) and re-checks each redirect
 * hop; `assertUrlAllowed` gives an early, readable error. Called by the LLM client, the HTTP
 * agent call and the model connection test; lib/net/service.ts supplies the workspace's policy.
 * Key rule: never reach a user-supplied URL with plain `fetch` — private, loopback and link-local
 * addresses are refused unless the workspace or ASSAY_ALLOW_PRIVATE_NETWORKS allows them.
 */
import "server-only";
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { Readable } from "node:stream";
import zlib from "node:zlib";
import { BlockedAddressError, blockedAddressReason, checkUrlStatically, normaliseHost, type NetworkPolicy } from "./address-policy";

export { BlockedAddressError, blockedAddressReason, type NetworkPolicy } from "./address-policy";

/** The `fetch` signature the openai SDK accepts as its `fetch` option. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** dns.lookup with `all: true`; injectable so tests can simulate DNS answers. */
export type Resolver = (hostname: string, family: 0 | 4 | 6) => Promise<{ address: string; family: number }[]>;

export type GuardedFetchOptions = NetworkPolicy & { resolver?: Resolver };

const systemResolver: Resolver = async (hostname, family) => dns.promises.lookup(hostname, { all: true, family });

const MAX_REDIRECTS = 5;
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/**
 * Resolves the URL's host and throws BlockedAddressError when the URL or any of its addresses
 * may not be reached under `opts`. Useful for an early, readable error; the guarded fetch
 * checks again at connect time (DNS answers can change between the two).
 */
export async function assertUrlAllowed(url: string | URL, opts: GuardedFetchOptions): Promise<void> {
  const parsed = checkUrlStatically(url, opts);
  if (opts.allowPrivateNetworks) return;
  const host = normaliseHost(parsed.hostname);
  if (isIP(host) !== 0) return; // an IP literal: checked above
  const addresses = await (opts.resolver ?? systemResolver)(host, 0);
  for (const a of addresses) {
    const reason = blockedAddressReason(a.address);
    if (reason) throw new BlockedAddressError(host, a.address, reason);
  }
}

/** A `lookup` for node:net that refuses a host when any of its resolved addresses is blocked. */
function guardedLookup(opts: GuardedFetchOptions): LookupFunction {
  const resolver = opts.resolver ?? systemResolver;
  return (hostname, options, callback) => {
    const family = options.family === 4 || options.family === 6 ? options.family : 0;
    resolver(hostname, family).then(
      (addresses) => {
        if (addresses.length === 0) {
          callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND", hostname }), "", 0);
          return;
        }
        if (!opts.allowPrivateNetworks) {
          for (const a of addresses) {
            const reason = blockedAddressReason(a.address);
            if (reason) {
              callback(new BlockedAddressError(hostname, a.address, reason), "", 0);
              return;
            }
          }
        }
        if (options.all) callback(null, addresses.map((a) => ({ address: a.address, family: a.family })));
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, "", 0),
    );
  };
}

type Agents = { http: http.Agent; https: https.Agent };

/**
 * A WHATWG-style `fetch` built on node:http/https whose connections go through a lookup that
 * validates every resolved address (DNS rebinding safe), and whose redirects are re-checked
 * hop by hop. Pass it as the `fetch` option of the openai SDK, or call it directly.
 */
export function createGuardedFetch(opts: GuardedFetchOptions): FetchLike {
  const lookup = guardedLookup(opts);
  // Own keep-alive agents: sockets are never shared with unguarded requests.
  const agents: Agents = {
    http: new http.Agent({ keepAlive: true, lookup }),
    https: new https.Agent({ keepAlive: true, lookup }),
  };
  return async (input, init) => {
    const request = new Request(input, init);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    return send(request, new URL(request.url), request.method, body, new Headers(request.headers), agents, opts, 0);
  };
}

async function send(
  request: Request,
  url: URL,
  method: string,
  body: Buffer | undefined,
  headers: Headers,
  agents: Agents,
  opts: GuardedFetchOptions,
  redirects: number,
): Promise<Response> {
  try {
    checkUrlStatically(url, opts);
  } catch (err) {
    throw new TypeError("fetch failed", { cause: err });
  }
  const signal = request.signal;
  if (signal.aborted) throw abortError(signal);
  if (!headers.has("accept-encoding")) headers.set("accept-encoding", "gzip, deflate, br");
  if (body) headers.set("content-length", String(body.length));
  const outgoing: Record<string, string> = {};
  headers.forEach((value, name) => {
    outgoing[name] = value;
  });

  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const isHttps = url.protocol === "https:";
    const req = (isHttps ? https : http).request({
      protocol: url.protocol,
      hostname: normaliseHost(url.hostname),
      port: url.port || (isHttps ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      method,
      headers: outgoing,
      agent: isHttps ? agents.https : agents.http,
      signal,
    });
    req.once("response", resolve);
    req.once("error", (err) => reject(signal.aborted ? abortError(signal) : new TypeError("fetch failed", { cause: err })));
    req.end(body);
  });

  const status = res.statusCode ?? 0;
  const location = res.headers.location;
  if ([301, 302, 303, 307, 308].includes(status) && location && request.redirect !== "manual") {
    res.resume();
    if (request.redirect === "error") throw new TypeError("fetch failed", { cause: new Error(`Redirected to ${location}`) });
    if (redirects >= MAX_REDIRECTS) throw new TypeError("fetch failed", { cause: new Error("Too many redirects") });
    const next = new URL(location, url);
    const nextHeaders = new Headers(headers);
    let nextMethod = method;
    let nextBody = body;
    if (status === 303 ? method !== "HEAD" : (status === 301 || status === 302) && method === "POST") {
      nextMethod = "GET";
      nextBody = undefined;
      for (const h of ["content-type", "content-length", "content-encoding", "content-language"]) nextHeaders.delete(h);
    }
    if (next.origin !== url.origin) {
      nextHeaders.delete("authorization");
      nextHeaders.delete("cookie");
      nextHeaders.delete("proxy-authorization");
    }
    return send(request, next, nextMethod, nextBody, nextHeaders, agents, opts, redirects + 1);
  }

  const responseHeaders = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) responseHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  let stream: Readable | null = res;
  if (method === "HEAD" || NULL_BODY_STATUS.has(status)) {
    res.resume();
    stream = null;
  } else {
    const encoding = (res.headers["content-encoding"] ?? "").trim().toLowerCase();
    const decoder =
      encoding === "gzip" || encoding === "x-gzip"
        ? zlib.createGunzip()
        : encoding === "deflate"
          ? zlib.createInflate()
          : encoding === "br"
            ? zlib.createBrotliDecompress()
            : null;
    if (decoder) {
      res.once("error", (err) => decoder.destroy(err));
      stream = res.pipe(decoder);
    }
  }
  const response = new Response(stream ? (Readable.toWeb(stream) as unknown as ReadableStream<Uint8Array>) : null, {
    status,
    statusText: res.statusMessage ?? "",
    headers: responseHeaders,
  });
  Object.defineProperty(response, "url", { value: url.toString() });
  Object.defineProperty(response, "redirected", { value: redirects > 0 });
  return response;
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === "AbortError") return reason;
  return new DOMException("This operation was aborted", "AbortError");
}

/** Finds a typed cause (BlockedAddressError, a Node errno error…) in an error's cause chain. */
export function findCause<T>(err: unknown, test: (e: unknown) => e is T): T | null {
  let current: unknown = err;
  for (let depth = 0; depth < 8 && current; depth++) {
    if (test(current)) return current;
    current = typeof current === "object" && current !== null && "cause" in current ? (current as { cause: unknown }).cause : null;
  }
  return null;
}

export function isBlockedAddressError(e: unknown): e is BlockedAddressError {
  return e instanceof BlockedAddressError;
}
