// How the changes card and the alerts word what changed between two runs: the cause of a flip,
// the run-level summary, field labels, how a field's before/after is shown, and the alert card
// and run origin as rendered (user data stays text; only http(s) build URLs become links).
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import type { AlertDto } from "@/lib/alerts/dto";
import { causeLabel, deltaSummary, fieldLabel, formatDiffValue, presentDiff, runLabel } from "@/components/runs/change-format";
import { lineDiff } from "@/components/ui/line-diff";
import { RunMetadata } from "@/components/runs/run-metadata";
import { AlertCard } from "@/components/alerts/alert-card";

// The acknowledge button calls a server action (next-auth and all); the card's wording is what is under test.
vi.mock("@/components/alerts/acknowledge-button", () => ({ AcknowledgeButton: () => null }));

describe("causeLabel", () => {
  it("names the cause, and an evaluation-settings change as such rather than as a case edit", () => {
    expect(causeLabel("test", true)).toBe("the case changed");
    expect(causeLabel("agent", false)).toBe("the agent changed");
    expect(causeLabel("both", true)).toBe("the case and the agent changed");
    expect(causeLabel("neither", false)).toBe("neither changed: possibly flaky");
    expect(causeLabel("test", false)).toBe("the evaluation settings changed");
    expect(causeLabel("both", false)).toBe("the evaluation settings and the agent changed");
  });
});

describe("deltaSummary", () => {
  it("says which of the agent and the evaluation settings changed since the run", () => {
    const since = runLabel(41);
    expect(deltaSummary(since, { agent_changed: true, evaluation_changed: false })).toBe(
      "The agent changed since run #41; the evaluation settings did not.",
    );
    expect(deltaSummary(since, { agent_changed: false, evaluation_changed: true })).toBe(
      "The evaluation settings changed since run #41; the agent did not.",
    );
    expect(deltaSummary(since, { agent_changed: true, evaluation_changed: true })).toBe(
      "The agent and the evaluation settings changed since run #41.",
    );
    expect(deltaSummary(runLabel(null), { agent_changed: false, evaluation_changed: false })).toBe(
      "Neither the agent nor the evaluation settings changed since the previous run.",
    );
  });
});

describe("fieldLabel", () => {
  it("names known fields, variables by their name, and humanises the rest", () => {
    expect(fieldLabel("system_prompt")).toBe("System prompt");
    expect(fieldLabel("checks")).toBe("Checks");
    expect(fieldLabel("variables.TONE")).toBe("Variable TONE");
    expect(fieldLabel("http.timeout_ms")).toBe("HTTP timeout (ms)");
    expect(fieldLabel("some_new.field")).toBe("Some new field");
  });
});

describe("presentDiff", () => {
  it("shows the system prompt as a line diff, also when it is one short line", () => {
    const shown = presentDiff({ field: "system_prompt", before: "Be kind.\nAnswer briefly.", after: "Be kind.\nAnswer at length." });
    expect(shown.kind).toBe("text");
    expect(shown.kind === "text" && shown.lines).toEqual([
      { kind: "same", text: "Be kind." },
      { kind: "removed", text: "Answer briefly." },
      { kind: "added", text: "Answer at length." },
    ]);
    expect(presentDiff({ field: "system_prompt", before: "a", after: "b" }).kind).toBe("text");
  });

  it("diffs a text that was not set as all added lines, not as a removed empty line", () => {
    const shown = presentDiff({ field: "ground_truth", before: undefined, after: "9am\nto 5pm" });
    expect(shown.kind === "text" && shown.lines).toEqual([
      { kind: "added", text: "9am" },
      { kind: "added", text: "to 5pm" },
    ]);
    expect(shown.before).toBe("(not set)");
  });

  it("shows structures (checks, tools) as indented JSON before and after", () => {
    const shown = presentDiff({
      field: "checks",
      before: [{ type: "contains_phrases", phrases: ["Fake reply"] }],
      after: [{ type: "contains_phrases", phrases: ["Never said"] }],
    });
    expect(shown.kind).toBe("json");
    expect(shown.before).toBe(JSON.stringify([{ type: "contains_phrases", phrases: ["Fake reply"] }], null, 2));
    expect(shown.after).toContain('"Never said"');
    expect(presentDiff({ field: "tools", before: undefined, after: [] })).toEqual({ kind: "json", before: "(not set)", after: "[]" });
  });

  it("shows short values inline, and long or multi-line strings of any field as a line diff", () => {
    expect(presentDiff({ field: "temperature", before: 0.2, after: 0.7 })).toEqual({ kind: "inline", before: "0.2", after: "0.7" });
    expect(presentDiff({ field: "model", before: "gpt-4o", after: null })).toEqual({
      kind: "inline",
      before: "gpt-4o",
      after: "(not set)",
    });
    expect(presentDiff({ field: "variables.TONE", before: "formal", after: "x".repeat(81) }).kind).toBe("text");
    expect(presentDiff({ field: "variables.TONE", before: "one", after: "one\ntwo" }).kind).toBe("text");
    expect(presentDiff({ field: "max_turns", before: 3, after: "3" }).kind).toBe("inline");
  });

  it("formats values as text: absent, empty, booleans", () => {
    expect(formatDiffValue(undefined)).toBe("(not set)");
    expect(formatDiffValue("")).toBe("(empty)");
    expect(formatDiffValue(false)).toBe("false");
  });
});

describe("lineDiff", () => {
  it("keeps common lines and marks the rest removed or added, in order", () => {
    expect(lineDiff("a\nb\nc", "a\nx\nc")).toEqual([
      { kind: "same", text: "a" },
      { kind: "removed", text: "b" },
      { kind: "added", text: "x" },
      { kind: "same", text: "c" },
    ]);
    expect(lineDiff("x\n".repeat(1501), "y")).toBeNull();
  });
});

describe("run metadata on an alert", () => {
  it("renders values as text and a build link that neither leaks the page nor gets followed as an endorsement", () => {
    const html = renderToStaticMarkup(
      createElement(RunMetadata, {
        metadata: { branch: "<img src=x onerror=alert(1)>", build_url: "https://ci.example/build/7" },
        full: true,
      }),
    );
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).toMatch(/<a href="https:\/\/ci\.example\/build\/7" target="_blank" rel="noopener noreferrer nofollow"/);

    const unsafe = renderToStaticMarkup(createElement(RunMetadata, { metadata: { build_url: "javascript:alert(1)" } }));
    expect(unsafe).not.toContain("<a");
    expect(unsafe).toContain("javascript:alert(1)");
  });
});

function alert(over: Partial<AlertDto> = {}): AlertDto {
  return {
    id: "00000000-0000-4000-8000-000000000001",
    suite_id: "00000000-0000-4000-8000-000000000002",
    suite_name: "Support",
    run_id: "00000000-0000-4000-8000-000000000003",
    run_number: 42,
    run_metadata: { branch: "main" },
    baseline_run_id: "00000000-0000-4000-8000-000000000004",
    baseline_run_number: 41,
    agent_changed: false,
    evaluation_changed: false,
    explanation: "The flipped case was edited since the baseline run: the test changed, not the agent.",
    previous_pass_rate: 100,
    pass_rate: 50,
    drop_points: 50,
    flipped_cases: [
      {
        test_case_id: "00000000-0000-4000-8000-000000000005",
        name: "Greets",
        from: "passed",
        to: "failed",
        case_result_id: "00000000-0000-4000-8000-000000000006",
        case_changed: true,
        cause: "test",
      },
    ],
    flaky_cases: [],
    acknowledged_at: null,
    acknowledged_by: null,
    created_at: "2026-11-27T10:00:00.000Z",
    ...over,
  };
}

describe("AlertCard", () => {
  const text = (a: AlertDto) =>
    renderToStaticMarkup(createElement(AlertCard, { workspaceId: "w", alert: a }))
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ");

  it("opens with the explanation, then the drop, the runs by number, the origin and each flip's cause", () => {
    const t = text(alert());
    const order = ["The flipped case was edited", "Pass rate", "run #42 vs baseline #41", "Branch main", "Greets", "the case changed"];
    const at = order.map((s) => t.indexOf(s));
    expect(
      at.every((i) => i >= 0),
      t,
    ).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it("has no explanation line or cause badge for an alert raised before causes and baseline numbers were recorded", () => {
    const legacy = alert({
      explanation: "",
      baseline_run_number: null,
      flipped_cases: [{ ...alert().flipped_cases[0]!, cause: null, case_changed: false }],
    });
    const t = text(legacy);
    expect(t).toContain("run #42 vs its baseline run");
    expect(t).not.toContain("Why it flipped");
    expect(t.indexOf("Pass rate")).toBeLessThan(t.indexOf("Greets"));
  });
});
