/**
 * Outbound HTTP to URLs users configure (model endpoints, HTTP agents, file URLs):
 * `createGuardedFetch` resolves each host itself, checks every resolved address against the
 * address policy and connects to exactly the address it checked (DNS rebinding safe); it
 * re-checks each redirect hop, and caps every response body in bytes after decompression.
 * `assertUrlAllowed` gives an early, readable error. lib/net/service.ts supplies the instance's
 * policy. Key rule: never reach a user-supplied URL with plain `fetch`.
 * Each response also carries its wire timing (`wireTiming`): when the request went out and when
 * its last byte came in, for latencies that leave out queueing, parsing and our own code.
 * This file is the HTTP client (requests, redirects, byte caps); the address checks and pinned
 * connections are ./connection.ts, the wire timing ./wire-timing.ts.
 */
import "server-only";
import http from "node:http";
import https from "node:https";
import { Readable, Transform, type TransformCallback } from "node:stream";
import zlib from "node:zlib";
import { BlockedAddressError, checkUrlStatically, normaliseHost } from "./address-policy";
import { guardedAgent, type GuardedFetchOptions } from "./connection";
import { stampLastByte, wireTimings, type WireTiming } from "./wire-timing";

// The checked connection (./connection.ts) and the wire timing (./wire-timing.ts) are parts of
// this client; their public names are re-exported so callers keep one import path.
export { BlockedAddressError, type NetworkPolicy } from "./address-policy";
export { assertUrlAllowed, type ConnectTarget, type Connector, type GuardedFetchOptions, type Resolver } from "./connection";
export { wireTiming, type WireTiming } from "./wire-timing";

/** The `fetch` signature the openai SDK accepts as its `fetch` option. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Default cap on a response body after decompression (ASSAY_MAX_RESPONSE_BYTES overrides it). */
export const DEFAULT_MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
export const MAX_REDIRECTS = 5;

const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/** A response body went over the byte cap (after decompression); the call fails, nothing more is read. */
export class ResponseTooLargeError extends Error {
  readonly code = "ERR_ASSAY_RESPONSE_TOO_LARGE";
  constructor(readonly limit: number) {
    super(`The response is larger than ${formatBytes(limit)} (ASSAY_MAX_RESPONSE_BYTES); it was not read further`);
    this.name = "ResponseTooLargeError";
  }
}

/** A redirect the guarded fetch does not follow (too many hops, https → http). */
export class RedirectRefusedError extends Error {
  readonly code = "ERR_ASSAY_REDIRECT_REFUSED";
  constructor(message: string) {
    super(message);
    this.name = "RedirectRefusedError";
  }
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/** The two keep-alive agents of one guarded fetch, by protocol. */
type Agents = { http: http.Agent; https: https.Agent };

const preconnectors = new WeakMap<FetchLike, (url: string | URL, count: number, timeoutMs: number) => Promise<void>>();

/**
 * Opens up to `count` connections of a guarded fetch to the origin of `url` ahead of need (the
 * address checked like any request's); the next requests to that origin that need a new
 * connection take them instead of connecting. Resolves once they are connected (TLS included)
 * or after `timeoutMs`; never rejects. Nothing for any other fetch.
 */
export async function preconnect(fetch: FetchLike, url: string | URL, count: number, timeoutMs = 3_000): Promise<void> {
  await preconnectors
    .get(fetch)?.(url, count, timeoutMs)
    .catch(() => undefined);
}

/** What `rawExchange` sends: a whole body, plain header object, the call's signal. */
export type RawRequest = { method: string; headers: Record<string, string>; body?: string; signal: AbortSignal };
/** What `rawExchange` returns: the final hop's status, headers, whole decoded body as text, and wire timing. */
export type RawResponse = { status: number; headers: http.IncomingHttpHeaders; text: string; url: string; timing: WireTiming };
/**
 * The guarded fetch without the WHATWG layer: the same address checks, redirect rules, byte cap
 * and wire timing, but no Request/Headers/Response/ReadableStream objects — about half the CPU
 * of a small JSON exchange, which is what every model call on a run's hot path is.
 */
export type RawExchange = (url: string | URL, init: RawRequest) => Promise<RawResponse>;

const rawExchanges = new WeakMap<FetchLike, RawExchange>();

/** The raw exchange of a guarded fetch (undefined for any other fetch, e.g. an injected one). */
export function rawExchangeOf(fetch: FetchLike): RawExchange | undefined {
  return rawExchanges.get(fetch);
}

/**
 * A WHATWG-style `fetch` built on node:http/https whose connections go only to checked
 * addresses, whose redirects are re-checked hop by hop, and whose bodies stop at the byte cap.
 * Pass it as the `fetch` option of the openai SDK, or call it directly; `rawExchangeOf(fetch)`
 * gives the same transport without the WHATWG objects.
 */
export function createGuardedFetch(opts: GuardedFetchOptions): FetchLike {
  // Own keep-alive agents: sockets are never shared with unguarded requests.
  const plain = guardedAgent(false, opts);
  const secure = guardedAgent(true, opts);
  const agents: Agents = { http: plain.agent, https: secure.agent as https.Agent };
  const maxBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const fetch: FetchLike = async (input, init) => {
    const request = new Request(input, init);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const hop: Hop = { url: new URL(request.url), method: request.method, body, headers: new Headers(request.headers) };
    const timing: WireTiming = { sentAt: null, lastByteAt: null };
    const sent = await send(hop, agents, opts, request.signal, request.redirect, 0, timing);
    const response = toResponse(sent, maxBytes, request.signal);
    wireTimings.set(response, timing);
    return response;
  };
  const exchange: RawExchange = async (url, init) => {
    const body = init.body === undefined ? undefined : Buffer.from(init.body);
    const hop: Hop = { url: new URL(url), method: init.method, body, headers: init.headers };
    const timing: WireTiming = { sentAt: null, lastByteAt: null };
    const { res, url: finalUrl } = await send(hop, agents, opts, init.signal, "follow", 0, timing);
    const status = res.statusCode ?? 0;
    const text = init.method === "HEAD" || NULL_BODY_STATUS.has(status) ? (res.resume(), "") : await readCapped(res, maxBytes, init.signal);
    return { status, headers: res.headers, text, url: finalUrl.toString(), timing };
  };
  rawExchanges.set(fetch, exchange);
  preconnectors.set(fetch, async (url, count, timeoutMs) => {
    const u = checkUrlStatically(url, opts);
    const isHttps = u.protocol === "https:";
    await (isHttps ? secure : plain).preconnect(normaliseHost(u.hostname), Number(u.port) || (isHttps ? 443 : 80), count, timeoutMs);
  });
  return fetch;
}

/** One request of a fetch (redirects make new ones); headers as given (a plain object on the raw exchange). */
type Hop = { url: URL; method: string; body: Buffer | undefined; headers: Headers | Record<string, string> };

/**
 * Headers kept on a cross-origin redirect; everything else the caller set (Authorization,
 * api-key, x-api-key, cookies, an HTTP agent's custom headers) stays with the origin it was meant for.
 */
const CROSS_ORIGIN_SAFE_HEADERS = new Set(["accept", "accept-encoding", "accept-language", "content-type", "content-length", "user-agent"]);

/**
 * The next hop of a redirect, or RedirectRefusedError. `redirects` is the number of hops
 * already followed. Pure, so the rules are testable without a server.
 */
export function nextRedirectHop(hop: Hop, status: number, location: string, redirects: number): Hop & { headers: Headers } {
  if (redirects >= MAX_REDIRECTS)
    throw new RedirectRefusedError(`Too many redirects (more than ${MAX_REDIRECTS}); last one to ${location}`);
  let next: URL;
  try {
    next = new URL(location, hop.url);
  } catch {
    throw new RedirectRefusedError(`The server redirected to an invalid URL (${location})`);
  }
  if (hop.url.protocol === "https:" && next.protocol === "http:") {
    throw new RedirectRefusedError(`Refused a redirect from https to http (${next.origin}): it would send the request unencrypted`);
  }
  const headers = new Headers(hop.headers);
  let method = hop.method;
  let body = hop.body;
  if (status === 303 ? method !== "HEAD" : (status === 301 || status === 302) && method === "POST") {
    method = "GET";
    body = undefined;
    for (const h of ["content-type", "content-length", "content-encoding", "content-language"]) headers.delete(h);
  }
  if (next.origin !== hop.url.origin) {
    for (const name of [...headers.keys()]) if (!CROSS_ORIGIN_SAFE_HEADERS.has(name)) headers.delete(name);
  }
  return { url: next, method, body, headers };
}

/** The response of the last hop (redirects followed), its URL and how many redirects led there. */
type Sent = { res: http.IncomingMessage; url: URL; redirects: number; method: string };

async function send(
  hop: Hop,
  agents: Agents,
  opts: GuardedFetchOptions,
  signal: AbortSignal,
  redirectMode: RequestRedirect,
  redirects: number,
  timing: WireTiming,
): Promise<Sent> {
  const { url, method, body, headers } = hop;
  try {
    checkUrlStatically(url, opts);
  } catch (err) {
    throw new TypeError("fetch failed", { cause: err });
  }
  if (signal.aborted) throw abortError(signal);
  const outgoing: Record<string, string> = {};
  if (headers instanceof Headers) {
    headers.forEach((value, name) => {
      outgoing[name] = value;
    });
  } else {
    for (const name in headers) outgoing[name.toLowerCase()] = headers[name]!;
  }
  outgoing["accept-encoding"] ??= "gzip, deflate, br";
  if (body) outgoing["content-length"] = String(body.length);

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
    // 'finish': the request's last byte was handed to the socket (after connecting, if it had to).
    req.once("finish", () => {
      timing.sentAt ??= performance.now();
    });
    req.once("response", (res: http.IncomingMessage) => {
      timing.lastByteAt = null; // a redirect's body does not count
      stampLastByte(res, timing);
      // Hand the response on in the check phase, not here: everything awaiting it (building the
      // Response, the SDK, parsing, evaluation) would otherwise run before libuv delivers the
      // other sockets read in this same poll phase, and stamp their last bytes late. A burst of
      // 50 answers arriving together is then stamped first and processed after.
      setImmediate(resolve, res);
    });
    req.once("error", (err) => reject(signal.aborted ? abortError(signal) : new TypeError("fetch failed", { cause: err })));
    req.end(body);
  });

  const status = res.statusCode ?? 0;
  const location = res.headers.location;
  if ([301, 302, 303, 307, 308].includes(status) && location && redirectMode !== "manual") {
    res.destroy(); // never read a redirect's body: it is not ours to buffer
    if (redirectMode === "error") throw new TypeError("fetch failed", { cause: new Error(`Redirected to ${location}`) });
    let next: Hop;
    try {
      next = nextRedirectHop(hop, status, location, redirects);
    } catch (err) {
      throw new TypeError("fetch failed", { cause: err });
    }
    return send(next, agents, opts, signal, redirectMode, redirects + 1, timing);
  }
  return { res, url, redirects, method };
}

/** The WHATWG Response of a sent request: headers copied, the body a capped (decoded) stream. */
function toResponse({ res, url, redirects, method }: Sent, maxBytes: number, signal: AbortSignal): Response {
  const status = res.statusCode ?? 0;
  const responseHeaders = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) responseHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  let stream: Readable | null = null;
  if (method === "HEAD" || NULL_BODY_STATUS.has(status)) res.resume();
  else stream = cappedBody(res, maxBytes, signal);
  const response = new Response(stream ? (Readable.toWeb(stream) as unknown as ReadableStream<Uint8Array>) : null, {
    status,
    statusText: res.statusMessage ?? "",
    headers: responseHeaders,
  });
  Object.defineProperty(response, "url", { value: url.toString() });
  Object.defineProperty(response, "redirected", { value: redirects > 0 });
  return response;
}

/**
 * The whole body as UTF-8 text, with the same byte cap (after decoding) and abort handling as
 * `cappedBody`. An identity-encoded body (the usual JSON answer) is read straight off the
 * message, without a Transform in between.
 */
async function readCapped(res: http.IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<string> {
  const encoding = (res.headers["content-encoding"] ?? "").trim().toLowerCase();
  const source: Readable = encoding && encoding !== "identity" ? cappedBody(res, maxBytes, signal) : res;
  const chunks: Buffer[] = [];
  let seen = 0;
  await new Promise<void>((resolve, reject) => {
    const fail = (err: Error) => {
      cleanup();
      if (!res.destroyed) res.destroy(err);
      if (source !== res && !source.destroyed) source.destroy(err);
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (source === res && seen > maxBytes) fail(new ResponseTooLargeError(maxBytes));
      else chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve();
    };
    const onError = (err: Error) => fail(err);
    const onClose = () => {
      // Closed before the end: the connection dropped mid-body.
      if (!res.complete) fail(Object.assign(new Error("The connection closed before the response was complete"), { code: "ECONNRESET" }));
    };
    const onAbort = () => fail(abortError(signal));
    const cleanup = () => {
      source.off("data", onData);
      source.off("end", onEnd);
      source.off("error", onError);
      source.off("close", onClose);
      signal.removeEventListener("abort", onAbort);
    };
    if (signal.aborted) return onAbort();
    const declared = Number(res.headers["content-length"]);
    if (source === res && Number.isFinite(declared) && declared > maxBytes) return fail(new ResponseTooLargeError(maxBytes));
    source.on("data", onData);
    source.once("end", onEnd);
    source.once("error", onError);
    source.once("close", onClose);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  return chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8");
}

/**
 * The decoded body, failing with ResponseTooLargeError as soon as more than `maxBytes` come out
 * of the decoder (a 300 KB gzip bomb stops after `maxBytes`, not after 300 MB), and with an
 * AbortError when the call's signal fires while the body is still trickling in.
 */
function cappedBody(res: http.IncomingMessage, maxBytes: number, signal: AbortSignal): Readable {
  const encoding = (res.headers["content-encoding"] ?? "").trim().toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? zlib.createGunzip()
      : encoding === "deflate"
        ? zlib.createInflate()
        : encoding === "br"
          ? zlib.createBrotliDecompress()
          : null;
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
      seen += chunk.length;
      if (seen > maxBytes) done(new ResponseTooLargeError(maxBytes));
      else done(null, chunk);
    },
  });
  const stages: (Readable | Transform)[] = decoder ? [res, decoder, counter] : [res, counter];
  // Any stage failing (or the call aborting) tears the whole chain down, socket included.
  const fail = (err: Error) => {
    for (const s of stages) if (!s.destroyed) s.destroy(err);
  };
  for (const s of stages) s.once("error", fail);
  const onAbort = () => fail(abortError(signal) as Error);
  signal.addEventListener("abort", onAbort, { once: true });
  counter.once("close", () => signal.removeEventListener("abort", onAbort));
  const declared = Number(res.headers["content-length"]);
  if (!decoder && Number.isFinite(declared) && declared > maxBytes) {
    // Fail on the first read instead of downloading the first maxBytes for nothing.
    queueMicrotask(() => fail(new ResponseTooLargeError(maxBytes)));
  }
  if (decoder) res.pipe(decoder).pipe(counter);
  else res.pipe(counter);
  return counter;
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

export function isResponseTooLargeError(e: unknown): e is ResponseTooLargeError {
  return e instanceof ResponseTooLargeError;
}

export function isRedirectRefusedError(e: unknown): e is RedirectRefusedError {
  return e instanceof RedirectRefusedError;
}
