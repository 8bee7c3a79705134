export { runConversation } from "./run-conversation";
export { callHttpAgent, httpAgentResponseSchema, type HttpAgentRequest, type HttpAgentResponse } from "./http-agent";
export { answerToolCall, parseArguments } from "./mock-tools";
export { SIMULATOR_SCHEMA, SIMULATOR_SCHEMA_NAME, buildSimulatorMessages, parseSimulatorTurn, isRepetition } from "./simulator";
export { substituteVariables } from "./variables";
export * from "./types";
