// Public types of the fake OpenAI-compatible server (re-exported by server.ts).
import type { RateLimit } from "./rate-limit";

export type { RateLimit } from "./rate-limit";

export type FakeEndpoint = "chat" | "embeddings";

export type FakeRule = {
  /** All given matchers must match. */
  match?: {
    model?: string;
    /** substring of the LAST user message content (embeddings: of the last input text) */
    lastUserContains?: string;
    /** substring anywhere in any message content (system, user, assistant, tool); embeddings: any input text */
    anyContains?: string;
    /** response_format.json_schema.name of the request */
    schemaName?: string;
    /** "chat" | "embeddings" */
    endpoint?: FakeEndpoint;
    /** the request declares tools */
    hasTools?: boolean;
    /** the last message has role "tool" (the agent is seeing tool results) */
    afterToolResult?: boolean;
  };
  /** How to answer (first matching rule wins; rules with `times` are consumed). */
  reply?: {
    /** assistant text */
    content?: string;
    /** structured output: serialised into content */
    json?: unknown;
    /** assistant tool_calls (arguments JSON-stringified), finish_reason "tool_calls" */
    toolCalls?: { name: string; arguments: unknown }[];
    /** HTTP error status (e.g. 401, 429, 500) with an OpenAI-style error body */
    status?: number;
    /** seconds, sent as Retry-After header (with 429) */
    retryAfter?: number;
    /** never answer (simulates a timeout); the connection is closed on server.close() */
    hang?: boolean;
    /** 200 with a body that is not valid JSON */
    garbled?: boolean;
    /** extra latency for this reply */
    delayMs?: number;
    usage?: { prompt_tokens: number; completion_tokens: number };
  };
  /** apply at most this many times, then the rule is removed */
  times?: number;
};

export type RecordedRequest = {
  endpoint: "chat" | "embeddings" | "models" | "other";
  path: string;
  // The request body as the client sent it (parsed JSON, or the raw text when it is not JSON).
  // `any` on purpose: tests assert on whatever shape the client sent (body.messages[0].content).
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  /** lower-cased header names */
  headers: Record<string, string>;
  /** Date.now() when the request arrived */
  at: number;
  /** Date.now() when the response was fully handed to the socket (absent while pending or for hung requests) */
  respondedAt?: number;
  /** The HTTP status answered (absent while pending or for hung requests) */
  status?: number;
};

export interface FakeOpenAI {
  /** "http://127.0.0.1:<port>/v1" (base URL for the openai SDK) */
  url: string;
  port: number;
  requests: RecordedRequest[];
  addRule(rule: FakeRule): void;
  setRules(rules: FakeRule[]): void;
  /** Clear rules, requests, counters; latency and rules go back to the start-up options. */
  reset(): void;
  /** Base latency for every answer. */
  setLatency(ms: number): void;
  /** Highest number of requests in flight at once since the last reset (to verify concurrency bounds). */
  maxConcurrent(): number;
  inFlight(): number;
  /**
   * Enforce one provider budget over chat and embeddings (429 with Retry-After and x-ratelimit-* past
   * it; buckets start full); null: none. reset() restores the start-up one. Throws a RangeError
   * when a limit is not a positive finite number.
   */
  setRateLimit(limit: RateLimit | null): void;
  /** Requests the budget refused with a 429 since the last reset (scripted 429s not counted). */
  rateLimited(): number;
  close(): Promise<void>;
}

export type StartOptions = {
  port?: number;
  host?: string;
  latencyMs?: number;
  rules?: FakeRule[];
  /** provider budget from the start (and after every reset()); startFakeOpenAI throws a RangeError when invalid */
  rateLimit?: RateLimit;
};
