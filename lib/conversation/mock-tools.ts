import type { AgentTool, ConversationToolCall } from "./types";

/**
 * A mock response may be a list of argument matchers, first match wins:
 *   [{ "when": { "city": "Paris" }, "response": {...} }, { "response": "default" }]
 * `when` matches when every key equals the call's argument (deep equality; nested objects as
 * subsets); an entry without `when` is the fallback. Any other value is the response itself.
 */
type MatcherEntry = { when?: Record<string, unknown>; response: unknown };

export function isMatcherList(value: unknown): value is MatcherEntry[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every(
      (e) =>
        typeof e === "object" &&
        e !== null &&
        !Array.isArray(e) &&
        "response" in e &&
        Object.keys(e).every((k) => k === "when" || k === "response") &&
        (!("when" in e) || (typeof e.when === "object" && e.when !== null && !Array.isArray(e.when))),
    )
  );
}

/** Parses tool-call arguments: a JSON object when they are one, else the raw string. */
export function parseArguments(raw: string): Record<string, unknown> | string {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : raw;
  } catch {
    return raw;
  }
}

function subsetMatches(expected: unknown, actual: unknown): boolean {
  if (typeof expected === "object" && expected !== null && !Array.isArray(expected)) {
    if (typeof actual !== "object" || actual === null || Array.isArray(actual)) return false;
    return Object.entries(expected).every(([k, v]) => subsetMatches(v, (actual as Record<string, unknown>)[k]));
  }
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && expected.length === actual.length && expected.every((v, i) => subsetMatches(v, actual[i]));
  }
  return expected === actual;
}

export type MockAnswer = { content: string; error: string | null };

/** The content of the `tool` message answering `call`, or an error returned to the agent. */
export function answerToolCall(tools: AgentTool[], call: { name: string; arguments: string }): MockAnswer {
  const tool = tools.find((t) => t.name === call.name);
  let response: unknown = tool ? tool.mock_response : null;
  let error: string | null = null;
  let told: string | null = null;
  if (!tool) error = `tool ${call.name} is not defined for this agent`;
  else if (response === null || response === undefined) error = `tool ${call.name} has no mock response`;
  else if (isMatcherList(response)) {
    const args = parseArguments(call.arguments);
    const entry =
      response.find((e) => e.when !== undefined && typeof args === "object" && subsetMatches(e.when, args)) ??
      response.find((e) => e.when === undefined);
    if (entry) response = entry.response;
    else error = told = `tool ${call.name} has no mock response for these arguments`;
  }
  // The agent sees a plain "not available"; the recorded error says why.
  if (error) return { content: JSON.stringify({ error: told ?? `tool ${call.name} is not available` }), error };
  return { content: typeof response === "string" ? response : JSON.stringify(response), error: null };
}

export function toolCallRecord(call: { id: string; name: string; arguments: string }, error: string | null): ConversationToolCall {
  return { id: call.id, name: call.name, arguments: parseArguments(call.arguments), ...(error ? { error } : {}) };
}
