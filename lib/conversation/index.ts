/**
 * The conversation with the agent under test: `runConversation` plays a single turn or a
 * simulated user ↔ agent dialogue, answers tool calls with the configured mock responses and
 * calls HTTP agents. Called by the case runner (lib/runs/case-runner.ts), which then evaluates
 * the transcript. It never throws for agent, simulator or cancellation failures: they end the
 * conversation with `error` set and the transcript produced so far.
 */
export { runConversation } from "./run-conversation";
export { callHttpAgent, httpAgentResponseSchema, type HttpAgentRequest, type HttpAgentResponse } from "./http-agent";
export { answerToolCall, parseArguments } from "./mock-tools";
export { SIMULATOR_SCHEMA, SIMULATOR_SCHEMA_NAME, buildSimulatorMessages, parseSimulatorTurn, isRepetition } from "./simulator";
export { substituteVariables } from "./variables";
export * from "./types";
