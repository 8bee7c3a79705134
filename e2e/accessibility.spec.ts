import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { createWorkspace, unique } from "./fixtures";

// axe over the main pages, WCAG 2 A and AA rules. Serious and critical violations fail the test;
// every violation on a page is listed in the failure message (rule, impact, help, targets) so the
// fix is obvious without opening the trace.

type Violation = Awaited<ReturnType<AxeBuilder["analyze"]>>["violations"][number];

function describe(violations: Violation[]): string {
  return violations
    .map((v) => {
      const targets = v.nodes.map(
        (n) => `    - ${n.target.join(" ")}${n.failureSummary ? `\n      ${n.failureSummary.replace(/\n/g, "\n      ")}` : ""}`,
      );
      return `  [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n${targets.join("\n")}`;
    })
    .join("\n");
}

async function expectNoSeriousViolations(page: Page, name: string) {
  await test.step(`axe: ${name}`, async () => {
    const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
    const blocking = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    if (violations.length > 0) console.log(`\n${name} (${page.url()}):\n${describe(violations)}`);
    expect
      .soft(
        blocking.map((v) => `${v.id}: ${v.help}`),
        `${name} (${page.url()}) has serious or critical violations:\n${describe(blocking)}`,
      )
      .toEqual([]);
  });
}

test("the main pages have no serious or critical WCAG 2 A/AA violations", async ({ page }) => {
  // About twenty pages, each through axe: two minutes on a quiet two-core machine, so the limit leaves room for a busy one.
  test.setTimeout(240_000);

  // Data to look at: a fresh workspace with the demo suite, run once against the built-in demo model.
  const workspaceUrl = `/w/${await createWorkspace(page, unique("A11y team"))}`;
  await page.getByRole("button", { name: "Load the demo suite" }).click();
  // Loading the demo starts its first run and opens it.
  await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
  const runUrl = page.url();
  await expect(page.getByTestId("run-done-count")).toHaveText("10 of 10 cases done", { timeout: 30_000 });
  await expect(page.getByRole("heading", { level: 1 }).getByText("Completed")).toBeVisible();
  await expectNoSeriousViolations(page, "run page");

  await page.getByRole("heading", { level: 1 }).getByRole("link", { name: "Demo: customer support" }).click();
  await page.waitForURL(/\/suites\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: "Demo: customer support" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Order status lookup" })).toBeVisible();
  const suiteUrl = page.url();
  await expectNoSeriousViolations(page, "suite page (case list)");

  await page.goto(runUrl);
  await page
    .getByRole("link", { name: /Order status lookup/ })
    .first()
    .click();
  await page.waitForURL(/\/runs\/[0-9a-f-]{36}\/cases\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectNoSeriousViolations(page, "case view (case result)");

  await page.goto(`${suiteUrl}/runs`);
  await expect(page.getByRole("heading", { name: "Pass rate trend" })).toBeVisible();
  await expectNoSeriousViolations(page, "suite runs & trends");

  await page.goto(`${suiteUrl}/cases/new`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectNoSeriousViolations(page, "case form (new case)");
  // The same form with its errors shown at the fields.
  await page.getByRole("button", { name: "Create test case" }).click();
  await expect(page.locator("[aria-invalid=true]").first()).toBeVisible();
  await expectNoSeriousViolations(page, "case form with validation errors");

  await page.goto(`${workspaceUrl}/suites`);
  await expect(page.getByRole("link", { name: "Demo: customer support" })).toBeVisible();
  await expectNoSeriousViolations(page, "suites list");

  await page.goto(`${workspaceUrl}/agents`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectNoSeriousViolations(page, "agents list");

  await page.goto(`${workspaceUrl}/settings`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectNoSeriousViolations(page, "workspace settings");
});
