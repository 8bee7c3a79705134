// The fake's provider budget: continuous token buckets (fake clock), OpenAI's headers and reset
// format, and the server answering 429 past the budget, over loopback.
import { describe, expect, it } from "vitest";
import { formatDuration, ProviderBudget } from "./rate-limit";
import { startFakeOpenAI } from "./server";

describe("ProviderBudget", () => {
  it("admits a burst of the bucket's size, then one request per refill interval", () => {
    let now = 0;
    const budget = new ProviderBudget({ rpm: 120 }, () => now); // 2 a second, burst 2
    expect(budget.admit(1).admitted).toBe(true);
    expect(budget.admit(1).admitted).toBe(true);
    const refused = budget.admit(1);
    expect(refused).toMatchObject({ admitted: false, limit: "requests" });
    expect(refused.headers).toMatchObject({
      "retry-after-ms": "500",
      "retry-after": "1",
      "x-ratelimit-limit-requests": "120",
      "x-ratelimit-remaining-requests": "0",
      "x-ratelimit-reset-requests": "1s",
    });
    now = 499;
    expect(budget.admit(1).admitted).toBe(false);
    now = 500;
    expect(budget.admit(1).admitted).toBe(true);
  });

  it("lets the token bucket go into debt, then refuses until it is paid back", () => {
    let now = 0;
    const budget = new ProviderBudget({ tpm: 600 }, () => now); // 10 tokens a second
    expect(budget.admit(25).admitted).toBe(true); // 10 - 25 = -15
    const refused = budget.admit(1);
    expect(refused).toMatchObject({ admitted: false, limit: "tokens" });
    expect(Number(refused.headers["retry-after-ms"])).toBe(1500);
    expect(refused.headers).not.toHaveProperty("x-ratelimit-limit-requests");
    now = 1600;
    expect(budget.admit(1).admitted).toBe(true);
  });

  it("writes reset durations as OpenAI does", () => {
    expect(formatDuration(6)).toBe("6ms");
    expect(formatDuration(59_995)).toBe("59.995s");
    expect(formatDuration(360_000)).toBe("6m0s");
  });
});

describe("the server's provider budget", () => {
  const chat = (url: string) =>
    fetch(`${url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }),
    });

  it("answers 429 with the provider's headers past the budget, counts it, and is set and cleared over the control API", async () => {
    const fake = await startFakeOpenAI({ rateLimit: { rpm: 60 } });
    try {
      const first = await chat(fake.url);
      expect(first.status).toBe(200);
      expect(first.headers.get("x-ratelimit-limit-requests")).toBe("60");
      const second = await chat(fake.url);
      expect(second.status).toBe(429);
      expect(Number(second.headers.get("retry-after-ms"))).toBeGreaterThan(900);
      expect(((await second.json()) as { error: { message: string } }).error.message).toContain("requests per min");
      expect(fake.rateLimited()).toBe(1);
      expect(fake.requests.map((r) => r.status)).toEqual([200, 429]);
      const control = fake.url.replace(/\/v1$/, "/__fake/rate-limit");
      expect((await fetch(control, { method: "POST", body: JSON.stringify({ rpm: 0 }) })).status).toBe(400);
      expect((await fetch(control, { method: "DELETE" })).status).toBe(200);
      expect((await chat(fake.url)).status).toBe(200);
      expect((await fetch(control, { method: "POST", body: JSON.stringify({ tpm: 1 }) })).status).toBe(200);
      expect((await chat(fake.url)).status).toBe(200); // the bucket starts full, and goes into debt
      expect((await chat(fake.url)).status).toBe(429);
      fake.reset(); // back to the start-up budget, counters cleared
      expect(fake.rateLimited()).toBe(0);
      expect((await chat(fake.url)).status).toBe(200);
    } finally {
      await fake.close();
    }
  });
});
