import { describe, expect, it } from "vitest";
import { startFakeOpenAI } from "../fake-openai/server";
import { withFakeOpenAI } from "../helpers/run-stack";
import { LlmClient } from "@/lib/llm/client";
import { LlmError } from "@/lib/llm/errors";
import type { CallRecord } from "@/lib/llm/types";
import { fakeEndpoint, gaps } from "./helpers";
import { rejectionOf } from "../helpers/errors";

const fake = withFakeOpenAI();

const ask = { messages: [{ role: "user" as const, content: "hello" }] };

/** The LlmError `p` rejects with. */
const failure = (p: Promise<unknown>) => rejectionOf(p, LlmError);

/** A chat call whose caller aborts it after `abortAfterMs`: the LlmError it fails with, and how long it took. */
async function chatAbortedAfter(abortAfterMs: number): Promise<{ err: LlmError; ms: number }> {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), abortAfterMs);
  const started = performance.now();
  const err = await failure(new LlmClient(fakeEndpoint(fake)).chat(ask, { purpose: "agent", signal: controller.signal }));
  return { err, ms: performance.now() - started };
}

describe("LlmClient retry policy", () => {
  it("backs off 100 ms then 200 ms between attempts on 5xx, and succeeds on the third", async () => {
    const client = new LlmClient(fakeEndpoint(fake));
    await client.chat(ask, { purpose: "agent" }); // warm up the connection and code paths
    fake.reset();
    fake.addRule({ reply: { status: 500 }, times: 2 });
    const records: CallRecord[] = [];
    const res = await client.chat(ask, { purpose: "agent", onRecord: (r) => records.push(r) });
    expect(res.message.content).toBe("Fake reply: hello");
    expect(res.attempts).toBe(3);
    expect(fake.requests).toHaveLength(3);
    const [first, second] = gaps(fake);
    // 100 ms then 200 ms, read from the fake's own request log: never shorter than the backoff,
    // and the first shorter than the second's backoff, the second shorter than a third doubling
    // (the bounds tell the policy apart; how long a loaded machine adds is not the test's business).
    expect(first).toBeGreaterThanOrEqual(95);
    expect(first).toBeLessThan(195);
    expect(second).toBeGreaterThanOrEqual(195);
    expect(second).toBeLessThan(395);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      attempts: 3,
      retries: 2,
      attemptErrors: ["server_error", "server_error"],
      error: null,
      errorType: null,
    });
  });

  it("gives up after 3 attempts on persistent 5xx with error type server_error", async () => {
    fake.addRule({ reply: { status: 503 } });
    const records: CallRecord[] = [];
    const err = await failure(new LlmClient(fakeEndpoint(fake)).chat(ask, { purpose: "judge", onRecord: (r) => records.push(r) }));
    expect(err.type).toBe("server_error");
    expect(err.attempts).toBe(3);
    expect(err.status).toBe(503);
    expect(fake.requests).toHaveLength(3);
    expect(records[0]).toMatchObject({ errorType: "server_error", attempts: 3, status: 503 });
    expect(records[0]!.response).toContain("server had an error");
  });

  it("honours Retry-After on 429", async () => {
    fake.addRule({ reply: { status: 429, retryAfter: 1 }, times: 1 });
    const res = await new LlmClient(fakeEndpoint(fake)).chat(ask, { purpose: "agent" });
    expect(res.attempts).toBe(2);
    const [gap] = gaps(fake);
    // The server's 1 s, not the 100 ms default backoff nor a doubled 2 s.
    expect(gap).toBeGreaterThanOrEqual(990);
    expect(gap).toBeLessThan(1990);
  });

  it.each([400, 401, 404])("does not retry a %i", async (status) => {
    fake.addRule({ reply: { status } });
    const err = await failure(new LlmClient(fakeEndpoint(fake)).chat(ask, { purpose: "agent" }));
    expect(err.type).toBe("client_error");
    expect(err.attempts).toBe(1);
    expect(fake.requests).toHaveLength(1);
  });

  it("treats a garbled 200 as invalid_response and retries it", async () => {
    fake.addRule({ reply: { garbled: true }, times: 1 });
    const records: CallRecord[] = [];
    const res = await new LlmClient(fakeEndpoint(fake)).chat(ask, { purpose: "agent", onRecord: (r) => records.push(r) });
    expect(res.message.content).toBe("Fake reply: hello");
    expect(records[0]!.attemptErrors).toEqual(["invalid_response"]);

    fake.reset();
    fake.addRule({ reply: { garbled: true } });
    const err = await failure(new LlmClient(fakeEndpoint(fake)).chat(ask, { purpose: "agent" }));
    expect(err.type).toBe("invalid_response");
    expect(err.attempts).toBe(3);
  });

  it("times out each attempt, retries, then fails with error type timeout", async () => {
    fake.addRule({ reply: { hang: true } });
    const records: CallRecord[] = [];
    const started = performance.now();
    const err = await failure(
      new LlmClient(fakeEndpoint(fake)).chat(ask, { purpose: "agent", timeoutMs: 150, onRecord: (r) => records.push(r) }),
    );
    const elapsed = performance.now() - started;
    expect(err.type).toBe("timeout");
    expect(err.attempts).toBe(3);
    expect(fake.requests).toHaveLength(3);
    // 3 × 150 ms attempts + 100 + 200 ms backoff; far below the default 30 s timeout per attempt
    expect(elapsed).toBeGreaterThanOrEqual(740);
    expect(elapsed).toBeLessThan(5_000);
    expect(records[0]).toMatchObject({ errorType: "timeout", attemptErrors: ["timeout", "timeout", "timeout"], response: null });
  });

  it("recovers when a slow first attempt times out and the retry is fast", async () => {
    fake.addRule({ reply: { delayMs: 1000 }, times: 1 });
    const res = await new LlmClient(fakeEndpoint(fake)).chat(ask, { purpose: "agent", timeoutMs: 200 });
    expect(res.attempts).toBe(2);
    expect(res.message.content).toBe("Fake reply: hello");
  });

  it("stops at once without retry when the external signal aborts", async () => {
    fake.addRule({ reply: { hang: true } });
    const { err, ms } = await chatAbortedAfter(100);
    expect(err.type).toBe("aborted");
    // At once: the fake never answers, so only the abort can end the call this soon.
    expect(ms).toBeLessThan(5_000);
    expect(err.attempts).toBe(1);
    await new Promise((r) => setTimeout(r, 200));
    expect(fake.requests).toHaveLength(1);
  });

  it("aborts during backoff without another attempt", async () => {
    fake.addRule({ reply: { status: 429, retryAfter: 5 } });
    const { err, ms } = await chatAbortedAfter(150);
    expect(err.type).toBe("aborted");
    // Well before the 5 s Retry-After the backoff would otherwise sleep.
    expect(ms).toBeLessThan(4_000);
    expect(fake.requests).toHaveLength(1);
  });

  it("reports a connection error (retried) when nothing listens", async () => {
    const closed = await startFakeOpenAI();
    const endpoint = fakeEndpoint(closed);
    await closed.close();
    const err = await failure(new LlmClient(endpoint).chat(ask, { purpose: "agent" }));
    expect(err.type).toBe("connection");
    expect(err.attempts).toBe(3);
  });

  it("refuses a blocked address without retrying", async () => {
    const endpoint = { ...fakeEndpoint(fake), baseUrl: "http://169.254.169.254/v1" };
    const err = await failure(new LlmClient(endpoint).chat(ask, { purpose: "agent" }));
    expect(err.type).toBe("client_error");
    expect(err.attempts).toBe(1);
    expect(err.message).toMatch(/refused: cloud metadata address/);
  });
});
