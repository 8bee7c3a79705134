// A 429 on a call with a budget is not one of its attempts: the budget holds the next attempt for
// the provider's Retry-After, for as long as the call's allowance lasts; without a budget the
// retry policy's attempts apply as before. Against the fake server, over loopback.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { withFakeOpenAI } from "../helpers/run-stack";
import { fakeEndpoint, gaps } from "../llm/helpers";
import { rejectionOf } from "../helpers/errors";
import { LlmClient } from "@/lib/llm/client";
import { LlmError } from "@/lib/llm/errors";
import type { CallRecord } from "@/lib/llm/types";
import { SharedBudget } from "@/lib/rate-limits/budget";

const fake = withFakeOpenAI();
const ask = { messages: [{ role: "user" as const, content: "hello" }] };

function budget(maxWaitMs = 60_000) {
  return new SharedBudget(
    { key: `client-test:${randomUUID()}`, label: "fake", limits: { rpm: null, tpm: null, maxConcurrency: null } },
    { owner: "this-process", maxWaitMs },
  );
}

describe("429s on a budgeted call", () => {
  it("wait for the provider's Retry-After and do not use up the retry policy's attempts", async () => {
    fake.addRule({ reply: { status: 429, retryAfter: 0.2 }, times: 4 });
    const records: CallRecord[] = [];
    const client = new LlmClient(fakeEndpoint(fake, { budget: budget() }));
    const res = await client.chat(ask, { purpose: "agent", onRecord: (r) => records.push(r) });
    expect(res.message.content).toBe("Fake reply: hello");
    // Five requests, four of them 429s: more than the policy's three attempts.
    expect(fake.requests).toHaveLength(5);
    expect(res.attempts).toBe(5);
    expect(records[0]).toMatchObject({ attempts: 5, attemptErrors: ["rate_limited", "rate_limited", "rate_limited", "rate_limited"] });
    // Each retry waited for the Retry-After (200 ms), read from the fake's own log.
    for (const gap of gaps(fake)) expect(gap).toBeGreaterThanOrEqual(190);
  });

  it("fail as rate limited once the call's allowance is spent", async () => {
    fake.addRule({ reply: { status: 429, retryAfter: 0.3 } });
    const started = performance.now();
    const err = await rejectionOf(new LlmClient(fakeEndpoint(fake, { budget: budget(1_000) })).chat(ask, { purpose: "judge" }), LlmError);
    expect(err.type).toBe("rate_limited");
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(fake.requests.length).toBeGreaterThanOrEqual(3);
  });

  it("without a budget, still count as attempts of the retry policy", async () => {
    fake.addRule({ reply: { status: 429, retryAfter: 0.05 } });
    const err = await rejectionOf(new LlmClient(fakeEndpoint(fake)).chat(ask, { purpose: "agent" }), LlmError);
    expect(err.type).toBe("rate_limited");
    expect(fake.requests).toHaveLength(3);
  });
});
