import "server-only";
import { LRUCache } from "lru-cache";
import { createHash } from "node:crypto";
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
  ChatCompletionToolChoiceOption,
} from "openai/resources/chat/completions";
import type { EmbeddingCreateParams } from "openai/resources/embeddings";
import { logger } from "@/lib/logger";
import { preconnect, type FetchLike } from "@/lib/net/safe-fetch";
import { guardedFetch } from "@/lib/net/service";
import { failedCall, startedCall, succeededCall } from "./call-record";
import { endpointLimiter } from "./concurrency";
import { LlmError } from "./errors";
import { classifySdkError, parseCompletion, parseEmbeddings, preview, type ChatReply } from "./responses";
import { DEFAULT_RETRY_POLICY, runWithRetry, type RetryPolicy } from "./retry";
import { ExchangeTimer, yieldToIo } from "./timing";
import { endpointUrl, postJson, replyFailure, requestHeaders } from "./transport";
import type { CallPurpose, CallRecord, Endpoint, OnRecord, TokenUsage } from "./types";

export type ChatParams = {
  messages: ChatCompletionMessageParam[];
  tools?: ChatCompletionFunctionTool[];
  tool_choice?: ChatCompletionToolChoiceOption;
  /** undefined: the endpoint's default; null: not sent. */
  temperature?: number | null;
  /** undefined: the endpoint's default; null: not sent. */
  max_tokens?: number | null;
  response_format?: ChatCompletionCreateParamsNonStreaming["response_format"];
};

export type CallOptions = {
  purpose: CallPurpose;
  /** Per-attempt timeout (default 30 s). */
  timeoutMs?: number;
  /** Run cancelled: aborts at once, no retry. */
  signal?: AbortSignal;
  onRecord?: OnRecord;
};

export type ChatResult = {
  message: ChatReply;
  usage: TokenUsage;
  finishReason: string | null;
  /**
   * Duration of the attempt that answered (ms, float): request written to the socket → last byte
   * of the response received (lib/llm/timing.ts); no limiter wait, backoff, request building or parsing.
   */
  latencyMs: number;
  attempts: number;
  retries: number;
};

export type JsonRequest = {
  purpose: CallPurpose;
  messages: { role: "system" | "user" | "assistant"; content: string }[];
  schemaName: string;
  schema: Record<string, unknown>;
  timeoutMs?: number;
  signal?: AbortSignal;
  onRecord?: OnRecord;
};

export type JsonResult = { raw: string; usage: TokenUsage; attempts: number; retries: number; cached: boolean };

type JsonAnswer = JsonResult & { response: string | null };

export type EmbedOptions = { purpose?: CallPurpose; timeoutMs?: number; signal?: AbortSignal; onRecord?: OnRecord };

export type LlmClientOptions = {
  /** Defaults to the instance's guarded fetch (address policy, redirect rules, response byte cap). */
  fetch?: FetchLike;
  retryPolicy?: Partial<RetryPolicy>;
  /** Caches structured-output (judge/simulator/metric) calls, e.g. per run. */
  cache?: LlmCallCache | null;
  /** Receives every call's record, in addition to the per-call `onRecord`. */
  onRecord?: OnRecord;
};

/**
 * Caches `json` answers by (endpoint, model, request) — DESIGN.md: consistency and cost within a
 * run. Bounded (least recently used out first): a 10,000-case run with a judge must not keep
 * every verdict in memory; identical requests repeat close together (same case, variants).
 */
export class LlmCallCache {
  readonly #entries: LRUCache<string, { raw: string; response: string | null; usage: TokenUsage }>;
  constructor(maxEntries = 2_000) {
    this.#entries = new LRUCache({ max: Math.max(1, maxEntries) });
  }
  get size(): number {
    return this.#entries.size;
  }
  get(key: string) {
    return this.#entries.get(key);
  }
  set(key: string, value: { raw: string; response: string | null; usage: TokenUsage }) {
    this.#entries.set(key, value);
  }
}

/** Endpoints that rejected `response_format: json_schema`: their json calls use a forced tool call. */
const noJsonSchema = new Set<string>();

/**
 * Calls one OpenAI-compatible endpoint with Assay's retry policy (the A/B engine), the
 * per-endpoint concurrency cap, per-call timeouts and a CallRecord for every call.
 */
export class LlmClient {
  readonly endpoint: Endpoint;
  readonly #fetch: FetchLike;
  readonly #policy: RetryPolicy;
  readonly #cache: LlmCallCache | null;
  readonly #onRecord: OnRecord | undefined;
  #headers: Record<string, string> | undefined;

  constructor(endpoint: Endpoint, options: LlmClientOptions = {}) {
    this.endpoint = endpoint;
    this.#fetch = options.fetch ?? guardedFetch();
    this.#policy = { ...DEFAULT_RETRY_POLICY, ...options.retryPolicy };
    this.#cache = options.cache ?? null;
    this.#onRecord = options.onRecord;
  }

  get model(): string {
    return this.endpoint.model;
  }

  /**
   * Opens up to `count` connections to the endpoint before a run's first wave (TCP, and TLS for
   * https; no request is sent). Without it the first wave's requests all connect at the same
   * moment, and the server's own work accepting them lands inside their recorded latency
   * (+10–15 ms on a local server), besides a handshake each on the wave's critical path. Only
   * through the guarded transport (an injected fetch, e.g. the demo model, has nothing to open).
   */
  async preconnect(count: number, timeoutMs = 3_000): Promise<void> {
    if (count > 0) await preconnect(this.#fetch, this.endpoint.baseUrl, count, timeoutMs);
  }

  async chat(params: ChatParams, opts: CallOptions): Promise<ChatResult> {
    const { endpoint } = this;
    const temperature = params.temperature === undefined ? endpoint.temperature : params.temperature;
    const maxTokens = params.max_tokens === undefined ? endpoint.maxTokens : params.max_tokens;
    const body: ChatCompletionCreateParamsNonStreaming = {
      model: endpoint.model,
      messages: params.messages,
      ...(temperature != null ? { temperature } : {}),
      ...(maxTokens != null ? { max_tokens: maxTokens } : {}),
      ...(params.tools && params.tools.length > 0 ? { tools: params.tools } : {}),
      ...(params.tool_choice ? { tool_choice: params.tool_choice } : {}),
      ...(params.response_format ? { response_format: params.response_format } : {}),
    };
    const out = await this.#call("chat", body, opts, endpoint.model, parseCompletion);
    return {
      message: out.value.message,
      usage: out.value.usage,
      finishReason: out.value.finishReason,
      latencyMs: out.latencyMs,
      attempts: out.attempts,
      retries: out.attempts - 1,
    };
  }

  /**
   * Structured output at temperature 0: `response_format: json_schema` (strict). When the
   * endpoint rejects that with a 400 about response_format, falls back once to one forced
   * function call whose parameters are the schema (and remembers it for this endpoint).
   * Returns the raw JSON text; the caller parses and validates it (fail closed).
   */
  async json(req: JsonRequest): Promise<JsonResult> {
    const key = this.#cache ? cacheKey(this.endpoint, req) : null;
    const hit = key ? this.#cache!.get(key) : undefined;
    if (hit) {
      this.#emit(req.onRecord, {
        purpose: req.purpose,
        model: this.endpoint.model,
        endpointId: this.endpoint.id,
        request: { model: this.endpoint.model, messages: req.messages, schema_name: req.schemaName },
        response: hit.response,
        error: null,
        errorType: null,
        status: null,
        attempts: 0,
        retries: 0,
        attemptErrors: [],
        latencyMs: 0,
        totalMs: 0,
        cached: true,
        startedAt: new Date().toISOString(),
      });
      return { raw: hit.raw, usage: hit.usage, attempts: 0, retries: 0, cached: true };
    }
    const modeKey = `${this.endpoint.id}|${this.endpoint.baseUrl}|${this.endpoint.model}`;
    let result: JsonAnswer;
    if (noJsonSchema.has(modeKey)) {
      result = await this.#jsonViaTool(req);
    } else {
      try {
        result = await this.#jsonViaSchema(req);
      } catch (err) {
        if (!(err instanceof LlmError) || !rejectsJsonSchema(err)) throw err;
        noJsonSchema.add(modeKey);
        result = await this.#jsonViaTool(req);
      }
    }
    if (key && this.#cache) this.#cache.set(key, { raw: result.raw, response: result.response, usage: result.usage });
    const { response: _response, ...publicResult } = result;
    return publicResult;
  }

  /** Embeddings from the endpoint's embedding model, in input order. */
  async embed(texts: string[], opts: EmbedOptions = {}): Promise<number[][]> {
    const model = this.endpoint.embeddingModel;
    if (!model) {
      throw new LlmError(
        "client_error",
        `The model configuration for ${this.endpoint.model} has no embedding model; set one to use semantic similarity`,
        { attempts: 0, attemptErrors: [] },
      );
    }
    if (texts.length === 0) return [];
    const body: EmbeddingCreateParams = { model, input: texts, encoding_format: "float" };
    const out = await this.#call(
      "embeddings",
      body,
      { purpose: opts.purpose ?? "check", timeoutMs: opts.timeoutMs, signal: opts.signal, onRecord: opts.onRecord },
      model,
      (text) => parseEmbeddings(text, texts.length),
      (text) => preview(text, 2000),
    );
    return out.value;
  }

  /** Structured output through the json_schema response format; the answer is the reply's content. */
  #jsonViaSchema(req: JsonRequest): Promise<JsonAnswer> {
    const format = { type: "json_schema" as const, json_schema: { name: req.schemaName, schema: req.schema, strict: true } };
    return this.#jsonCall(req, { response_format: format }, (message) => message.content ?? message.tool_calls[0]?.arguments ?? "");
  }

  /** Structured output through a forced call of a function whose parameters are the schema; the answer is its arguments. */
  #jsonViaTool(req: JsonRequest): Promise<JsonAnswer> {
    const tool = {
      type: "function" as const,
      function: { name: req.schemaName, description: "Answer by calling this function.", parameters: req.schema },
    };
    return this.#jsonCall(req, { tools: [tool], tool_choice: { type: "function", function: { name: req.schemaName } } }, (message) => {
      const call = message.tool_calls.find((c) => c.name === req.schemaName) ?? message.tool_calls[0];
      return call?.arguments ?? message.content ?? "";
    });
  }

  /** One deterministic chat call for a JSON answer: `format` says how the schema is asked for, `pick` reads the JSON text. */
  async #jsonCall(
    req: JsonRequest,
    format: Pick<ChatCompletionCreateParamsNonStreaming, "response_format" | "tools" | "tool_choice">,
    pick: (message: ReturnType<typeof parseCompletion>["message"]) => string,
  ): Promise<JsonAnswer> {
    const body: ChatCompletionCreateParamsNonStreaming = {
      model: this.endpoint.model,
      messages: req.messages,
      temperature: 0,
      ...(this.endpoint.maxTokens != null ? { max_tokens: this.endpoint.maxTokens } : {}),
      ...format,
    };
    const out = await this.#call("chat", body, req, this.endpoint.model, parseCompletion);
    const raw = pick(out.value.message);
    return { raw, usage: out.value.usage, attempts: out.attempts, retries: out.attempts - 1, cached: false, response: out.responseText };
  }

  async #call<T>(
    kind: "chat" | "embeddings",
    body: ChatCompletionCreateParamsNonStreaming | EmbeddingCreateParams,
    opts: CallOptions,
    model: string,
    parse: (text: string) => T,
    recordText: (text: string) => string = (t) => t,
  ): Promise<{ value: T; attempts: number; latencyMs: number; responseText: string | null }> {
    // The exact JSON sent: serialised once for every attempt, recorded as sent.
    const json = JSON.stringify(body);
    const url = endpointUrl(this.endpoint.baseUrl, kind === "chat" ? "/chat/completions" : "/embeddings");
    const headers = (this.#headers ??= requestHeaders(this.endpoint.apiKey));
    // The last attempt's answer: status, text, and the tokens it reported (read once, for the budget and the record).
    const capture: { status: number | null; text: string | null; usage: TokenUsage | null } = { status: null, text: null, usage: null };
    const timeoutMs = opts.timeoutMs ?? this.#policy.timeoutMs;
    const base = startedCall({ purpose: opts.purpose, model, endpointId: this.endpoint.id, request: body });
    // The last response's text as the record keeps it.
    const recorded = () => (capture.text === null ? null : recordText(capture.text));
    try {
      const out = await runWithRetry(
        async ({ signal, reportLatency, reportReply }) => {
          capture.status = null;
          capture.text = null;
          capture.usage = null;
          // A fresh timer per attempt: an abandoned (timed-out) attempt cannot stamp the next one's.
          const timer = new ExchangeTimer();
          let reply;
          try {
            reply = await postJson(this.#fetch, url, headers, json, signal, timer);
          } finally {
            const latency = timer.latencyMs;
            if (latency !== null) reportLatency(latency);
          }
          capture.status = reply.status;
          capture.text = reply.text;
          if (reply.status < 200 || reply.status > 299) {
            reportReply({ status: reply.status, headers: reply.headers(), usage: null });
            throw replyFailure(reply);
          }
          await yieldToIo();
          const value = parse(reply.text);
          capture.usage = reportedUsage(value, reply.text);
          reportReply({ status: reply.status, headers: reply.headers(), usage: capture.usage });
          return value;
        },
        {
          policy: this.#policy,
          timeoutMs,
          signal: opts.signal,
          limiter: endpointLimiter(this.endpoint.id),
          budget: this.endpoint.budget && {
            budget: this.endpoint.budget,
            request: { promptTokens: estimateTokens(json), maxTokens: expectedCompletion(kind, body), purpose: opts.purpose },
          },
          classify: classifySdkError,
        },
      );
      this.#emit(opts.onRecord, {
        ...base,
        request: sentBody(json),
        response: recorded(),
        ...succeededCall(out, capture.status),
        usage: capture.usage,
      });
      return { value: out.value, attempts: out.attempts, latencyMs: out.latencyMs, responseText: capture.text };
    } catch (err) {
      const e =
        err instanceof LlmError
          ? err
          : new LlmError("connection", err instanceof Error ? err.message : String(err), {
              attempts: 1,
              attemptErrors: ["connection"],
              cause: err,
            });
      e.responseText = capture.text;
      this.#emit(opts.onRecord, { ...base, request: sentBody(json), response: recorded(), ...failedCall(e, capture.status) });
      throw e;
    }
  }

  #emit(perCall: OnRecord | undefined, record: CallRecord) {
    for (const sink of [this.#onRecord, perCall]) {
      if (!sink) continue;
      try {
        sink(record);
      } catch (err) {
        logger.warn({ err }, "onRecord failed");
      }
    }
  }
}

/** A request's prompt in tokens, roughly (four characters a token): what a token budget expects it to cost. */
function estimateTokens(json: string): number {
  return Math.ceil(json.length / 4);
}

/** The completion tokens a request may use at most: embeddings none, a chat call its max_tokens when set. */
function expectedCompletion(
  kind: "chat" | "embeddings",
  body: ChatCompletionCreateParamsNonStreaming | EmbeddingCreateParams,
): number | null {
  if (kind === "embeddings") return 0;
  const max = (body as ChatCompletionCreateParamsNonStreaming).max_tokens;
  return typeof max === "number" ? max : null;
}

/** The body as sent (a snapshot: the caller's messages array may change afterwards). */
function sentBody(json: string): unknown {
  return JSON.parse(json) as unknown;
}

function rejectsJsonSchema(err: LlmError): boolean {
  if (err.type !== "client_error" || (err.status !== 400 && err.status !== 422)) return false;
  return /response_format|json_schema|structured output/i.test(`${err.message} ${err.responseText ?? ""}`);
}

function cacheKey(endpoint: Endpoint, req: JsonRequest): string {
  const material = JSON.stringify([endpoint.baseUrl, endpoint.model, req.schemaName, req.schema, req.messages]);
  return createHash("sha256").update(material).digest("hex");
}

/**
 * The tokens an answer reported: a chat completion's parsed usage, or an embeddings response's
 * `usage.prompt_tokens` (embeddings have no completion tokens). Null when the answer said nothing.
 */
function reportedUsage(value: unknown, text: string | null): TokenUsage | null {
  if (value && typeof value === "object" && "usage" in value) return (value as { usage: TokenUsage }).usage;
  if (!text) return null;
  try {
    const usage = (JSON.parse(text) as { usage?: { prompt_tokens?: unknown } }).usage;
    return typeof usage?.prompt_tokens === "number" ? { prompt_tokens: usage.prompt_tokens, completion_tokens: 0 } : null;
  } catch {
    return null;
  }
}
