export { LlmClient, LlmCallCache, type ChatParams, type ChatResult, type CallOptions, type JsonRequest, type JsonResult, type EmbedOptions, type LlmClientOptions } from "./client";
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
