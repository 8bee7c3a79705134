import "server-only";
import OpenAI from "openai";
import {
  createGuardedFetch,
  findCause,
  isBlockedAddressError,
  isRedirectRefusedError,
  isResponseTooLargeError,
  type NetworkPolicy,
} from "@/lib/net/safe-fetch";
import { demoFetch, isDemoUrl } from "@/lib/demo/model";
import type { ConnectionResult } from "./dto";

/** What the executor and "test connection" need to call a model configuration's endpoint. */
export type ModelEndpoint = {
  baseUrl: string;
  model: string;
  embeddingModel: string | null;
  apiKey: string | null;
  temperature: number | null;
  maxTokens: number | null;
  /** The provider limits declared on the configuration (lib/rate-limits); read when a run starts. */
  limits?: { rpm: number | null; tpm: number | null; maxConcurrency: number | null };
};

/**
 * An openai client for a user-configured endpoint: guarded outbound fetch (the instance's address
 * policy, redirect rules and response byte cap), no credentials or base URL picked up from process env.
 */
export function openAIClientFor(
  endpoint: Pick<ModelEndpoint, "baseUrl" | "apiKey">,
  policy: NetworkPolicy,
  opts: { timeoutMs?: number; maxRetries?: number } = {},
): OpenAI {
  return new OpenAI({
    baseURL: endpoint.baseUrl,
    // Keyless endpoints (Ollama, vLLM) get a placeholder; the Authorization header is omitted.
    apiKey: endpoint.apiKey ?? "no-api-key",
    defaultHeaders: endpoint.apiKey ? undefined : { Authorization: null },
    organization: null,
    project: null,
    // The built-in demo model answers in process; everything else goes through the network guard.
    fetch: isDemoUrl(endpoint.baseUrl) ? demoFetch : createGuardedFetch(policy),
    timeout: opts.timeoutMs ?? 60_000,
    maxRetries: opts.maxRetries ?? 2,
  });
}

const TEST_TIMEOUT_MS = 10_000;

/** Sends a one-token chat completion and reports the outcome in words a user can act on. */
export async function checkConnection(endpoint: ModelEndpoint, policy: NetworkPolicy): Promise<ConnectionResult> {
  const client = openAIClientFor(endpoint, policy, { timeoutMs: TEST_TIMEOUT_MS, maxRetries: 0 });
  const messages = [{ role: "user" as const, content: "Reply with OK." }];
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await client.chat.completions.create({ model: endpoint.model, messages, max_tokens: 5 });
    } catch (err) {
      // Newer OpenAI reasoning models refuse `max_tokens` and want `max_completion_tokens`.
      if (!(err instanceof OpenAI.BadRequestError) || !/max_tokens/.test(err.message)) throw err;
      completion = await client.chat.completions.create({ model: endpoint.model, messages, max_completion_tokens: 16 });
    }
    const latency = elapsed();
    if (!completion || typeof completion !== "object" || !Array.isArray(completion.choices)) {
      return {
        ok: false,
        latency_ms: latency,
        model: endpoint.model,
        message:
          "The endpoint answered, but not like an OpenAI-compatible chat completions API. Check the base URL (it usually ends in /v1).",
      };
    }
    const model = completion.model || endpoint.model;
    return { ok: true, latency_ms: latency, model, message: `Connected: model "${model}" answered in ${latency} ms.` };
  } catch (err) {
    return { ok: false, latency_ms: elapsed(), model: endpoint.model, message: describeLlmError(err, endpoint) };
  }
}

/** A readable summary of an openai SDK / network error; never the raw stack or SDK text alone. */
export function describeLlmError(err: unknown, endpoint: Pick<ModelEndpoint, "baseUrl" | "model" | "apiKey">): string {
  const blocked = findCause(err, isBlockedAddressError);
  if (blocked) return blocked.message;
  const refused = findCause(err, isRedirectRefusedError) ?? findCause(err, isResponseTooLargeError);
  if (refused) return refused.message;
  if (err instanceof OpenAI.APIConnectionTimeoutError) {
    return `The endpoint did not answer within ${TEST_TIMEOUT_MS / 1000} s. Check the base URL and that the server is reachable from Assay.`;
  }
  if (err instanceof OpenAI.APIConnectionError) return describeNetworkFailure(err, endpoint.baseUrl);
  if (err instanceof OpenAI.APIError) {
    const detail = serverDetail(err);
    switch (err.status) {
      case 401:
        return endpoint.apiKey
          ? `The endpoint rejected the API key (401).${detail}`
          : `The endpoint requires an API key (401), and none is saved for this configuration.${detail}`;
      case 403:
        return `The API key is not allowed to use this endpoint or model (403).${detail}`;
      case 404:
        return /model/i.test(serverText(err)) || (err.code === "model_not_found" && !/url|path|route/i.test(serverText(err)))
          ? `Model "${endpoint.model}" was not found at this endpoint (404).${detail}`
          : `Not found (404): check the base URL — OpenAI-compatible APIs usually end in /v1.${detail}`;
      case 429:
        return `The endpoint is rate limiting or out of quota (429); the key was accepted.${detail}`;
      case 400:
      case 422:
        return `The endpoint refused the request (${err.status}).${detail}`;
      default:
        if (typeof err.status === "number" && err.status >= 500) return `The endpoint had a server error (${err.status}).${detail}`;
        return `The endpoint answered with HTTP ${err.status ?? "error"}.${detail}`;
    }
  }
  if (err instanceof SyntaxError) {
    return "The endpoint answered with something that is not JSON. Check the base URL (it usually ends in /v1).";
  }
  return "The connection test failed unexpectedly. Check the base URL, model and API key.";
}

function describeNetworkFailure(err: unknown, baseUrl: string): string {
  const errno = findCause(
    err,
    (e): e is NodeJS.ErrnoException => e instanceof Error && typeof (e as NodeJS.ErrnoException).code === "string",
  );
  let host = baseUrl;
  try {
    host = new URL(baseUrl).host;
  } catch {
    /* keep the raw value */
  }
  switch (errno?.code) {
    case "ECONNREFUSED":
      return `Connection refused by ${host}: is the server running and listening on that port?`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_NONAME":
      return `Could not resolve the host name ${new URL(baseUrl).hostname}. Check the base URL.`;
    case "ECONNRESET":
    case "EPIPE":
      return `The connection to ${host} was closed unexpectedly. Check the protocol (http vs https) and port.`;
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `${host} is unreachable from the Assay server.`;
    case "ETIMEDOUT":
      return `Connecting to ${host} timed out.`;
    case "EPROTO":
    case "ERR_SSL_WRONG_VERSION_NUMBER":
      return `TLS handshake with ${host} failed: does the server speak https on that port?`;
    default:
      if (errno?.code && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(errno.code)) {
        return `The TLS certificate of ${host} was not accepted (${errno.code}).`;
      }
      return `Could not connect to ${host}${errno?.code ? ` (${errno.code})` : ""}.`;
  }
}

/** The error message from the server's JSON body (`{error: {message}}` or `{error: "..."}`). */
function serverText(err: InstanceType<typeof OpenAI.APIError>): string {
  const body: unknown = err.error;
  const raw =
    typeof body === "string"
      ? body
      : body && typeof body === "object" && "message" in body && typeof body.message === "string"
        ? body.message
        : "";
  return raw.replace(/\s+/g, " ").trim();
}

/** The server's own error message, shortened, as a trailing sentence. */
function serverDetail(err: InstanceType<typeof OpenAI.APIError>): string {
  const text = serverText(err);
  if (!text) return "";
  return ` Server said: "${text.length > 200 ? `${text.slice(0, 197)}…` : text}"`;
}
