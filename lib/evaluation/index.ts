/**
 * The evaluation library: evaluators for a finished conversation — single-turn checks, tool-call
 * matching, the outcome judge, metrics and the pass rule, composed by `evaluateCase`. Called by
 * the case runner (lib/runs/case-runner.ts). Key rule: no database access and no endpoint of its
 * own — model calls come in as an `EvalLlm`, and judge output fails closed (an unparseable verdict
 * is an evaluation error, never a pass). Server code (the run cache uses node:crypto); client
 * components import `./schemas` directly.
 */
export * from "./types";
export * from "./schemas";
export { createEvalCache, parseJsonObject, type EvalCache, type EvalCacheHit, type EvalCacheOptions } from "./llm-json";
export {
  TURN_NUMBERING,
  citedTurns,
  countTurns,
  isRepeating,
  normaliseMessage,
  renderTranscript,
  splitTurns,
  type PlacedMessage,
  type TranscriptTurn,
} from "./transcript";
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
