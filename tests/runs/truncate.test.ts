import { describe, expect, it } from "vitest";
import { errorOutcome } from "@/lib/runs/executor";
import { mapStrings, MAX_STORED_CHARS, truncateOutcome, truncateStrings, truncateText } from "@/lib/runs/truncate";

describe("stored text truncation", () => {
  it("keeps 20,000 characters and says how many were dropped", () => {
    expect(truncateText("short")).toBe("short");
    expect(truncateText("x".repeat(MAX_STORED_CHARS))).toHaveLength(MAX_STORED_CHARS);
    expect(truncateText("x".repeat(143_456))).toBe(`${"x".repeat(20_000)}… [truncated 123,456 characters]`);
  });

  it("never splits a surrogate pair", () => {
    const cut = truncateText(`${"x".repeat(4)}😀tail`, 5);
    expect(cut).toBe("xxxx… [truncated 6 characters]");
    expect(cut.isWellFormed()).toBe(true);
  });

  it("reaches strings at any depth of JSON-like values and leaves other values alone", () => {
    const long = "y".repeat(30);
    const value = { a: [long, 1, null, { b: long, c: true }], d: new Date(0) };
    const out = truncateStrings(value, 10);
    expect(out.a[0]).toBe("yyyyyyyyyy… [truncated 20 characters]");
    expect((out.a[3] as { b: string }).b).toBe(out.a[0]);
    expect(out.a.slice(1, 3)).toEqual([1, null]);
    expect(out.d).toBe(value.d);
    expect(value.a[0]).toBe(long); // the input is not modified
    expect(mapStrings({ s: "a\u0000b" }, (s) => s.replaceAll("\u0000", ""))).toEqual({ s: "ab" });
  });

  it("truncates every stored text field of a case outcome except actualResponse (its own column rule)", () => {
    const long = "z".repeat(25_000);
    const o = {
      ...errorOutcome("agent", long),
      transcript: [{ role: "assistant", content: long }],
      actualResponse: long,
      checkResults: [{ details: long }],
      llmCalls: [
        {
          purpose: "agent",
          model: null,
          request: { messages: [{ content: long }] },
          response: long,
          error: long,
          attempts: 1,
          latencyMs: 1,
          cached: false,
        },
      ],
    };
    const stored = JSON.stringify(truncateOutcome(o));
    expect(stored.match(/… \[truncated 5,000 characters\]/g)).toHaveLength(6);
    expect(truncateOutcome(o).actualResponse).toBe(long);
  });
});
