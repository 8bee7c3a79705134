/**
 * The evaluation library: evaluators for a finished conversation — single-turn checks, tool-call
 * matching, the outcome judge, metrics and the pass rule, composed by `evaluateCase`. Called by
 * the case runner (lib/runs/case-runner.ts). Key rule: no database access and no endpoint of its
 * own — model calls come in as an `EvalLlm`, and judge output fails closed (an unparseable verdict
 * is an evaluation error, never a pass). Server code (the run cache uses node:crypto); client
 * components import `./schemas` directly. This entry exports what the run pipeline calls (the
 * types, the schemas and `evaluateCase`); code that needs one evaluator alone (the transcript
 * renderer, a judge request builder) imports its module.
 */
export * from "./types";
export * from "./schemas";
export { evaluateCase, toolCallsFromTranscript, type EvaluateCaseInput } from "./evaluate-case";
