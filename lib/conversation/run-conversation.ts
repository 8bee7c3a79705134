import "server-only";
import { LlmClient } from "@/lib/llm/client";
import { LlmError } from "@/lib/llm/errors";
import { withAttachedFiles } from "@/lib/files/layout";
import type { Persona } from "@/lib/test-cases/schemas";
import { ConversationStop, chatAgentTurn, httpAgentTurn, type AgentTurnOutcome, type LoopState } from "./agent-turn";
import {
  SIMULATOR_SCHEMA,
  SIMULATOR_SCHEMA_NAME,
  buildSimulatorMessages,
  isRepetition,
  parseSimulatorTurn,
  type SimulatorTurn,
} from "./simulator";
import {
  DEFAULT_MAX_TOOL_ROUNDS,
  DEFAULT_SAFETY_CAP,
  MAX_SAFETY_CAP,
  type ConversationInput,
  type ConversationResult,
  type EndReason,
  type TranscriptMessage,
} from "./types";
import { substituteNullable, substituteVariables } from "./variables";

type Ending = { endReason: EndReason; capHit?: boolean; endDetail?: string | null };

/**
 * Runs one test case's conversation with the agent under test.
 * - No persona: single turn — the initial message (after the system prompt), tool calls answered
 *   with mock responses, until the agent's final reply.
 * - Persona: a simulated user opens with `initial_message` (or writes one) and answers each
 *   agent reply, until the simulator or an HTTP agent ends it, the case's `max_turns` (none when
 *   null) or the workspace safety cap is reached, the token cap is hit, or the user repeats itself.
 * Never throws for agent/simulator failures or cancellation: they end the conversation with
 * `error` set and whatever transcript was produced so far.
 */
export async function runConversation(input: ConversationInput): Promise<ConversationResult> {
  const state: LoopState = {
    transcript: [],
    toolCalls: [],
    promptTokens: 0,
    completionTokens: 0,
    simulatorPromptTokens: 0,
    simulatorCompletionTokens: 0,
    agentLatencyMs: 0,
    turnLatenciesMs: [],
    retries: 0,
  };
  let turns = 0;
  const finish = (ending: Ending, error: ConversationResult["error"] = null): ConversationResult => ({
    transcript: state.transcript,
    finalResponse: lastReply(state),
    toolCalls: state.toolCalls,
    turns,
    endReason: ending.endReason,
    capHit: ending.capHit ?? false,
    endDetail: ending.endDetail ?? null,
    promptTokens: state.promptTokens,
    completionTokens: state.completionTokens,
    simulatorPromptTokens: state.simulatorPromptTokens,
    simulatorCompletionTokens: state.simulatorCompletionTokens,
    agentLatencyMs: Math.round(state.agentLatencyMs),
    agentLatencyExactMs: state.agentLatencyMs,
    turnLatenciesMs: state.turnLatenciesMs,
    retries: state.retries,
    error,
  });

  const { agent, testCase, variables } = input;
  const agentClient = agent.kind === "chat" ? (input.agentClient ?? new LlmClient(agent.endpoint)) : null;
  const maxToolRounds = input.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS;
  const agentTurn = async (): Promise<AgentTurnOutcome> => {
    const before = state.agentLatencyMs;
    try {
      return await (agent.kind === "chat"
        ? chatAgentTurn(agent, agentClient!, input, state, maxToolRounds)
        : httpAgentTurn(agent, input, state));
    } finally {
      state.turnLatenciesMs.push(state.agentLatencyMs - before);
    }
  };
  const checkCancelled = () => {
    if (input.signal?.aborted) throw new ConversationStop("cancelled", "The run was cancelled");
  };
  const overTokenCap = () =>
    input.tokenCap != null &&
    state.promptTokens + state.completionTokens + state.simulatorPromptTokens + state.simulatorCompletionTokens >= input.tokenCap;

  try {
    if (agent.kind === "chat") {
      const system = substituteNullable(agent.systemPrompt, variables);
      if (system && system.trim()) state.transcript.push({ role: "system", content: system });
    }
    const initial = substituteNullable(testCase.initial_message, variables);

    if (!testCase.persona) {
      if (!initial || !initial.trim()) {
        throw new ConversationStop("agent", "The test case has neither an initial message nor a persona, so it cannot run");
      }
      checkCancelled();
      state.transcript.push(firstUserMessage(initial, input));
      await agentTurn();
      turns = 1;
      return finish({ endReason: "single_turn" });
    }

    if (!input.simulator) throw new ConversationStop("simulator", "No simulator model is configured for this multi-turn case");
    const simulator = input.simulator;
    const persona: Persona = {
      type: substituteVariables(testCase.persona.type, variables),
      description: substituteVariables(testCase.persona.description, variables),
      instructions: substituteVariables(testCase.persona.instructions, variables),
    };
    const askSimulator = () => simulatorTurn(simulator, persona, input, state);
    // The test case format: max_turns null means no cap of the case's own — the agent or the simulated user
    // ends the conversation. The workspace safety cap (at most MAX_SAFETY_CAP) still bounds every
    // conversation, also one whose max_turns is higher, and is reported as `safety_cap`, never as
    // the case's own `max_turns`.
    const safetyCap = Math.min(MAX_SAFETY_CAP, Math.max(1, input.safetyCap ?? DEFAULT_SAFETY_CAP));
    const ownLimit = testCase.max_turns ?? Infinity;

    let userMessage: string;
    if (initial && initial.trim()) {
      userMessage = initial;
    } else {
      checkCancelled();
      const opening = await askSimulator();
      if (opening.should_end || !opening.message.trim()) {
        throw new ConversationStop("simulator", "The simulated user ended the conversation before writing a first message");
      }
      userMessage = opening.message;
    }

    for (;;) {
      checkCancelled();
      state.transcript.push(turns === 0 ? firstUserMessage(userMessage, input) : { role: "user", content: userMessage });
      const outcome = await agentTurn();
      turns++;
      if (outcome.end) return finish({ endReason: "agent_ended" });
      if (turns >= ownLimit) return finish({ endReason: "max_turns" });
      if (turns >= safetyCap) return finish({ endReason: "safety_cap", capHit: true });
      if (overTokenCap()) return finish({ endReason: "token_cap", capHit: true });

      checkCancelled();
      const next = await askSimulator();
      if (next.should_end) return finish({ endReason: "simulator_ended", endDetail: next.end_reason });
      if (isRepetition(next.message, state.transcript)) {
        return finish({ endReason: "repetition", endDetail: `The simulated user repeated itself: ${next.message.slice(0, 200)}` });
      }
      if (overTokenCap()) return finish({ endReason: "token_cap", capHit: true });
      userMessage = next.message;
    }
  } catch (err) {
    const stop = err instanceof ConversationStop ? err : new ConversationStop("agent", err instanceof Error ? err.message : String(err));
    return finish({ endReason: "error" }, { type: stop.type, message: stop.message });
  }
}

/**
 * One simulated-user turn. An empty message (without should_end) or invalid output is asked
 * again once (with a nudge, so a cache cannot replay it); then the case ends as a simulator error.
 */
async function simulatorTurn(simulator: LlmClient, persona: Persona, input: ConversationInput, state: LoopState): Promise<SimulatorTurn> {
  for (let attempt = 0; attempt < 2; attempt++) {
    let raw: string;
    try {
      const out = await simulator.json({
        purpose: "simulator",
        messages: buildSimulatorMessages({
          persona,
          userContext: input.testCase.user_context,
          transcript: simulatorView(state.transcript, input),
          retry: attempt > 0,
        }),
        schemaName: SIMULATOR_SCHEMA_NAME,
        schema: SIMULATOR_SCHEMA,
        timeoutMs: input.callTimeoutMs,
        signal: input.signal,
        onRecord: input.onRecord,
      });
      raw = out.raw;
      state.simulatorPromptTokens += out.usage.prompt_tokens;
      state.simulatorCompletionTokens += out.usage.completion_tokens;
      state.retries += out.retries;
    } catch (err) {
      if (err instanceof LlmError) {
        state.retries += err.retries;
        if (err.type === "aborted") throw new ConversationStop("cancelled", "The run was cancelled");
        throw new ConversationStop(
          "simulator",
          `The simulated user's model failed (${err.type}, ${err.attempts} attempts): ${err.message}`,
        );
      }
      throw new ConversationStop("simulator", err instanceof Error ? err.message : String(err));
    }
    const turn = parseSimulatorTurn(raw);
    if (turn && (turn.should_end || turn.message.trim())) return { ...turn, message: turn.message.trim() };
  }
  throw new ConversationStop("simulator", "The simulated user returned an empty or invalid message twice");
}

/** The first user message carries the case's files (the execution model) in the layout of lib/files/layout.ts. */
function firstUserMessage(text: string, input: ConversationInput): TranscriptMessage {
  if (!input.files) return { role: "user", content: text };
  return { role: "user", content: withAttachedFiles(text, input.files), attachments: input.files.attachments };
}

/**
 * The transcript as the simulated user reads it: its first message names the attached files
 * instead of repeating their content (up to the whole file budget on every simulator call).
 */
function simulatorView(transcript: TranscriptMessage[], input: ConversationInput): TranscriptMessage[] {
  const files = input.files;
  if (!files) return transcript;
  return transcript.map((m) => {
    if (!m.attachments || m.content === null || !m.content.endsWith(files.appendix)) return m;
    const names = m.attachments.map((a) => a.name).join(", ");
    return { role: m.role, content: `${m.content.slice(0, m.content.length - files.appendix.length)}\n\n[Attached files: ${names}]` };
  });
}

function lastReply(state: LoopState): string {
  for (let i = state.transcript.length - 1; i >= 0; i--) {
    const m = state.transcript[i]!;
    if (m.role === "assistant" && m.content !== null) return m.content;
  }
  return "";
}
