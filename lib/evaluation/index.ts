/**
 * The evaluation library: pure evaluators for finished conversations (no database access).
 * Server code (the run cache uses node:crypto); client components import `./schemas` directly.
 */
export * from "./types";
export * from "./schemas";
export { createEvalCache, parseJsonObject, type EvalCache, type EvalCacheHit, type EvalCacheOptions } from "./llm-json";
export { renderTranscript, isRepeating, normaliseMessage } from "./transcript";
export {
  CHECK_SCHEMA_NAME,
  buildCheckJudgeRequest,
  checksSatisfied,
  cosineSimilarity,
  evaluateChecks,
  evaluateContainsPhrases,
  evaluateLlmJudgeCheck,
  evaluateSemanticSimilarity,
} from "./checks";
export { matchToolCalls, paramsMatch, parseToolArguments, type ToolCallMatchOptions } from "./tool-calls";
export {
  DEFAULT_OUTCOME_RUBRIC,
  OUTCOME_SCHEMA_NAME,
  buildOutcomeJudgeRequest,
  judgeOutcomes,
  outcomeKeys,
  parseOutcomeVerdicts,
  type OutcomeKey,
} from "./judge";
export { buildMetricRequest, metricSchemaName, type MetricInputs } from "./metric-prompts";
export { evaluateMetric, evaluateMetrics, meetsThreshold, normaliseScore, parseMetricReply } from "./metrics";
export { decideStatus, type PassDecision, type PassRuleInput } from "./pass-rule";
export { evaluateCase, toolCallsFromTranscript, type EvaluateCaseInput } from "./evaluate-case";
