import { describe, expect, it } from "vitest";
import { historyHref, parseSuiteRunsLocation } from "@/lib/runs/suite-runs-location";

const base = "/w/ws/suites/s/runs";

describe("the suite runs page's URL", () => {
  it("lists the history by default and the experiments only for kind=experiment", () => {
    expect(parseSuiteRunsLocation({}).kind).toBe("ordinary");
    expect(parseSuiteRunsLocation({ kind: "experiment" }).kind).toBe("experiment");
    expect(parseSuiteRunsLocation({ kind: ["experiment", "ordinary"] }).kind).toBe("experiment");
    // Anything else (the API's `all`, a typo, an empty value) falls back to the history.
    for (const kind of ["ordinary", "all", "Experiment", "experiments", ""]) expect(parseSuiteRunsLocation({ kind }).kind).toBe("ordinary");
  });

  it("writes kind=experiment and leaves the default history out", () => {
    expect(historyHref(base, { kind: "ordinary", prev: [] })).toBe(base);
    expect(historyHref(base, { kind: "experiment", prev: [] })).toBe(`${base}?kind=experiment`);
    expect(historyHref(base, { kind: "experiment", prev: [], status: "failed" })).toBe(`${base}?kind=experiment&status=failed`);
  });

  it("round-trips kind, status and the cursors", () => {
    const loc = { kind: "experiment" as const, status: "completed" as const, cursor: "c2", prev: ["", "c1"] };
    const href = historyHref(base, loc);
    expect(href).toBe(`${base}?kind=experiment&status=completed&cursor=c2&prev=-%2Cc1`);
    const sp = Object.fromEntries(new URL(href, "http://x").searchParams);
    expect(parseSuiteRunsLocation(sp)).toEqual(loc);
    expect(parseSuiteRunsLocation({ status: "bogus" })).toEqual({ kind: "ordinary", cursor: undefined, prev: [], status: undefined });
  });
});
