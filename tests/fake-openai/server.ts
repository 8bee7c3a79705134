// A deterministic, scriptable, fault-injecting OpenAI-compatible HTTP server for tests, e2e and
// benchmarks (node:http only). Answers /v1/chat/completions, /v1/embeddings and /v1/models;
// scripted by rules (in-process via the returned object, or over HTTP at /__fake/*), and optionally
// enforcing a provider budget (./rate-limit.ts: 429 with Retry-After and x-ratelimit-* headers).
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  chatCompletion,
  chatView,
  embeddingsResponse,
  embeddingsView,
  errorBody,
  MODEL_IDS,
  modelObject,
  ruleMatches,
  type RequestView,
} from "./responses";
import { formatDuration, ProviderBudget, rateLimitProblem, type Admission, type RateLimit } from "./rate-limit";
import type { FakeOpenAI, FakeRule, RecordedRequest, StartOptions } from "./types";

export type { FakeEndpoint, FakeOpenAI, FakeRule, RateLimit, RecordedRequest, StartOptions } from "./types";

type Reply = NonNullable<FakeRule["reply"]>;
type StoredRule = { rule: FakeRule; remaining: number | undefined };
type Pending = { res: ServerResponse; timer?: NodeJS.Timeout };
type Refusal = Extract<Admission, { admitted: false }>;

const GARBLED_BODY = '{"id": "chatcmpl-garbled", "object": "chat.completion", "choices": [{"index": 0, "message": {"role": "assist';

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed || res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
    req.on("close", () => {
      if (!req.complete) reject(new Error("request aborted"));
    });
  });
}

function parseJson(raw: string): { ok: true; value: unknown } | { ok: false } {
  if (raw.trim() === "") return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch {
    return { ok: false };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function recordHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  }
  return out;
}

function endpointOf(path: string): RecordedRequest["endpoint"] {
  if (path === "/v1/chat/completions") return "chat";
  if (path === "/v1/embeddings") return "embeddings";
  if (path === "/v1/models" || path.startsWith("/v1/models/")) return "models";
  return "other";
}

/** Why `value` is not a usable FakeRule, or null when it is. */
function ruleProblem(value: unknown): string | null {
  if (!isObject(value)) return "a rule must be an object";
  if (value.match !== undefined && !isObject(value.match)) return "rule.match must be an object";
  if (value.reply !== undefined && !isObject(value.reply)) return "rule.reply must be an object";
  if (value.times !== undefined && typeof value.times !== "number") return "rule.times must be a number";
  return null;
}

/** `{rpm?, tpm?, burst_seconds?}` as the control API takes it, or why it is not one. */
function rateLimitOf(value: unknown): RateLimit | string {
  if (!isObject(value)) return "the rate limit must be an object {rpm?, tpm?, burst_seconds?}";
  const limit: RateLimit = {};
  for (const [key, field] of [
    ["rpm", "rpm"],
    ["tpm", "tpm"],
    ["burst_seconds", "burstSeconds"],
  ] as const) {
    const v = value[key];
    if (v === undefined) continue;
    if (typeof v !== "number" || !Number.isFinite(v) || v <= 0) return `${key} must be a number > 0`;
    limit[field] = v;
  }
  if (limit.rpm === undefined && limit.tpm === undefined) return "give rpm, tpm or both";
  return limit;
}

/** Tokens an answer body reports in `usage` (prompt + completion; 0 without usage). */
function usageTokens(body: unknown): number {
  const usage = isObject(body) && isObject(body.usage) ? body.usage : {};
  const count = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);
  return count(usage.prompt_tokens) + count(usage.completion_tokens);
}

/** The 429 body OpenAI sends past a limit: the message names it, `type` is "requests" or "tokens". */
function refusalBody(refusal: Refusal, model: string): unknown {
  const what = refusal.limit === "requests" ? "requests per min (RPM)" : "tokens per min (TPM)";
  const limit = refusal.headers[`x-ratelimit-limit-${refusal.limit}`];
  const message =
    `Rate limit reached for ${what} on ${model || "this model"} (fake server): Limit ${limit}. ` +
    `Please try again in ${formatDuration(refusal.retryAfterMs)}.`;
  const body = errorBody(429, message) as { error: Record<string, unknown> };
  return { error: { ...body.error, type: refusal.limit } };
}

export async function startFakeOpenAI(opts: StartOptions = {}): Promise<FakeOpenAI> {
  const host = opts.host ?? "127.0.0.1";
  const initialLatency = Math.max(0, opts.latencyMs ?? 0);
  let latency = initialLatency;
  let rules: StoredRule[] = [];
  const requests: RecordedRequest[] = [];
  let inFlight = 0;
  let maxConcurrent = 0;
  let count = 0;
  let seq = 0;
  const pending = new Set<Pending>();
  let budget: ProviderBudget | null = null;
  let rateLimited = 0;
  const setRateLimit = (limit: RateLimit | null) => {
    budget = limit ? new ProviderBudget(limit) : null;
  };
  const startRateLimitProblem = opts.rateLimit ? rateLimitProblem(opts.rateLimit) : null;
  if (startRateLimitProblem) throw new RangeError(`rateLimit: ${startRateLimitProblem}`);

  const store = (rule: FakeRule): StoredRule | null =>
    rule.times !== undefined && rule.times <= 0 ? null : { rule, remaining: rule.times };
  const addRule = (rule: FakeRule) => {
    const stored = store(rule);
    if (stored) rules.push(stored);
  };
  const setRules = (list: FakeRule[]) => {
    rules = list.map(store).filter((r): r is StoredRule => r !== null);
  };
  const reset = () => {
    setRules(opts.rules ?? []);
    requests.length = 0;
    latency = initialLatency;
    count = 0;
    seq = 0;
    maxConcurrent = inFlight;
    setRateLimit(opts.rateLimit ?? null);
    rateLimited = 0;
  };
  reset();

  /** The first rule matching `view`, without consuming it. */
  const findRule = (view: RequestView): StoredRule | undefined => rules.find((r) => ruleMatches(r.rule, view));
  /** Uses `stored` once (removing it when its `times` run out) and returns its reply. */
  const consume = (stored: StoredRule | undefined): Reply | undefined => {
    if (!stored) return undefined;
    if (stored.remaining !== undefined && --stored.remaining <= 0) rules.splice(rules.indexOf(stored), 1);
    return stored.rule.reply ?? {};
  };

  /**
   * Answers a chat or embeddings request through the provider budget when one is set, checked
   * before the rules: a refused request gets its 429 at once (no latency, no rule used up); an
   * admitted one uses its rule and carries the x-ratelimit-* headers. The answer is built first:
   * the tokens its usage reports are what the budget takes (none for a scripted error status).
   */
  const answer = (res: ServerResponse, view: RequestView, build: (reply: Reply | undefined) => unknown) => {
    const stored = findRule(view);
    if (!budget) {
      const reply = consume(stored);
      return respond(res, reply, () => build(reply));
    }
    const planned = stored?.rule.reply ?? (stored ? {} : undefined);
    const body = build(planned);
    const admission = budget.admit((planned?.status ?? 200) >= 400 ? 0 : usageTokens(body));
    if (!admission.admitted) {
      rateLimited++;
      return sendJson(res, 429, refusalBody(admission, view.model), admission.headers);
    }
    return respond(res, consume(stored), () => body, admission.headers);
  };

  /** Answer after the base latency plus the reply's delay, applying the reply's faults. */
  const respond = (res: ServerResponse, reply: Reply | undefined, build: () => unknown, extraHeaders: Record<string, string> = {}) => {
    const entry: Pending = { res };
    pending.add(entry);
    res.on("close", () => {
      if (entry.timer) clearTimeout(entry.timer);
      pending.delete(entry);
    });
    if (reply?.hang) return; // answered never; destroyed by close()
    const send = () => {
      pending.delete(entry);
      if (res.destroyed) return;
      if (reply?.garbled) {
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(GARBLED_BODY) });
        res.end(GARBLED_BODY);
        return;
      }
      const headers: Record<string, string> = { ...extraHeaders };
      if (reply?.retryAfter !== undefined) headers["retry-after"] = String(reply.retryAfter);
      const status = reply?.status ?? 200;
      if (status >= 400) sendJson(res, status, errorBody(status, reply?.content), headers);
      else sendJson(res, status, build(), headers);
    };
    const delay = latency + Math.max(0, reply?.delayMs ?? 0);
    if (delay > 0) entry.timer = setTimeout(send, delay);
    else send();
  };

  const handleApi = async (req: IncomingMessage, res: ServerResponse, path: string) => {
    inFlight++;
    count++;
    if (inFlight > maxConcurrent) maxConcurrent = inFlight;
    let finished = false;
    res.on("close", () => {
      if (!finished) {
        finished = true;
        inFlight--;
      }
    });
    const raw = await readBody(req);
    const parsed = parseJson(raw);
    const endpoint = endpointOf(path);
    const body = parsed.ok ? parsed.value : raw;
    const record: RecordedRequest = { endpoint, path, body, headers: recordHeaders(req), at: Date.now() };
    requests.push(record);
    res.on("finish", () => {
      record.respondedAt = Date.now();
      record.status = res.statusCode;
    });
    const method = req.method ?? "GET";
    const invalid = (message: string) => respond(res, { status: 400, content: message }, () => null);

    if (endpoint === "models") {
      if (method !== "GET") return respond(res, { status: 405, content: "Method not allowed." }, () => null);
      const id = path === "/v1/models" ? undefined : decodeURIComponent(path.slice("/v1/models/".length));
      if (id === undefined) return respond(res, undefined, () => ({ object: "list", data: MODEL_IDS.map(modelObject) }));
      return respond(res, MODEL_IDS.includes(id) ? undefined : { status: 404, content: `The model '${id}' does not exist` }, () =>
        modelObject(id),
      );
    }
    if (endpoint === "other") return respond(res, { status: 404, content: `Unknown request URL: ${method} ${path}` }, () => null);
    if (method !== "POST") return respond(res, { status: 405, content: "Method not allowed." }, () => null);
    if (!parsed.ok) return invalid("We could not parse the JSON body of your request.");
    if (!isObject(body)) return invalid("The request body must be a JSON object.");
    const n = ++seq;

    if (endpoint === "chat") {
      if (body.stream === true) return invalid("streaming not supported by the fake");
      if (!Array.isArray(body.messages) || body.messages.length === 0) return invalid("'messages' must be a non-empty array.");
      const view = chatView(body);
      return answer(res, view, (reply) => chatCompletion(view, reply, n));
    }
    if (body.input === undefined) return invalid("'input' is a required property.");
    return answer(res, embeddingsView(body), (reply) => embeddingsResponse(body, reply));
  };

  const handleControl = async (req: IncomingMessage, res: ServerResponse, path: string) => {
    const method = req.method ?? "GET";
    const parsed = parseJson(await readBody(req));
    if (!parsed.ok) return sendJson(res, 400, errorBody(400, "invalid JSON"));
    const body = parsed.value;
    if (path === "/__fake/rules") {
      if (method === "GET")
        return sendJson(
          res,
          200,
          rules.map((r) => ({ ...r.rule, times: r.remaining })),
        );
      if (method === "DELETE") {
        reset();
        return sendJson(res, 200, { ok: true });
      }
      if (method === "POST" || method === "PUT") {
        const list = Array.isArray(body) ? body : [body];
        const problem = list.map(ruleProblem).find((p) => p !== null);
        if (problem) return sendJson(res, 400, errorBody(400, problem));
        if (method === "PUT") setRules(list as FakeRule[]);
        else for (const rule of list as FakeRule[]) addRule(rule);
        return sendJson(res, 200, { ok: true, rules: rules.length });
      }
    }
    if (path === "/__fake/requests" && method === "GET") return sendJson(res, 200, requests);
    if (path === "/__fake/stats" && method === "GET") return sendJson(res, 200, { inFlight, maxConcurrent, count, rateLimited });
    if (path === "/__fake/rate-limit") {
      if (method === "GET") return sendJson(res, 200, { rateLimit: budget?.limit ?? null, levels: budget?.levels() ?? null });
      if (method === "DELETE") {
        setRateLimit(null);
        return sendJson(res, 200, { ok: true });
      }
      if (method === "POST") {
        const limit = rateLimitOf(body);
        if (typeof limit === "string") return sendJson(res, 400, errorBody(400, limit));
        setRateLimit(limit);
        return sendJson(res, 200, { ok: true, ...limit });
      }
    }
    if (path === "/__fake/latency" && method === "POST") {
      const ms = isObject(body) ? body.ms : undefined;
      if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0) return sendJson(res, 400, errorBody(400, "{ms} must be a number ≥ 0"));
      latency = ms;
      return sendJson(res, 200, { ok: true, ms });
    }
    return sendJson(res, 404, errorBody(404, `Unknown control URL: ${method} ${path}`));
  };

  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://fake").pathname.replace(/\/+$/, "") || "/";
    const work = path.startsWith("/__fake/") ? handleControl(req, res, path) : handleApi(req, res, path);
    work.catch(() => {
      if (!res.headersSent && !res.destroyed) sendJson(res, 500, errorBody(500));
      else res.destroy();
    });
  });
  // Keep-alive friendly for benchmark clients that reuse connections.
  server.keepAliveTimeout = 30_000;
  server.headersTimeout = 35_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  let closed: Promise<void> | undefined;

  return {
    url: `http://${urlHost}:${port}/v1`,
    port,
    requests,
    addRule,
    setRules,
    reset,
    setLatency(ms: number) {
      latency = Math.max(0, ms);
    },
    maxConcurrent: () => maxConcurrent,
    inFlight: () => inFlight,
    setRateLimit,
    rateLimited: () => rateLimited,
    close() {
      closed ??= new Promise<void>((resolve) => {
        for (const p of pending) {
          if (p.timer) clearTimeout(p.timer);
          p.res.destroy();
        }
        pending.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
