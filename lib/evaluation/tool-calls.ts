/**
 * Deterministic tool-call matching (DESIGN.md "Tool calls, deterministic").
 *
 * - Expected and actual calls are paired by an optimal assignment over indices (Hungarian
 *   algorithm), so duplicates count: two expected `search` calls need two actual ones.
 *   The assignment maximises, first, the number of calls whose arguments match and, second, the
 *   number of same-tool pairs (to explain a miss with the arguments actually sent).
 * - `expected_params` is a subset: every expected key must be present with a deeply equal value;
 *   nested objects are compared as subsets recursively, arrays and scalars exactly (no type
 *   coercion: 42 ≠ "42"). String arguments are parsed as JSON first. `null` = any arguments.
 * - `forbidden: true`: the tool must not be called (with `expected_params`, only calls matching
 *   them are forbidden); any such call fails the case.
 * - Calls nobody expected are reported as `unexpected` but do not fail the case.
 * - `ordered`: expected calls must appear as a subsequence of the actual calls, in order.
 */
import { minCostAssignment } from "./assignment";
import { isPlainObject } from "./llm-json";
import type { ActualToolCall, ToolCallResults, ToolExpectation } from "./types";

/** Parsed arguments, or the raw string when it is not JSON. Empty/absent arguments are `{}`. */
export function parseToolArguments(args: ActualToolCall["arguments"]): unknown {
  if (args === null || args === undefined) return {};
  if (typeof args !== "string") return args;
  if (args.trim() === "") return {};
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

/** `expected` is contained in `actual`: objects as recursive subsets, everything else deeply equal. */
export function isSubset(expected: unknown, actual: unknown): boolean {
  if (isPlainObject(expected)) {
    return isPlainObject(actual) && Object.entries(expected).every(([k, v]) => Object.hasOwn(actual, k) && isSubset(v, actual[k]));
  }
  return deepEqual(expected, actual);
}

export function paramsMatch(expected: Record<string, unknown> | null | undefined, actualArguments: unknown): boolean {
  if (expected === null || expected === undefined) return true;
  return isSubset(expected, actualArguments);
}

type Expectation = { index: number; tool: string; params: Record<string, unknown> | null };
type Call = { index: number; tool: string; args: unknown };
type Pairing = Map<number, number>; // expectation position → call position

const NONE = 0;
const PARTIAL = 1;
const FULL = 2;

function pairKind(e: Expectation, c: Call): number {
  if (e.tool !== c.tool) return NONE;
  return paramsMatch(e.params, c.args) ? FULL : PARTIAL;
}

/** Optimal unordered pairing: max full matches, then max same-tool pairs, then closest indices. */
function pairUnordered(exp: Expectation[], calls: Call[]): Pairing {
  const n = exp.length;
  const size = Math.max(n, calls.length);
  const scale = size * size + 1; // tie-break |i - j| never outweighs a base-cost step
  const unpaired = (n + 1) * scale;
  const cost = exp.map((e, i) =>
    calls.map((c, j) => {
      const kind = pairKind(e, c);
      if (kind === NONE) return unpaired;
      return (kind === FULL ? 0 : n) * scale + Math.abs(i - j);
    }),
  );
  const pairing: Pairing = new Map();
  minCostAssignment(cost, unpaired).forEach((j, i) => {
    const e = exp[i];
    const c = j >= 0 ? calls[j] : undefined;
    if (e && c && pairKind(e, c) !== NONE) pairing.set(i, j);
  });
  return pairing;
}

/** Order-preserving pairing (weighted longest common subsequence). */
function pairOrdered(exp: Expectation[], calls: Call[]): Pairing {
  const n = exp.length;
  const m = calls.length;
  const weight = (i: number, j: number): number => {
    const kind = pairKind(exp[i]!, calls[j]!);
    return kind === FULL ? n + 1 : kind === PARTIAL ? 1 : -1;
  };
  const best: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const w = weight(i - 1, j - 1);
      best[i]![j] = Math.max(best[i - 1]![j]!, best[i]![j - 1]!, w >= 0 ? best[i - 1]![j - 1]! + w : -Infinity);
    }
  }
  const pairing: Pairing = new Map();
  let i = n;
  let j = m;
  while (i > 0 && j > 0) {
    const w = weight(i - 1, j - 1);
    if (w >= 0 && best[i]![j] === best[i - 1]![j - 1]! + w) {
      pairing.set(i - 1, j - 1);
      i--;
      j--;
    } else if (best[i]![j] === best[i - 1]![j]) {
      i--;
    } else {
      j--;
    }
  }
  return pairing;
}

function missingReason(e: Expectation, calls: Call[], pairedCall: Call | undefined, expectedCount: number, ordered: boolean): string {
  if (pairedCall) {
    return `${e.tool} was called, but not with the expected arguments (got ${JSON.stringify(pairedCall.args)})`;
  }
  const sameTool = calls.filter((c) => c.tool === e.tool);
  if (sameTool.length === 0) return `${e.tool} was not called`;
  if (ordered && sameTool.some((c) => paramsMatch(e.params, c.args))) {
    return `${e.tool} was called, but not in the expected order`;
  }
  return `${e.tool} was called ${sameTool.length} time(s), expected ${expectedCount}`;
}

export type ToolCallMatchOptions = { ordered?: boolean };

/**
 * Matches the agent's tool calls against the case's expectations. `expected` null → no
 * expectations (result null: does not affect pass/fail).
 */
export function matchToolCalls(
  expected: readonly ToolExpectation[] | null | undefined,
  actual: readonly ActualToolCall[],
  options: ToolCallMatchOptions = {},
): ToolCallResults | null {
  if (expected === null || expected === undefined) return null;
  const ordered = options.ordered ?? false;
  const calls: Call[] = actual.map((c, index) => ({ index, tool: c.name, args: parseToolArguments(c.arguments) }));
  const wanted: Expectation[] = [];
  const forbidden: Expectation[] = [];
  expected.forEach((e, index) => {
    (e.forbidden ? forbidden : wanted).push({ index, tool: e.tool, params: e.expected_params ?? null });
  });

  const forbiddenHits = calls.filter((c) => forbidden.some((f) => f.tool === c.tool && paramsMatch(f.params, c.args)));
  const pairing = ordered ? pairOrdered(wanted, calls) : pairUnordered(wanted, calls);

  const result: ToolCallResults = { passed: false, ordered, matched: [], missing: [], unexpected: [], forbidden_called: [] };
  const paired = new Set<number>();
  wanted.forEach((e, i) => {
    const j = pairing.get(i);
    const call = j === undefined ? undefined : calls[j];
    if (call) paired.add(call.index);
    if (call && paramsMatch(e.params, call.args)) {
      result.matched.push({
        tool: e.tool,
        expected_params: e.params,
        actual_arguments: call.args,
        index_expected: e.index,
        index_actual: call.index,
      });
    } else {
      const expectedCount = wanted.filter((w) => w.tool === e.tool).length;
      result.missing.push({ tool: e.tool, expected_params: e.params, reason: missingReason(e, calls, call, expectedCount, ordered) });
    }
  });
  const forbiddenIdx = new Set(forbiddenHits.map((c) => c.index));
  for (const c of calls) {
    if (forbiddenIdx.has(c.index)) result.forbidden_called.push({ tool: c.tool, arguments: c.args });
    else if (!paired.has(c.index)) result.unexpected.push({ tool: c.tool, arguments: c.args });
  }
  result.passed = result.missing.length === 0 && result.forbidden_called.length === 0;
  return result;
}
