/**
 * The Traffic page's filters from its URL: valid values become the list query, anything else is
 * left out and reported on its field (a hand-edited link shows the list with the reason, never an
 * error page), including names of the prototype and text PostgreSQL cannot compare.
 */
import { describe, expect, it } from "vitest";
import { trafficPageFilters } from "@/lib/traffic/loaders";

const NOW = Date.UTC(2026, 10, 28, 12, 0);

describe("trafficPageFilters", () => {
  it("turns valid values into the list query", () => {
    const { query, errors } = trafficPageFilters(
      { service: "support-bot", range: "24h", has_error: "true", tool: "lookup_order", min_turns: "2", q: "refund", cursor: undefined },
      NOW,
    );
    expect(errors).toEqual({});
    expect(query).toMatchObject({
      service: "support-bot",
      from: new Date(NOW - 86_400_000),
      has_error: true,
      tool: "lookup_order",
      min_turns: 2,
      q: "refund",
      limit: 50,
    });
  });

  it("reports what does not parse on its field and leaves it out", () => {
    const { query, errors } = trafficPageFilters(
      { range: "constructor", min_turns: "-1", q: "a\u0000b", agent: "not-a-uuid", has_error: "yes" },
      NOW,
    );
    expect(Object.keys(errors).sort()).toEqual(["agent", "min_turns", "q", "range"]);
    expect(query.from).toBeUndefined();
    expect(query.min_turns).toBeUndefined();
    expect(query.q).toBeUndefined();
    expect(query.agent_id).toBeUndefined();
    expect(query.has_error).toBe(false);
  });
});
