// The fake server's own time per request, for comparing with the latency Assay records: from
// the request's headers being parsed to the response's last byte being handed to the socket,
// read through node:http's diagnostics channels so the fake itself stays untouched.
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { IncomingMessage, ServerResponse } from "node:http";

/** One answered request: the last user message it asked (the bench's case key) and the server's time. */
export type ServerTime = { question: string; model?: string; serverMs: number };

type Started = { at: number; chunks: Buffer[] };

/** The last user message of a chat request body, or null when the body is something else. */
export function lastUserQuestion(raw: string): string | null {
  try {
    const body = JSON.parse(raw) as { messages?: { role?: string; content?: unknown }[] } | null;
    const last = [...(body?.messages ?? [])].reverse().find((m) => m.role === "user");
    return typeof last?.content === "string" ? last.content : null;
  } catch {
    return null;
  }
}

/** The `model` of a chat request body (the A/B bench tells its arms apart by it). */
export function requestModel(raw: string): string | undefined {
  try {
    const model = (JSON.parse(raw) as { model?: unknown } | null)?.model;
    return typeof model === "string" ? model : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reports every chat request any http.Server in this process answers. Returns the function that
 * stops reporting. The body is copied by a second 'data' listener added before the server's own
 * (both are attached before the stream starts flowing, so each sees every chunk).
 */
export function recordServerTimes(onTime: (t: ServerTime) => void): () => void {
  const started = new WeakMap<IncomingMessage, Started>();
  const onStart = (message: unknown) => {
    const { request } = message as { request: IncomingMessage };
    if (!request.url?.startsWith("/v1/chat/completions")) return;
    const entry: Started = { at: performance.now(), chunks: [] };
    started.set(request, entry);
    request.on("data", (c: Buffer) => entry.chunks.push(c));
  };
  const onFinish = (message: unknown) => {
    const { request } = message as { request: IncomingMessage; response: ServerResponse };
    const entry = started.get(request);
    if (!entry) return;
    const serverMs = performance.now() - entry.at;
    started.delete(request);
    const raw = Buffer.concat(entry.chunks).toString("utf8");
    const question = lastUserQuestion(raw);
    if (question !== null) onTime({ question, model: requestModel(raw), serverMs });
  };
  subscribe("http.server.request.start", onStart);
  subscribe("http.server.response.finish", onFinish);
  return () => {
    unsubscribe("http.server.request.start", onStart);
    unsubscribe("http.server.response.finish", onFinish);
  };
}
