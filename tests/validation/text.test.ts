import { describe, expect, it } from "vitest";
import { findInvalidText, stripInvalidText } from "@/lib/validation/text";
import { acceptInviteInput, setupInput } from "@/lib/workspaces/schemas";
import { storedOutcome } from "@/lib/runs/truncate";
import { errorOutcome, type CaseOutcome } from "@/lib/runs/execution-types";

describe("findInvalidText", () => {
  it("names NUL characters and lone surrogates at their dotted paths, keys included; pairs are fine", () => {
    expect(findInvalidText({ a: "ok 😀", b: ["x", "y\u0000"], c: { "k\u0000": 1, d: "\udc00" } })).toEqual([
      { path: "b.1", message: "contains a NUL character" },
      { path: "c.k\\u0000", message: "the key contains a NUL character" },
      { path: "c.d", message: "contains an invalid character (a lone UTF-16 surrogate)" },
    ]);
    expect(findInvalidText(["\ud83d\ude00", 1, null, true])).toEqual([]);
  });

  it("stops at 64 levels without recursion, however deep the value", () => {
    let deep: unknown = "x";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findInvalidText(deep)).toEqual([
      { path: Array.from({ length: 64 }, () => "0").join("."), message: "is nested more than 64 levels deep" },
    ]);
  });
});

describe("stripInvalidText / storedOutcome", () => {
  it("removes NUL and lone surrogates, keeps surrogate pairs", () => {
    expect(stripInvalidText("a\u0000b\ud800c😀")).toBe("abc😀");
  });

  it("cleans every stored text of an outcome, object keys and actualResponse included", () => {
    const o: CaseOutcome = {
      ...errorOutcome("agent_error", "e\u0000"),
      status: "passed",
      errorType: null,
      transcript: [{ role: "assistant", content: "a\u0000b", tool_calls: [{ args: { "k\u0000": "v\ud800" } }] }],
      actualResponse: "a\u0000b",
      checkResults: [{ details: "d\u0000" }],
      turns: 1,
      llmCalls: [
        {
          purpose: "agent",
          model: null,
          request: { m: "\u0000" },
          response: "r\u0000",
          error: null,
          attempts: 1,
          latencyMs: 1,
          cached: false,
        },
      ],
    };
    const stored = storedOutcome(o);
    expect(JSON.stringify(stored)).not.toMatch(/\\u0000|\\ud800/);
    expect(stored.actualResponse).toBe("ab");
    expect((stored.transcript[0] as { content: string }).content).toBe("ab");
    expect(stored.errorMessage).toBe("e");
  });
});

describe("forms parsed outside the action client", () => {
  it("setup and invitation names refuse NUL characters at the field", () => {
    const setup = setupInput.safeParse({ name: "A\u0000", email: "a@example.test", password: "long enough", workspaceName: "W\u0000" });
    expect(setup.success).toBe(false);
    expect(setup.error!.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["name", "contains a NUL character"],
      ["workspaceName", "contains a NUL character"],
    ]);
    expect(setupInput.safeParse({ email: "a\u0000@example.test", password: "long enough", workspaceName: "W" }).success).toBe(false);
    expect(acceptInviteInput.safeParse({ token: "t".repeat(20), name: "\ud800", password: "long enough" }).success).toBe(false);
  });
});
