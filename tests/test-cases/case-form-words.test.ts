import { describe, expect, it } from "vitest";
import type { FieldErrors } from "react-hook-form";
import { leavesPage, type LinkClick } from "@/components/forms/unsaved-changes";
import { errorAt, fieldIssues, fieldLabel, userMessage } from "@/components/test-cases/form-errors";
import { RUNNABLE_MESSAGE } from "@/lib/test-cases/schemas";

/**
 * The case form's pure parts: which link clicks would lose unsaved edits (and so ask first), and
 * how errors are named and worded for the user (labels, not API field names).
 */

const HERE = "https://assay.test/w/1/suites/2/cases/new";
const click = (href: string | null, extra: Partial<LinkClick> = {}): LinkClick => ({
  href,
  target: null,
  download: false,
  button: 0,
  modified: false,
  defaultPrevented: false,
  ...extra,
});

describe("leavesPage", () => {
  it("asks for a plain click on a link to another page of the app or elsewhere", () => {
    expect(leavesPage(click("/w/1/suites/2"), HERE)).toBe(true);
    expect(leavesPage(click("https://example.test/docs"), HERE)).toBe(true);
    expect(leavesPage(click("?tab=checks"), HERE)).toBe(true);
  });

  it("lets through a jump within the page, a new tab, a download, a modified or non-left click, and an already handled one", () => {
    expect(leavesPage(click("#status"), HERE)).toBe(false);
    expect(leavesPage(click("/w/1/suites/2", { target: "_blank" }), HERE)).toBe(false);
    expect(leavesPage(click("/export.yaml", { download: true }), HERE)).toBe(false);
    expect(leavesPage(click("/w/1/suites/2", { modified: true }), HERE)).toBe(false);
    expect(leavesPage(click("/w/1/suites/2", { button: 1 }), HERE)).toBe(false);
    expect(leavesPage(click("/w/1/suites/2", { defaultPrevented: true }), HERE)).toBe(false);
    expect(leavesPage(click("mailto:qa@example.test"), HERE)).toBe(false);
    expect(leavesPage(click(null), HERE)).toBe(false);
  });

  it("asks for the same page without a fragment (a reload loses the edits too)", () => {
    expect(leavesPage(click("/w/1/suites/2/cases/new"), HERE)).toBe(true);
    expect(leavesPage(click("/w/1/suites/2/cases/new", { target: "_self" }), HERE)).toBe(true);
  });
});

describe("errors in the form's words", () => {
  it("says the draft-only rule without the API's field names", () => {
    const message = userMessage(RUNNABLE_MESSAGE);
    expect(message).toMatch(/^An active case needs an initial message or a simulated user to run/);
    expect(message).not.toMatch(/initial_message|persona/);
    expect(userMessage("Threshold must be between 0 and 1")).toBe("Threshold must be between 0 and 1");
  });

  it("names fields by their labels, rows by their number from 1", () => {
    expect(fieldLabel("status")).toBe("Status");
    expect(fieldLabel("persona.instructions")).toBe("Persona instructions");
    expect(fieldLabel("checks.1.threshold")).toBe("Check 2 · Threshold");
    expect(fieldLabel("expected_outcomes.0")).toBe("Outcome 1");
    expect(fieldLabel("max_turns")).toBe("Max turns");
  });

  it("lists every field error once, in form order, named and worded for the user", () => {
    const errors = {
      status: { type: "server", message: RUNNABLE_MESSAGE, ref: {} },
      checks: [undefined, { threshold: { type: "too_big", message: "Threshold must be between 0 and 1" } }],
    } as unknown as FieldErrors;
    expect(fieldIssues(errors)).toEqual([
      { path: "status", label: "Status", message: userMessage(RUNNABLE_MESSAGE) },
      { path: "checks.1.threshold", label: "Check 2 · Threshold", message: "Threshold must be between 0 and 1" },
    ]);
    expect(errorAt(errors, "status")).toBe(userMessage(RUNNABLE_MESSAGE));
    expect(errorAt(errors, "checks")).toBe("Threshold must be between 0 and 1");
  });
});
