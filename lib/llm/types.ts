/** Shared types of the LLM client: endpoints, call purposes, error types and call records. */

/** A model configuration resolved for calling (the API key already decrypted). */
export type Endpoint = {
  /** The model configuration id: the key of the per-endpoint concurrency cap. */
  id: string;
  baseUrl: string;
  apiKey: string | null;
  model: string;
  embeddingModel: string | null;
  temperature: number | null;
  maxTokens: number | null;
  /** The provider's rate-limit budget this endpoint draws on (lib/rate-limits); absent: unpaced. */
  budget?: RateBudget;
};

/** What a request is expected to cost a token budget: its prompt, and at most `maxTokens` more. */
export type BudgetRequest = { promptTokens: number; maxTokens: number | null; purpose: CallPurpose };

/**
 * A provider's rate-limit budget, shared by every process calling it (lib/rate-limits):
 * `runWithRetry` takes a permit before each attempt and settles it with what came back. A 429
 * answered on a budget is not one of the call's attempts while `maxWaitMs` allows waiting.
 */
export type RateBudget = {
  acquire(request: BudgetRequest, signal?: AbortSignal): Promise<RatePermit>;
  /** How long one call may spend waiting for the budget (429s included) before it fails. */
  readonly maxWaitMs: number;
};

/** What the provider answered to a request (all null when nothing came back). */
export type BudgetReply = { status: number | null; headers: Headers | null; usage: TokenUsage | null };

export type RatePermit = { settle(reply: BudgetReply): Promise<void> };

export type CallPurpose = "agent" | "simulator" | "judge" | "metric" | "check";

/** Why one attempt (or the whole call) failed. */
export const LLM_ERROR_TYPES = [
  "timeout",
  "connection",
  "rate_limited",
  "server_error",
  "client_error",
  "invalid_response",
  "aborted",
] as const;
export type LlmErrorType = (typeof LLM_ERROR_TYPES)[number];

/**
 * One logical call (all its attempts), reported through `onRecord`. The run view shows these
 * for "why did the judge say that?"; ExecutionStats can be built from them.
 */
export type CallRecord = {
  purpose: CallPurpose;
  /** The model name, or the URL for HTTP agents. */
  model: string;
  /** Concurrency key (model configuration id, or `http:<url>`). */
  endpointId: string;
  /** The exact JSON body sent (of the last attempt). */
  request: unknown;
  /** The raw response body text of the last attempt, or null when none arrived. */
  response: string | null;
  /** Message of the final error, null on success. */
  error: string | null;
  errorType: LlmErrorType | null;
  /** HTTP status of the last attempt, when one arrived. */
  status: number | null;
  attempts: number;
  retries: number;
  /** The error type of every failed attempt, in order (a successful call can have some). */
  attemptErrors: LlmErrorType[];
  /** Duration of the last attempt (the request that produced the answer or the final error). */
  latencyMs: number;
  /** Wall time of the whole call, including queueing for the concurrency cap and backoff. */
  totalMs: number;
  /** Served from the run's call cache, no request made. */
  cached: boolean;
  startedAt: string;
  /** The tokens the answer reported (`usage`): what the call costs. Absent or null for failed and cached calls. */
  usage?: TokenUsage | null;
};

export type OnRecord = (record: CallRecord) => void;

export type TokenUsage = { prompt_tokens: number; completion_tokens: number };
