/**
 * Model calls for the agent, the simulated user, the judge and embeddings: an OpenAI-compatible
 * client with retries and backoff, per-endpoint concurrency limits, a per-run call cache, and a
 * record of every call (request, raw response, attempts, latency). Called by the case runner,
 * lib/conversation and the worker (which sets the default endpoint concurrency). Key rule:
 * requests go through the guarded fetch (lib/net/safe-fetch.ts) unless a fetch is injected (the
 * in-process demo model).
 */
export {
  LlmClient,
  LlmCallCache,
  type ChatParams,
  type ChatResult,
  type CallOptions,
  type JsonRequest,
  type JsonResult,
  type EmbedOptions,
  type LlmClientOptions,
} from "./client";
export { toEvalLlm, type EvalLlm } from "./eval-llm";
export { AttemptError, LlmError, isLlmError } from "./errors";
export { DEFAULT_RETRY_POLICY, backoffDelayMs, parseRetryAfter, runWithRetry, sleep, type RetryPolicy } from "./retry";
export { ExecutionStats, emptyStats, mergeStats, type ExecutionStatsJson } from "./stats";
export {
  DEFAULT_ENDPOINT_CONCURRENCY,
  Semaphore,
  endpointLimiter,
  resetEndpointLimiters,
  setDefaultEndpointConcurrency,
  setEndpointConcurrency,
} from "./concurrency";
export type { ChatReply, ReplyToolCall } from "./responses";
export * from "./types";
