// What a provider's answer says about its limits: x-ratelimit-* in OpenAI's formats, Retry-After
// in its forms, and how long a 429 or an exhausted window holds requests.
import { describe, expect, it } from "vitest";
import { DEFAULT_429_HOLD_MS, parseResetDuration, readLimitSignals } from "@/lib/rate-limits/headers";

describe("parseResetDuration", () => {
  it.each([
    ["20ms", 20],
    ["1s", 1_000],
    ["1.5s", 1_500],
    ["59.995s", 59_995],
    ["6m0s", 360_000],
    ["1h2m3.5s", 3_723_500],
    ["2", 2_000],
  ])("reads %s as %i ms", (text, ms) => expect(parseResetDuration(text)).toBe(ms));

  it.each([null, "", "soon", "5 minutes", "-1s"])("gives null for %s", (text) => expect(parseResetDuration(text)).toBeNull());
});

describe("readLimitSignals", () => {
  it("reads the limits a successful answer sends and does not hold while something remains", () => {
    const headers = new Headers({
      "x-ratelimit-limit-requests": "500",
      "x-ratelimit-limit-tokens": "30000",
      "x-ratelimit-remaining-requests": "12",
      "x-ratelimit-reset-requests": "1.2s",
    });
    expect(readLimitSignals(200, headers)).toEqual({ limitRpm: 500, limitTpm: 30000, blockMs: 0 });
  });

  it("holds until an exhausted window resets, even on a 200", () => {
    const headers = new Headers({ "x-ratelimit-remaining-tokens": "0", "x-ratelimit-reset-tokens": "750ms" });
    expect(readLimitSignals(200, headers).blockMs).toBe(750);
  });

  it("with a known per-minute limit, holds an exhausted window only one request's share of the minute (the budget refills continuously)", () => {
    const headers = new Headers({
      "x-ratelimit-limit-requests": "600",
      "x-ratelimit-remaining-requests": "0",
      "x-ratelimit-reset-requests": "1s",
    });
    expect(readLimitSignals(200, headers).blockMs).toBe(100);
  });

  it("holds a 429 for retry-after-ms first, then Retry-After, then the window's reset, then a default", () => {
    expect(readLimitSignals(429, new Headers({ "retry-after-ms": "250", "retry-after": "3" })).blockMs).toBe(250);
    expect(readLimitSignals(429, new Headers({ "retry-after": "3" })).blockMs).toBe(3_000);
    expect(
      readLimitSignals(429, new Headers({ "x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "6m0s" })).blockMs,
    ).toBe(360_000);
    expect(readLimitSignals(429, new Headers()).blockMs).toBe(DEFAULT_429_HOLD_MS);
    expect(readLimitSignals(429, null)).toEqual({ limitRpm: null, limitTpm: null, blockMs: DEFAULT_429_HOLD_MS });
  });

  it("ignores limits that are not positive numbers", () => {
    expect(readLimitSignals(200, new Headers({ "x-ratelimit-limit-requests": "lots", "x-ratelimit-limit-tokens": "0" }))).toMatchObject({
      limitRpm: null,
      limitTpm: null,
    });
  });
});
