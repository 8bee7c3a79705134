import type { FakeOpenAI, RecordedRequest } from "../fake-openai/server";
import { fakeEndpoint } from "../llm/helpers";
import type { AgentRuntime, AgentTool, ConversationCase } from "@/lib/conversation/types";
import type { Endpoint } from "@/lib/llm/types";

export function chatAgent(
  fake: FakeOpenAI,
  over: {
    systemPrompt?: string | null;
    tools?: AgentTool[];
    endpoint?: Partial<Endpoint>;
    temperature?: number | null;
    maxTokens?: number | null;
  } = {},
): Extract<AgentRuntime, { kind: "chat" }> {
  return {
    kind: "chat",
    endpoint: fakeEndpoint(fake, over.endpoint),
    systemPrompt: over.systemPrompt === undefined ? "You are a helpful support agent." : over.systemPrompt,
    tools: over.tools ?? [],
    temperature: over.temperature,
    maxTokens: over.maxTokens,
  };
}

export function tool(name: string, mock_response: unknown): AgentTool {
  return { name, description: `The ${name} tool`, parameters: { type: "object", properties: {} }, mock_response };
}

export function testCase(over: Partial<ConversationCase> = {}): ConversationCase {
  return {
    id: "00000000-0000-4000-8000-000000000001",
    name: "A case",
    persona: null,
    initial_message: "Hello there",
    user_context: null,
    max_turns: null,
    ...over,
  };
}

export const persona = {
  type: "frustrated-customer",
  description: "A customer whose parcel is two weeks late.",
  instructions: "Be short and impatient. Ask where the parcel is.",
};

/** Simulator rules answering, in order, with these turns (each used once). */
export function simulatorSays(fake: FakeOpenAI, turns: { message: string; should_end?: boolean; end_reason?: string | null }[]) {
  for (const t of turns) {
    fake.addRule({
      match: { schemaName: "simulator_turn" },
      reply: { json: { message: t.message, should_end: t.should_end ?? false, end_reason: t.end_reason ?? null } },
      times: 1,
    });
  }
}

export const isSimulator = (r: RecordedRequest) =>
  (r.body as { response_format?: { json_schema?: { name?: string } } })?.response_format?.json_schema?.name === "simulator_turn";
export const isAgent = (r: RecordedRequest) => r.endpoint === "chat" && !isSimulator(r);
