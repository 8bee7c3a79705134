/**
 * One HTTP exchange with an OpenAI-compatible endpoint, without the openai SDK: the request is a
 * JSON POST to `<base URL>/chat/completions` or `/embeddings` with a bearer key, the answer its
 * status and whole body text. The SDK's per-call work (option merging, header builders, logging
 * helpers, WHATWG Request/Response wrapping) cost more CPU than the exchange itself, once per
 * model call on a run's hot path. Through the guarded fetch it uses the raw exchange
 * (lib/net/safe-fetch.ts `rawExchangeOf`); an injected fetch (the in-process demo model,
 * tests) is called like any fetch. Non-2xx answers become AttemptErrors worded like the SDK's.
 */
import type { IncomingHttpHeaders } from "node:http";
import { rawExchangeOf, type FetchLike } from "@/lib/net/safe-fetch";
import type { AttemptError } from "./errors";
import { statusFailure } from "./responses";
import type { ExchangeTimer } from "./timing";

export type Reply = { status: number; text: string; headers: () => Headers };

/**
 * `path` under the endpoint's base URL, joined like the openai SDK does (one slash between
 * them; a query string on the base URL, e.g. Azure's api-version, stays at the end).
 */
export function endpointUrl(baseUrl: string, path: string): string {
  if (baseUrl.includes("?")) {
    const base = new URL(baseUrl);
    const search = base.search;
    base.search = "";
    base.hash = "";
    const joined = base.toString();
    return `${joined.endsWith("/") ? joined.slice(0, -1) : joined}${path}${search}`;
  }
  return `${baseUrl.endsWith("/") ? baseUrl.slice(0, -1) : baseUrl}${path}`;
}

/** The request headers for an endpoint: JSON both ways, the key as a bearer token (none for keyless endpoints). */
export function requestHeaders(apiKey: string | null): Record<string, string> {
  return {
    accept: "application/json",
    "content-type": "application/json",
    "user-agent": "Assay",
    ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
  };
}

/**
 * POSTs `body` and reads the whole answer. `timer` is stamped as lib/llm/timing.ts describes:
 * the wire timing of the guarded transport, else fetch call → body read.
 */
export async function postJson(
  fetch: FetchLike,
  url: string,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
  timer: ExchangeTimer,
): Promise<Reply> {
  const raw = rawExchangeOf(fetch);
  timer.fetchStarted();
  if (raw) {
    const res = await raw(url, { method: "POST", headers, body, signal });
    timer.wired(res.timing);
    timer.bodyRead();
    return { status: res.status, text: res.text, headers: () => toHeaders(res.headers) };
  }
  const res = await fetch(url, { method: "POST", headers, body, signal });
  timer.responded(res);
  const text = await res.text();
  timer.bodyRead();
  return { status: res.status, text, headers: () => res.headers };
}

/**
 * The failure of a non-2xx answer: 429 → rate_limited (Retry-After read), 5xx → server_error,
 * other → client_error, with the SDK's wording (`400 <error.message>`, `500 status code (no body)`).
 */
export function replyFailure(reply: Reply): AttemptError {
  return statusFailure(reply.status, reply.headers(), statusMessage(reply.status, reply.text));
}

function statusMessage(status: number, text: string): string {
  let json: unknown;
  try {
    json = text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    json = undefined;
  }
  let detail: string | undefined;
  if (json !== undefined) {
    const error = json && typeof json === "object" ? (json as { error?: unknown }).error : undefined;
    const message = error && typeof error === "object" ? (error as { message?: unknown }).message : undefined;
    detail = message ? (typeof message === "string" ? message : JSON.stringify(message)) : error ? JSON.stringify(error) : undefined;
  } else {
    detail = text || undefined;
  }
  return detail ? `${status} ${detail}` : `${status} status code (no body)`;
}

function toHeaders(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}
