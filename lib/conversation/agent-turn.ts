import "server-only";
import type { ChatCompletionFunctionTool, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { LlmClient } from "@/lib/llm/client";
import type { ImagePart } from "@/lib/files/types";
import { LlmError } from "@/lib/llm/errors";
import { callHttpAgent } from "./http-agent";
import { answerToolCall, toolCallRecord } from "./mock-tools";
import type { AgentRuntime, ConversationErrorType, ConversationInput, ConversationToolCall, TranscriptMessage } from "./types";

/** Ends the conversation with an error of the given type. */
export class ConversationStop extends Error {
  constructor(
    readonly type: ConversationErrorType,
    message: string,
  ) {
    super(message);
    this.name = "ConversationStop";
  }
}

/** Mutable totals of one conversation. */
export type LoopState = {
  transcript: TranscriptMessage[];
  toolCalls: ConversationToolCall[];
  promptTokens: number;
  completionTokens: number;
  simulatorPromptTokens: number;
  simulatorCompletionTokens: number;
  agentLatencyMs: number;
  turnLatenciesMs: number[];
  retries: number;
};

export type AgentTurnOutcome = { reply: string; end: boolean };

/** Maps a failed agent call: timeouts and cancellation keep their type, anything else is an agent failure. */
export function agentFailure(err: unknown): ConversationStop {
  if (err instanceof ConversationStop) return err;
  if (err instanceof LlmError) {
    if (err.type === "aborted") return new ConversationStop("cancelled", "The run was cancelled");
    if (err.type === "timeout")
      return new ConversationStop("timeout", `The agent did not answer in time (${err.attempts} attempts): ${err.message}`);
    return new ConversationStop("agent", `The agent call failed (${err.type}, ${err.attempts} attempts): ${err.message}`);
  }
  return new ConversationStop("agent", err instanceof Error ? err.message : String(err));
}

/**
 * The transcript as OpenAI chat messages. `images` (the execution model image files, for vision models)
 * become `image_url` parts of the first user message that carries attachments, after its text:
 * the stored transcript keeps text only, the data URLs exist only in the request.
 */
export function toChatMessages(transcript: TranscriptMessage[], images: ImagePart[] = []): ChatCompletionMessageParam[] {
  let imagesSent = images.length === 0;
  return transcript.map((m): ChatCompletionMessageParam => {
    switch (m.role) {
      case "system":
        return { role: "system", content: m.content ?? "" };
      case "user":
        if (!imagesSent && m.attachments) {
          imagesSent = true;
          return {
            role: "user",
            content: [
              { type: "text", text: m.content ?? "" },
              ...images.map((img) => ({ type: "image_url" as const, image_url: { url: img.dataUrl, detail: "auto" as const } })),
            ],
          };
        }
        return { role: "user", content: m.content ?? "" };
      case "tool":
        return { role: "tool", tool_call_id: m.tool_call_id ?? "", content: m.content ?? "" };
      case "assistant":
        return {
          role: "assistant",
          content: m.content,
          ...(m.tool_calls && m.tool_calls.length > 0
            ? {
                tool_calls: m.tool_calls.map((c) => ({
                  id: c.id,
                  type: "function" as const,
                  function: { name: c.name, arguments: c.arguments },
                })),
              }
            : {}),
        };
    }
  });
}

type ChatRuntime = Extract<AgentRuntime, { kind: "chat" }>;
type HttpRuntime = Extract<AgentRuntime, { kind: "http" }>;

/**
 * One agent turn of a chat agent: call the model; answer every tool call with its mock
 * response (a `tool` message carrying the call id) and call again, at most `maxToolRounds`
 * rounds; the turn ends with a reply without tool calls.
 */
export async function chatAgentTurn(
  runtime: ChatRuntime,
  client: LlmClient,
  input: ConversationInput,
  state: LoopState,
  maxToolRounds: number,
): Promise<AgentTurnOutcome> {
  const tools: ChatCompletionFunctionTool[] = runtime.tools.map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
  for (let round = 0; ; round++) {
    if (input.signal?.aborted) throw new ConversationStop("cancelled", "The run was cancelled");
    let res;
    try {
      res = await client.chat(
        {
          messages: toChatMessages(state.transcript, input.files?.images),
          tools,
          temperature: runtime.temperature ?? undefined,
          max_tokens: runtime.maxTokens ?? undefined,
        },
        { purpose: "agent", timeoutMs: input.callTimeoutMs, signal: input.signal, onRecord: input.onRecord },
      );
    } catch (err) {
      if (err instanceof LlmError) state.retries += err.retries;
      throw agentFailure(err);
    }
    state.promptTokens += res.usage.prompt_tokens;
    state.completionTokens += res.usage.completion_tokens;
    state.agentLatencyMs += res.latencyMs;
    state.retries += res.retries;
    const calls = res.message.tool_calls;
    state.transcript.push({
      role: "assistant",
      content: res.message.content ?? (calls.length === 0 ? (res.message.refusal ?? "") : null),
      ...(calls.length > 0 ? { tool_calls: calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })) } : {}),
    });
    if (calls.length === 0) return { reply: res.message.content ?? res.message.refusal ?? "", end: false };
    if (round >= maxToolRounds) {
      for (const c of calls) state.toolCalls.push(toolCallRecord(c, "not answered: too many tool rounds"));
      throw new ConversationStop("agent", `The agent made too many tool rounds (more than ${maxToolRounds} in one turn)`);
    }
    for (const c of calls) {
      const answer = answerToolCall(runtime.tools, c);
      state.toolCalls.push(toolCallRecord(c, answer.error));
      state.transcript.push({ role: "tool", tool_call_id: c.id, name: c.name, content: answer.content });
    }
  }
}

/** One agent turn of an HTTP agent: POST the conversation, record its reply and reported tool calls. */
export async function httpAgentTurn(runtime: HttpRuntime, input: ConversationInput, state: LoopState): Promise<AgentTurnOutcome> {
  if (input.signal?.aborted) throw new ConversationStop("cancelled", "The run was cancelled");
  let out;
  try {
    out = await callHttpAgent({
      url: runtime.url,
      headers: runtime.headers,
      timeoutMs: runtime.timeoutMs,
      body: {
        messages: state.transcript.filter((m) => m.role !== "system"),
        variables: input.variables ?? {},
        test_case: { id: input.testCase.id, name: input.testCase.name },
        run_id: input.runId,
        ...(input.files ? { files: input.files.httpFiles } : {}),
      },
      signal: input.signal,
      onRecord: input.onRecord,
      fetch: input.fetch,
      retryPolicy: input.retryPolicy,
      budget: runtime.budget,
    });
  } catch (err) {
    if (err instanceof LlmError) state.retries += err.retries;
    throw agentFailure(err);
  }
  const { response } = out;
  state.promptTokens += response.usage?.prompt_tokens ?? 0;
  state.completionTokens += response.usage?.completion_tokens ?? 0;
  state.agentLatencyMs += out.latencyMs;
  state.retries += out.attempts - 1;
  const calls = (response.tool_calls ?? []).map((c, i) => ({
    id: `http_call_${state.transcript.length}_${i + 1}`,
    name: c.name,
    arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? {}),
    result: c.result,
  }));
  if (calls.length > 0) {
    state.transcript.push({
      role: "assistant",
      content: null,
      tool_calls: calls.map(({ id, name, arguments: a }) => ({ id, name, arguments: a })),
    });
    for (const c of calls) {
      state.toolCalls.push(toolCallRecord(c, null));
      if (c.result !== undefined) {
        state.transcript.push({
          role: "tool",
          tool_call_id: c.id,
          name: c.name,
          content: typeof c.result === "string" ? c.result : JSON.stringify(c.result),
        });
      }
    }
  }
  state.transcript.push({ role: "assistant", content: response.reply });
  return { reply: response.reply, end: response.end === true };
}
