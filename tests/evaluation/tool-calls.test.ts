import { describe, expect, it } from "vitest";
import { minCostAssignment } from "@/lib/evaluation/assignment";
import { deepEqual, isSubset, matchToolCalls, parseToolArguments } from "@/lib/evaluation/tool-calls";
import type { ExpectedToolCall } from "@/lib/test-cases/schemas";

const exp = (tool: string, expected_params: Record<string, unknown> | null = null, forbidden?: true): ExpectedToolCall => ({
  tool,
  expected_params,
  forbidden,
});
const call = (name: string, args: unknown) => ({ name, arguments: typeof args === "string" ? args : JSON.stringify(args) });

describe("params comparison", () => {
  it("parses string arguments as JSON; empty/absent → {}; invalid JSON stays a string", () => {
    expect(parseToolArguments('{"a":1}')).toEqual({ a: 1 });
    expect(parseToolArguments("")).toEqual({});
    expect(parseToolArguments(null)).toEqual({});
    expect(parseToolArguments({ a: 2 })).toEqual({ a: 2 });
    expect(parseToolArguments("{not json")).toBe("{not json");
  });

  it("subset: extra actual keys allowed, nested objects recursive, arrays exact, no type coercion", () => {
    expect(isSubset({ a: 1 }, { a: 1, b: 2 })).toBe(true);
    expect(isSubset({ a: { b: 1 } }, { a: { b: 1, c: 2 }, d: 3 })).toBe(true);
    expect(isSubset({ a: { b: 1 } }, { a: { b: 2 } })).toBe(false);
    expect(isSubset({ a: [1, 2] }, { a: [1, 2] })).toBe(true);
    expect(isSubset({ a: [1, 2] }, { a: [1, 2, 3] })).toBe(false);
    expect(isSubset({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(isSubset({ a: 42 }, { a: "42" })).toBe(false);
    expect(isSubset({ a: null }, {})).toBe(false);
    expect(isSubset({ a: null }, { a: null })).toBe(true);
    expect(isSubset({}, { a: 1 })).toBe(true);
    expect(isSubset({ a: 1 }, "a=1")).toBe(false);
  });

  it("deepEqual compares objects in arrays exactly", () => {
    expect(deepEqual([{ a: 1 }], [{ a: 1 }])).toBe(true);
    expect(deepEqual([{ a: 1 }], [{ a: 1, b: 2 }])).toBe(false);
    expect(deepEqual({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
  });
});

describe("matchToolCalls", () => {
  it("returns null when the case has no tool expectations", () => {
    expect(matchToolCalls(null, [call("search", {})])).toBeNull();
  });

  it("passes with no expected calls and none made", () => {
    expect(matchToolCalls([], [])).toEqual({
      passed: true,
      ordered: false,
      matched: [],
      missing: [],
      unexpected: [],
      forbidden_called: [],
    });
  });

  it("matches with subset params from JSON string arguments, and reports unexpected calls without failing", () => {
    const r = matchToolCalls(
      [exp("search_orders", { order_id: 42 })],
      [call("get_time", {}), call("search_orders", '{"order_id": 42, "include_items": true}')],
    )!;
    expect(r.passed).toBe(true);
    expect(r.matched).toEqual([
      {
        tool: "search_orders",
        expected_params: { order_id: 42 },
        actual_arguments: { order_id: 42, include_items: true },
        index_expected: 0,
        index_actual: 1,
      },
    ]);
    expect(r.unexpected).toEqual([{ tool: "get_time", arguments: {} }]);
  });

  it("expected_params null accepts any arguments, even unparseable ones", () => {
    const r = matchToolCalls([exp("search")], [call("search", "not json at all")])!;
    expect(r.passed).toBe(true);
    expect(r.matched[0]?.actual_arguments).toBe("not json at all");
  });

  it("nested params match as a subset", () => {
    const expected = [exp("create", { customer: { address: { city: "Paris" } }, tags: ["a", "b"] })];
    const ok = matchToolCalls(expected, [
      call("create", { customer: { name: "Ann", address: { city: "Paris", zip: "75001" } }, tags: ["a", "b"] }),
    ])!;
    expect(ok.passed).toBe(true);
    const bad = matchToolCalls(expected, [call("create", { customer: { address: { city: "Lyon" } }, tags: ["a", "b"] })])!;
    expect(bad.passed).toBe(false);
    expect(bad.missing[0]?.reason).toMatch(/not with the expected arguments.*Lyon/);
    expect(bad.unexpected).toEqual([]);
  });

  it("duplicates count: two expected calls need two actual calls", () => {
    const expected = [exp("search"), exp("search")];
    const one = matchToolCalls(expected, [call("search", { q: "a" })])!;
    expect(one.passed).toBe(false);
    expect(one.matched).toHaveLength(1);
    expect(one.missing).toEqual([{ tool: "search", expected_params: null, reason: "search was called 1 time(s), expected 2" }]);
    const two = matchToolCalls(expected, [call("search", { q: "a" }), call("search", { q: "b" })])!;
    expect(two.passed).toBe(true);
    expect(two.matched.map((m) => [m.index_expected, m.index_actual])).toEqual([
      [0, 0],
      [1, 1],
    ]);
  });

  it("reports a tool that was never called", () => {
    const r = matchToolCalls([exp("refund", { amount: 25 })], [])!;
    expect(r.passed).toBe(false);
    expect(r.missing).toEqual([{ tool: "refund", expected_params: { amount: 25 }, reason: "refund was not called" }]);
  });

  it("optimal assignment beats greedy pairing", () => {
    // Greedy in order would give the any-params expectation the {q:"a"} call and leave {q:"a"} unmatched.
    const r = matchToolCalls([exp("search"), exp("search", { q: "a" })], [call("search", { q: "a" }), call("search", { q: "b" })])!;
    expect(r.passed).toBe(true);
    expect(r.missing).toEqual([]);
    expect(r.matched.map((m) => [m.index_expected, m.index_actual]).sort()).toEqual([
      [0, 1],
      [1, 0],
    ]);
  });

  it("optimal assignment across three overlapping expectations", () => {
    const expected = [exp("t", { a: 1 }), exp("t", { a: 1, b: 2 }), exp("t", { b: 2 })];
    const actual = [call("t", { a: 1, b: 2 }), call("t", { b: 2, c: 3 }), call("t", { a: 1, c: 3 })];
    // Only a perfect matching works: e1→a0, e2→a1, e0→a2.
    const r = matchToolCalls(expected, actual)!;
    expect(r.passed).toBe(true);
    expect(Object.fromEntries(r.matched.map((m) => [m.index_expected, m.index_actual]))).toEqual({ 0: 2, 1: 0, 2: 1 });
  });

  it("forbidden tools fail when called (optionally only with matching params)", () => {
    const calls = [call("search", { q: "x" }), call("delete_account", { confirm: true })];
    const r = matchToolCalls([exp("search"), exp("delete_account", null, true)], calls)!;
    expect(r.passed).toBe(false);
    expect(r.forbidden_called).toEqual([{ tool: "delete_account", arguments: { confirm: true } }]);
    expect(r.unexpected).toEqual([]);
    expect(r.missing).toEqual([]);

    const scoped = matchToolCalls([exp("delete_account", { confirm: false }, true)], calls)!;
    expect(scoped.passed).toBe(true);
    expect(scoped.unexpected).toHaveLength(2);

    const notCalled = matchToolCalls([exp("delete_account", null, true)], [])!;
    expect(notCalled.passed).toBe(true);
  });

  it("ordered: expected calls must appear as a subsequence in order", () => {
    const expected = [exp("lookup"), exp("refund")];
    const inOrder = [call("lookup", {}), call("log", {}), call("refund", {})];
    const reversed = [call("refund", {}), call("lookup", {})];
    expect(matchToolCalls(expected, inOrder, { ordered: true })!.passed).toBe(true);
    expect(matchToolCalls(expected, reversed)!.passed).toBe(true);
    const r = matchToolCalls(expected, reversed, { ordered: true })!;
    expect(r.ordered).toBe(true);
    expect(r.passed).toBe(false);
    expect(r.matched).toHaveLength(1);
    expect(r.missing[0]?.reason).toMatch(/not in the expected order/);
  });

  it("ordered matching also prefers param matches", () => {
    const expected = [exp("s", { q: "a" }), exp("s", { q: "b" })];
    const actual = [call("s", { q: "z" }), call("s", { q: "a" }), call("s", { q: "b" })];
    const r = matchToolCalls(expected, actual, { ordered: true })!;
    expect(r.passed).toBe(true);
    expect(r.matched.map((m) => m.index_actual)).toEqual([1, 2]);
    expect(r.unexpected).toEqual([{ tool: "s", arguments: { q: "z" } }]);
  });
});

describe("minCostAssignment", () => {
  function brute(cost: number[][], pad: number): number {
    const rows = cost.length;
    const cols = cost[0]?.length ?? 0;
    let best = Infinity;
    const used = new Array<boolean>(cols).fill(false);
    // Padding columns: rows beyond the real columns stay unassigned at `pad` each.
    const go = (i: number, acc: number, dummies: number) => {
      if (i === rows) return void (best = Math.min(best, acc));
      if (dummies > 0) go(i + 1, acc + pad, dummies - 1);
      for (let j = 0; j < cols; j++) {
        if (used[j]) continue;
        used[j] = true;
        go(i + 1, acc + cost[i]![j]!, dummies);
        used[j] = false;
      }
    };
    go(0, 0, Math.max(0, rows - cols));
    return best;
  }

  it("finds the optimum on random rectangular matrices (vs brute force)", () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let t = 0; t < 200; t++) {
      const rows = 1 + Math.floor(rand() * 5);
      const cols = 1 + Math.floor(rand() * 5);
      const pad = 10;
      const cost = Array.from({ length: rows }, () => Array.from({ length: cols }, () => Math.floor(rand() * 12)));
      const assignment = minCostAssignment(cost, pad);
      const cols_ = assignment.filter((j) => j >= 0);
      expect(new Set(cols_).size).toBe(cols_.length);
      const total = assignment.reduce((s, j, i) => s + (j >= 0 ? cost[i]![j]! : pad), 0);
      expect(total).toBe(brute(cost, pad));
    }
  });

  it("handles empty input", () => {
    expect(minCostAssignment([])).toEqual([]);
  });
});
