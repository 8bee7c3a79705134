// The fake's provider budget: continuous token buckets (fake clock), OpenAI's headers and reset
// format, and the server answering 429 past the budget, over loopback (127.0.0.1 only).
import { spawn } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { formatDuration, ProviderBudget, type Admission, type RateLimit } from "./rate-limit";
import { startFakeOpenAI, type FakeOpenAI } from "./server";

/** A budget on a clock the test moves (ms). */
function clocked(limit: RateLimit) {
  const clock = { now: 0 };
  return { clock, budget: new ProviderBudget(limit, () => clock.now) };
}

const refused = (a: Admission) => {
  if (a.admitted) throw new Error("expected a refusal");
  return a;
};

describe("ProviderBudget: buckets", () => {
  it("admits a burst of the bucket's size, then one request per refill interval", () => {
    const { clock, budget } = clocked({ rpm: 120 }); // 2 a second, burst 2
    expect(budget.admit(1).admitted).toBe(true);
    expect(budget.admit(1).admitted).toBe(true);
    const third = refused(budget.admit(1));
    expect(third).toMatchObject({ limit: "requests", retryAfterMs: 500 });
    expect(third.headers).toEqual({
      "retry-after-ms": "500",
      "retry-after": "1",
      "x-ratelimit-limit-requests": "120",
      "x-ratelimit-remaining-requests": "0",
      "x-ratelimit-reset-requests": "1s",
    });
    clock.now = 499;
    expect(refused(budget.admit(1)).retryAfterMs).toBe(1);
    clock.now = 500;
    expect(budget.admit(1).admitted).toBe(true);
  });

  it("holds at least one request, and burstSeconds of the limit, never more than it holds full", () => {
    const slow = clocked({ rpm: 30 }); // 0.5 a second: the bucket still holds 1
    expect(slow.budget.admit(0).admitted).toBe(true);
    expect(refused(slow.budget.admit(0)).retryAfterMs).toBe(2000);

    const { clock, budget } = clocked({ rpm: 600, burstSeconds: 0.5 }); // 5 at once, 10 a second
    for (let i = 0; i < 5; i++) expect(budget.admit(0).admitted).toBe(true);
    expect(budget.admit(0).admitted).toBe(false);
    clock.now = 60_000; // a minute idle refills to the capacity, not beyond
    expect(budget.levels()).toEqual({ requests: 5, tokens: null });
    for (let i = 0; i < 5; i++) expect(budget.admit(0).admitted).toBe(true);
    expect(budget.admit(0).admitted).toBe(false);
  });

  it("lets the token bucket go into debt, refuses until it is above 0 again, and waiting retry-after-ms is enough", () => {
    const { clock, budget } = clocked({ tpm: 600 }); // 10 tokens a second, holds 10
    expect(budget.admit(25).admitted).toBe(true); // 10 - 25 = -15
    expect(budget.levels().tokens).toBe(-15);
    const next = refused(budget.admit(1));
    expect(next.limit).toBe("tokens");
    expect(next.retryAfterMs).toBe(1501); // at 1500 ms the bucket is at 0: not yet above it
    expect(next.headers).toMatchObject({ "retry-after": "2", "x-ratelimit-remaining-tokens": "0", "x-ratelimit-reset-tokens": "2.5s" });
    expect(next.headers).not.toHaveProperty("x-ratelimit-limit-requests");
    clock.now = 1500;
    expect(budget.admit(1).admitted).toBe(false);
    clock.now = 1501;
    expect(budget.admit(1).admitted).toBe(true);
  });

  it("admits while any token is left, whatever the request costs", () => {
    const { budget } = clocked({ tpm: 600 });
    expect(budget.admit(10).admitted).toBe(true); // exactly empty: 0 is not > 0
    expect(budget.admit(0).admitted).toBe(false);
    const other = clocked({ tpm: 600 }).budget;
    expect(other.admit(9).admitted).toBe(true); // 1 left
    expect(other.admit(500).admitted).toBe(true); // admitted, deep in debt
    expect(other.levels().tokens).toBe(-499);
  });

  it("names the limit that holds the request longest and waits for both", () => {
    const { clock, budget } = clocked({ rpm: 60, tpm: 60 }); // 1 request and 1 token a second
    expect(budget.admit(10).admitted).toBe(true); // requests 0, tokens -9
    const both = refused(budget.admit(1));
    expect(both).toMatchObject({ limit: "tokens", retryAfterMs: 9001 });
    clock.now = 1000; // the request bucket is back, the tokens are not
    expect(refused(budget.admit(1)).limit).toBe("tokens");
    clock.now = 9001;
    expect(budget.admit(1).admitted).toBe(true);
    const requestsOnly = clocked({ rpm: 60, tpm: 6000 }).budget;
    requestsOnly.admit(1);
    expect(refused(requestsOnly.admit(1))).toMatchObject({ limit: "requests", retryAfterMs: 1000 });
  });

  it("sends the limit headers after the deduction on admitted requests, only for the limits that are set", () => {
    const { budget } = clocked({ rpm: 120, tpm: 600 });
    const first = budget.admit(4);
    expect(first).toEqual({
      admitted: true,
      headers: {
        "x-ratelimit-limit-requests": "120",
        "x-ratelimit-remaining-requests": "1",
        "x-ratelimit-reset-requests": "500ms",
        "x-ratelimit-limit-tokens": "600",
        "x-ratelimit-remaining-tokens": "6",
        "x-ratelimit-reset-tokens": "400ms",
      },
    });
    expect(Object.keys(clocked({ tpm: 600 }).budget.admit(1).headers)).toEqual([
      "x-ratelimit-limit-tokens",
      "x-ratelimit-remaining-tokens",
      "x-ratelimit-reset-tokens",
    ]);
  });

  it("rounds Retry-After up to whole seconds", () => {
    const { budget } = clocked({ rpm: 0.5 }); // one request every 2 minutes
    budget.admit(0);
    const next = refused(budget.admit(0));
    expect(next.headers).toMatchObject({ "retry-after-ms": "120000", "retry-after": "120", "x-ratelimit-reset-requests": "2m0s" });
    const { clock, budget: b } = clocked({ rpm: 60 });
    b.admit(0);
    clock.now = 0.4;
    expect(refused(b.admit(0)).headers).toMatchObject({ "retry-after-ms": "1000", "retry-after": "1" });
    clock.now = 999.5;
    expect(refused(b.admit(0)).headers).toMatchObject({ "retry-after-ms": "1", "retry-after": "1" });
  });

  it("admits a refused request once its retryAfterMs has passed, and not 1 ms before (random limits and costs)", () => {
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let trial = 0; trial < 2_000; trial++) {
      const limit = { rpm: 1 + random() * 5_000, tpm: 10 + random() * 200_000, burstSeconds: 0.1 + random() * 3 };
      const { clock, budget } = clocked(limit);
      let admission = budget.admit(random() * 3 * limit.tpm);
      while (admission.admitted) {
        clock.now += random() * 50;
        admission = budget.admit(random() * 0.2 * limit.tpm);
      }
      const waitMs = admission.retryAfterMs;
      const at = clock.now;
      if (waitMs > 1) {
        clock.now = at + waitMs - 1;
        expect(budget.admit(0).admitted, JSON.stringify({ limit, waitMs })).toBe(false);
      }
      clock.now = at + waitMs;
      expect(budget.admit(0).admitted, JSON.stringify({ limit, waitMs })).toBe(true);
    }
  });

  it("refuses limits that are not positive finite numbers", () => {
    for (const bad of [{ rpm: 0 }, { tpm: -1 }, { rpm: Number.NaN }, { rpm: Infinity }, { rpm: 60, burstSeconds: 0 }]) {
      expect(() => new ProviderBudget(bad)).toThrow(RangeError);
    }
    expect(new ProviderBudget({}).admit(1_000_000)).toEqual({ admitted: true, headers: {} });
  });
});

describe("formatDuration", () => {
  it("writes reset durations as OpenAI does (Go durations, rounded up to the ms)", () => {
    expect(formatDuration(0)).toBe("0s");
    expect(formatDuration(0.2)).toBe("1ms");
    expect(formatDuration(6)).toBe("6ms");
    expect(formatDuration(120)).toBe("120ms");
    expect(formatDuration(999.5)).toBe("1s");
    expect(formatDuration(1000)).toBe("1s");
    expect(formatDuration(1500)).toBe("1.5s");
    expect(formatDuration(59_995)).toBe("59.995s");
    expect(formatDuration(59_999.5)).toBe("1m0s");
    expect(formatDuration(360_000)).toBe("6m0s");
    expect(formatDuration(359_600)).toBe("5m59.6s");
    expect(formatDuration(3_723_500)).toBe("1h2m3.5s");
  });
});

describe("the server's provider budget", () => {
  let fake: FakeOpenAI | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });
  const start = async (limit?: RateLimit, latencyMs = 0) => {
    fake = await startFakeOpenAI({ latencyMs, ...(limit ? { rateLimit: limit } : {}) });
    return fake;
  };
  const base = (f: FakeOpenAI) => f.url.replace(/\/v1$/, "");
  const post = (url: string, body: unknown) =>
    fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const chat = (f: FakeOpenAI, content = "hi", model = "gpt-4o-mini") =>
    post(`${f.url}/chat/completions`, { model, messages: [{ role: "user", content }] });
  const embed = (f: FakeOpenAI) => post(`${f.url}/embeddings`, { model: "text-embedding-3-small", input: "hi" });
  type ErrorJson = { error: { message: string; type: string; code: string | null } };
  const errorOf = async (res: Response) => ((await res.json()) as ErrorJson).error;
  const stats = async (f: FakeOpenAI) => (await (await fetch(`${base(f)}/__fake/stats`)).json()) as { rateLimited: number };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("admits a burst of 2 at 120 rpm, answers the 3rd 429 with OpenAI's headers, and admits after retry-after-ms", async () => {
    const f = await start({ rpm: 120 });
    const burst = await Promise.all([chat(f), chat(f), chat(f)]);
    expect(burst.map((r) => r.status).sort()).toEqual([200, 200, 429]);
    const ok = burst.find((r) => r.status === 200)!;
    expect(ok.headers.get("x-ratelimit-limit-requests")).toBe("120");
    expect(ok.headers.get("x-ratelimit-reset-requests")).toMatch(/^\d+(\.\d+)?(ms|s)$/);
    const limited = burst.find((r) => r.status === 429)!;
    const retryMs = Number(limited.headers.get("retry-after-ms"));
    expect(Number.isInteger(retryMs)).toBe(true);
    expect(retryMs).toBeGreaterThanOrEqual(1);
    expect(retryMs).toBeLessThanOrEqual(500);
    expect(limited.headers.get("retry-after")).toBe("1");
    expect(limited.headers.get("x-ratelimit-limit-requests")).toBe("120");
    expect(limited.headers.get("x-ratelimit-remaining-requests")).toBe("0");
    expect(limited.headers.get("x-ratelimit-reset-requests")).toMatch(/^\d+(\.\d+)?(ms|s)$/);
    expect(limited.headers.get("x-ratelimit-limit-tokens")).toBeNull();
    const error = await errorOf(limited);
    expect(error).toMatchObject({ type: "requests", code: "rate_limit_exceeded" });
    expect(error.message).toMatch(
      /^Rate limit reached for requests per min \(RPM\) on gpt-4o-mini .*Limit 120\. Please try again in \d+ms\.$/,
    );
    await sleep(retryMs);
    expect((await chat(f)).status).toBe(200);
    expect(f.rateLimited()).toBe(1);
    expect((await stats(f)).rateLimited).toBe(1);
    expect(f.requests.map((r) => r.status).sort()).toEqual([200, 200, 200, 429]);
  });

  it("refuses at once, without the latency, and the refused request is recorded with its status", async () => {
    const f = await start({ rpm: 60 }); // holds 1
    expect((await chat(f)).status).toBe(200);
    f.setLatency(5_000);
    const started = performance.now();
    expect((await chat(f)).status).toBe(429);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(f.requests.map((r) => r.status)).toEqual([200, 429]);
    expect(f.requests[1]!.respondedAt).toBeGreaterThanOrEqual(f.requests[1]!.at);
  });

  it("takes the tokens the answers report, and a tokens refusal says so", async () => {
    const f = await start({ tpm: 60 }); // 1 token a second, holds 1
    const first = await chat(f); // "hi" → "Fake reply: hi": 1 + 3 tokens, 3 in debt
    expect(first.status).toBe(200);
    expect(first.headers.get("x-ratelimit-remaining-tokens")).toBe("0");
    expect(first.headers.get("x-ratelimit-reset-tokens")).toMatch(/^(4|3\.9\d*)s$/);
    expect(first.headers.get("x-ratelimit-limit-requests")).toBeNull();
    const second = await chat(f);
    expect(second.status).toBe(429);
    expect(Number(second.headers.get("retry-after-ms"))).toBeGreaterThan(2_900);
    expect(second.headers.get("retry-after")).toMatch(/^[34]$/);
    expect(second.headers.get("x-ratelimit-limit-tokens")).toBe("60");
    const error = await errorOf(second);
    expect(error.type).toBe("tokens");
    expect(error.message).toContain("Rate limit reached for tokens per min (TPM)");
  });

  it("holds one budget for every model and for embeddings, and leaves /v1/models alone", async () => {
    const f = await start({ rpm: 60 });
    expect((await embed(f)).status).toBe(200);
    expect((await chat(f, "hi", "gpt-4o")).status).toBe(429);
    expect((await embed(f)).status).toBe(429);
    for (let i = 0; i < 3; i++) expect((await fetch(`${f.url}/models`)).status).toBe(200);
    expect(f.rateLimited()).toBe(2);
  });

  it("checks the budget before the rules: a refusal uses up no rule, scripted 429s are not counted, scripted errors take no tokens", async () => {
    const f = await start({ rpm: 60, tpm: 6_000 });
    f.addRule({ match: { lastUserContains: "refund" }, reply: { content: "Scripted" }, times: 1 });
    f.addRule({
      match: { lastUserContains: "busy" },
      reply: { status: 429, retryAfter: 7, usage: { prompt_tokens: 500, completion_tokens: 500 } },
    });
    expect((await chat(f, "busy")).status).toBe(429); // scripted, admitted by the budget
    expect(f.rateLimited()).toBe(0);
    const refusedRefund = await chat(f, "refund");
    expect(refusedRefund.status).toBe(429);
    expect(refusedRefund.headers.get("retry-after")).toBe("1");
    expect(f.rateLimited()).toBe(1);
    await sleep(Number(refusedRefund.headers.get("retry-after-ms")));
    const admitted = await chat(f, "refund");
    expect(admitted.status).toBe(200);
    expect(((await admitted.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe("Scripted");
    // The scripted 429 took a request but none of its 1,000 tokens: 100 − 2 ("refund" → "Scripted") are left.
    expect(admitted.headers.get("x-ratelimit-remaining-tokens")).toBe("98");
  });

  it("is set, read, validated and cleared over /__fake/rate-limit, and reset() restores the start-up budget", async () => {
    const f = await start();
    const control = `${base(f)}/__fake/rate-limit`;
    for (const bad of [{ rpm: 0 }, { rpm: "60" }, { tpm: -5 }, { rpm: 60, burst_seconds: 0 }, {}, [60], null]) {
      const res = await post(control, bad);
      expect(res.status).toBe(400);
      expect(await errorOf(res)).toMatchObject({ type: "invalid_request_error", message: expect.any(String) });
    }
    expect((await fetch(control, { method: "POST", body: "{nope" })).status).toBe(400);
    expect(await (await fetch(control)).json()).toEqual({ rateLimit: null, levels: null });
    const set = await post(control, { rpm: 60, burst_seconds: 2 });
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({ ok: true, rpm: 60, burstSeconds: 2 });
    expect(await (await fetch(control)).json()).toMatchObject({ rateLimit: { rpm: 60, burstSeconds: 2 }, levels: { tokens: null } });
    expect((await chat(f)).status).toBe(200);
    expect((await chat(f)).status).toBe(200); // 2 seconds' worth
    expect((await chat(f)).status).toBe(429);
    expect((await stats(f)).rateLimited).toBe(1);
    expect((await fetch(control, { method: "DELETE" })).status).toBe(200);
    const free = await chat(f);
    expect(free.status).toBe(200);
    expect(free.headers.get("x-ratelimit-limit-requests")).toBeNull();
    f.setRateLimit({ tpm: 1 });
    expect((await chat(f)).status).toBe(200);
    expect((await chat(f)).status).toBe(429);
    f.reset(); // started without a budget: none again, counters cleared
    expect(f.rateLimited()).toBe(0);
    expect((await stats(f)).rateLimited).toBe(0);
    for (let i = 0; i < 3; i++) expect((await chat(f)).status).toBe(200);
  });

  it("reset() and the control API's rules DELETE bring back the start-up budget, with full buckets", async () => {
    const f = await start({ rpm: 60 });
    expect((await chat(f)).status).toBe(200);
    expect((await chat(f)).status).toBe(429);
    f.setRateLimit(null);
    expect((await chat(f)).status).toBe(200);
    f.reset();
    expect(f.rateLimited()).toBe(0);
    expect((await chat(f)).status).toBe(200);
    expect((await chat(f)).status).toBe(429);
    expect((await fetch(`${base(f)}/__fake/rules`, { method: "DELETE" })).status).toBe(200);
    expect((await stats(f)).rateLimited).toBe(0);
    expect((await chat(f)).status).toBe(200);
  });

  it("refuses an invalid budget in process", async () => {
    await expect(startFakeOpenAI({ rateLimit: { rpm: 0 } })).rejects.toThrow(RangeError);
    const f = await start();
    expect(() => f.setRateLimit({ tpm: Number.NaN })).toThrow(RangeError);
  });

  it("takes the budget from cli.ts flags", async () => {
    const cli = path.join(import.meta.dirname, "cli.ts");
    const child = spawn(process.execPath, ["--import", "tsx", cli, "--port", "0", "--rpm", "60", "--tpm", "6000"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (d: Buffer) => resolve(d.toString().trim()));
        child.on("exit", (code) => reject(new Error(`cli exited with ${code}`)));
      });
      const res = await post(`${url}/chat/completions`, { model: "m", messages: [{ role: "user", content: "hi" }] });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit-requests")).toBe("60");
      expect(res.headers.get("x-ratelimit-limit-tokens")).toBe("6000");
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
    const bad = spawn(process.execPath, ["--import", "tsx", cli, "--port", "0", "--rpm", "0"], { stdio: "ignore" });
    expect(await new Promise<number | null>((resolve) => bad.on("exit", resolve))).toBe(2);
  });
});
