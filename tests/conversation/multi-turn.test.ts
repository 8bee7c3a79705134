import { beforeEach, describe, expect, it } from "vitest";
import { withFakeOpenAI } from "../helpers/run-stack";
import { fakeEndpoint } from "../llm/helpers";
import { runConversation } from "@/lib/conversation/run-conversation";
import type { ConversationInput } from "@/lib/conversation/types";
import { LlmClient } from "@/lib/llm/client";
import { resetEndpointLimiters } from "@/lib/llm/concurrency";
import type { CallRecord } from "@/lib/llm/types";
import { chatAgent, isAgent, isSimulator, persona, simulatorSays, testCase } from "./helpers";

const fake = withFakeOpenAI();
beforeEach(() => resetEndpointLimiters());

function input(over: Partial<ConversationInput> = {}, caseOver: Parameters<typeof testCase>[0] = {}): ConversationInput {
  return {
    agent: chatAgent(fake),
    testCase: testCase({ persona, initial_message: "Where is my parcel?", ...caseOver }),
    runId: "run-1",
    simulator: new LlmClient(fakeEndpoint(fake, { model: "gpt-4o" })),
    ...over,
  };
}

const userMessages = (r: { transcript: { role: string; content: string | null }[] }) =>
  r.transcript.filter((m) => m.role === "user").map((m) => m.content);

describe("simulated multi-turn conversation", () => {
  it("opens with initial_message and ends when the simulator says should_end", async () => {
    simulatorSays(fake, [{ message: "It was order 1234." }, { message: "", should_end: true, end_reason: "goal reached" }]);
    const res = await runConversation(input());
    expect(res.error).toBeNull();
    expect(res.endReason).toBe("simulator_ended");
    expect(res.endDetail).toBe("goal reached");
    expect(res.turns).toBe(2);
    expect(res.capHit).toBe(false);
    expect(userMessages(res)).toEqual(["Where is my parcel?", "It was order 1234."]);
    expect(res.transcript.map((m) => m.role)).toEqual(["system", "user", "assistant", "user", "assistant"]);
    expect(res.finalResponse).toBe("Fake reply: It was order 1234.");
    expect(fake.requests.filter(isSimulator)).toHaveLength(2);
    expect(res.simulatorPromptTokens).toBeGreaterThan(0);
  });

  it("puts the transcript inside the simulator prompt (no role reversal) with persona and user_context", async () => {
    simulatorSays(fake, [{ message: "", should_end: true, end_reason: "done" }]);
    await runConversation(input({}, { user_context: { order_id: "ORD-77", plan: "gold" } }));
    const sim = fake.requests.find(isSimulator)!.body as { messages: { role: string; content: string }[]; temperature: number };
    expect(sim.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(sim.temperature).toBe(0);
    expect(sim.messages[0]!.content).toContain(persona.description);
    expect(sim.messages[0]!.content).toContain(persona.instructions);
    expect(sim.messages[0]!.content).toContain('"order_id": "ORD-77"');
    expect(sim.messages[1]!.content).toContain("[Turn 1] User: Where is my parcel?");
    expect(sim.messages[1]!.content).toContain("[Turn 1] Assistant: Fake reply: Where is my parcel?");
  });

  it("never shows the simulator the expected outcomes or evaluation criteria", async () => {
    simulatorSays(fake, [{ message: "Any news?" }, { message: "", should_end: true }]);
    const snapshot = {
      ...testCase({ persona, initial_message: "Where is my parcel?" }),
      expected_outcomes: { "Agent offers SECRET-REFUND-7731": true },
      evaluation_criteria_override: "SECRET-CRITERIA-4410",
      expected_tool_calls: [{ tool: "SECRET-TOOL-9920", expected_params: null }],
    };
    await runConversation({ ...input(), testCase: snapshot });
    const simRequests = fake.requests.filter(isSimulator);
    expect(simRequests).toHaveLength(2);
    for (const r of fake.requests) {
      const text = JSON.stringify(r.body);
      expect(text).not.toContain("SECRET-");
    }
  });

  it("lets the simulator write the first message when initial_message is missing", async () => {
    simulatorSays(fake, [{ message: "Hi, my parcel is late." }, { message: "", should_end: true }]);
    const res = await runConversation(input({}, { initial_message: null }));
    expect(userMessages(res)).toEqual(["Hi, my parcel is late."]);
    const first = fake.requests[0]!;
    expect(isSimulator(first)).toBe(true);
    expect(JSON.stringify(first.body)).toContain("has not started yet");
  });

  it("stops at max_turns without asking the simulator after the last turn", async () => {
    simulatorSays(fake, [{ message: "second" }, { message: "third" }, { message: "fourth" }]);
    const res = await runConversation(input({}, { max_turns: 3 }));
    expect(res.endReason).toBe("max_turns");
    expect(res.capHit).toBe(false);
    expect(res.turns).toBe(3);
    expect(userMessages(res)).toEqual(["Where is my parcel?", "second", "third"]);
    expect(fake.requests.filter(isSimulator)).toHaveLength(2);
    expect(fake.requests.filter(isAgent)).toHaveLength(3);
  });

  it("applies the safety cap when max_turns is null and reports it", async () => {
    simulatorSays(fake, [{ message: "two" }, { message: "three" }, { message: "four" }]);
    const res = await runConversation(input({ safetyCap: 3 }));
    expect(res.endReason).toBe("safety_cap");
    expect(res.capHit).toBe(true);
    expect(res.turns).toBe(3);
  });

  it("max_turns null is no cap of the case's own: the simulated user ends it (the test case format)", async () => {
    simulatorSays(fake, [
      { message: "two" },
      { message: "three" },
      { message: "four" },
      { message: "bye", should_end: true, end_reason: "done" },
    ]);
    const res = await runConversation(input({ safetyCap: 30 }, { max_turns: null }));
    expect(res.endReason).toBe("simulator_ended");
    expect(res.capHit).toBe(false);
    expect(res.turns).toBe(4);
  });

  it("the workspace safety cap also bounds a case whose max_turns is higher, reported as the safety cap", async () => {
    simulatorSays(fake, [{ message: "two" }, { message: "three" }, { message: "four" }]);
    const res = await runConversation(input({ safetyCap: 2 }, { max_turns: 50 }));
    expect(res.endReason).toBe("safety_cap");
    expect(res.capHit).toBe(true);
    expect(res.turns).toBe(2);
  });

  it("ends on the token cap", async () => {
    fake.addRule({
      match: { lastUserContains: "Where is my parcel?" },
      reply: { content: "long answer", usage: { prompt_tokens: 700, completion_tokens: 400 } },
      times: 1,
    });
    simulatorSays(fake, [{ message: "more" }]);
    const res = await runConversation(input({ tokenCap: 1000 }));
    expect(res.endReason).toBe("token_cap");
    expect(res.capHit).toBe(true);
    expect(res.turns).toBe(1);
    expect(res.promptTokens).toBe(700);
    expect(res.completionTokens).toBe(400);
  });

  it("detects a user repeating one of its last two messages", async () => {
    simulatorSays(fake, [{ message: "Still waiting." }, { message: "  where is my PARCEL!? " }]);
    const res = await runConversation(input());
    expect(res.endReason).toBe("repetition");
    expect(res.turns).toBe(2);
    expect(userMessages(res)).toEqual(["Where is my parcel?", "Still waiting."]);
  });

  it("retries an empty simulator message once, then ends as a simulator error (not an agent failure)", async () => {
    fake.addRule({ match: { schemaName: "simulator_turn" }, reply: { json: { message: "  ", should_end: false, end_reason: null } } });
    const records: CallRecord[] = [];
    const res = await runConversation(input({ onRecord: (r) => records.push(r) }));
    expect(res.endReason).toBe("error");
    expect(res.error).toMatchObject({ type: "simulator", message: expect.stringMatching(/empty or invalid message twice/) });
    expect(res.turns).toBe(1);
    const sims = fake.requests.filter(isSimulator);
    expect(sims).toHaveLength(2);
    expect(JSON.stringify(sims[1]!.body)).toContain("previous answer was empty");
    expect(records.filter((r) => r.purpose === "simulator")).toHaveLength(2);
    expect(res.finalResponse).toBe("Fake reply: Where is my parcel?");
  });

  it("recovers when only the first simulator answer is empty or invalid", async () => {
    fake.addRule({ match: { schemaName: "simulator_turn" }, reply: { content: "not json at all" }, times: 1 });
    simulatorSays(fake, [{ message: "Order 55." }, { message: "", should_end: true }]);
    const res = await runConversation(input());
    expect(res.error).toBeNull();
    expect(userMessages(res)).toEqual(["Where is my parcel?", "Order 55."]);
  });

  it("reports a failing simulator model as a simulator error", async () => {
    fake.addRule({ match: { schemaName: "simulator_turn" }, reply: { status: 401 } });
    const res = await runConversation(input());
    expect(res.error?.type).toBe("simulator");
    expect(res.turns).toBe(1);
  });

  it("stops between turns when cancelled, without calling the simulator", async () => {
    const controller = new AbortController();
    simulatorSays(fake, [{ message: "next" }]);
    const res = await runConversation(
      input({
        signal: controller.signal,
        onRecord: (r) => {
          if (r.purpose === "agent") controller.abort();
        },
      }),
    );
    expect(res.error?.type).toBe("cancelled");
    expect(res.turns).toBe(1);
    expect(fake.requests.filter(isSimulator)).toHaveLength(0);
  });

  it("ends as a simulator error when no simulator model is given", async () => {
    const res = await runConversation(input({ simulator: null }));
    expect(res.error?.type).toBe("simulator");
    expect(fake.requests).toHaveLength(0);
  });
});
