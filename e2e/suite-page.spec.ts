import { expect, test, type Page } from "@playwright/test";
import { addFakeRules, addTestCases, expectAccessible, fakeSuiteOfItsOwn, runToCompletion } from "./fixtures";

/**
 * The suite page a QA lead triages from: each case's last verdict and its latest results after two
 * runs, the list sorted last verdict first, the toolbar's one primary action with the rest in a
 * keyboard-usable menu, the bulk bar only with a selection, and at 390 px the primary action in
 * view without scrolling sideways.
 */

const casesTable = (page: Page) => page.getByRole("table", { name: "Test cases" });
const caseNames = async (page: Page) =>
  (
    await casesTable(page)
      .getByRole("cell")
      .getByRole("link")
      .filter({ hasNotText: /^[✓✗!–…·]$/ })
      .allTextContents()
  ).map((s) => s.trim());
const caseRow = (page: Page, name: string) =>
  casesTable(page)
    .getByRole("row")
    .filter({ has: page.getByRole("link", { name, exact: true }) });

test("suite page: last verdicts and strips, sort by verdict, the toolbar menu, the bulk bar, 390 px", async ({ page }) => {
  const marker = `SP${Date.now().toString(36)}`;
  const caseAsking = (name: string, phrase: string) => ({
    name,
    initial_message: `${name} ${marker}`,
    checks: [{ type: "contains_phrases", phrases: [phrase] }],
  });
  const { workspaceId, token, suite } = await fakeSuiteOfItsOwn(page, {
    workspace: "Suite page",
    keyLabel: "suite page e2e",
    agent: { name: "Triage agent", system_prompt: marker },
    suite: { name: "Triage" },
    cases: [caseAsking("Always passes", "Fake reply"), caseAsking("Flips to pass", "Fake reply"), caseAsking("Always fails", "never said")],
  });
  // The first run answers "Flips to pass" wrongly once; the second answers it right.
  await addFakeRules(page.request, [
    { match: { endpoint: "chat", lastUserContains: `Flips to pass ${marker}` }, reply: { content: "Hmm." }, times: 1 },
  ]);
  await runToCompletion(page.request, token, suite.id);
  await runToCompletion(page.request, token, suite.id);
  await addTestCases(page.request, token, suite.id, [caseAsking("Never run", "Fake reply")]);
  const suiteUrl = `/w/${workspaceId}/suites/${suite.id}`;
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(suiteUrl);

  await test.step("each case shows its last verdict and latest results, newest first", async () => {
    await expect(caseRow(page, "Flips to pass")).toContainText("Passed");
    const strip = page.getByRole("list", { name: "Latest results of Flips to pass, newest first" });
    await expect(strip.getByRole("link")).toHaveCount(2);
    await expect(strip.getByRole("link").nth(0)).toHaveAccessibleName("Run #2, trial 1: passed");
    await expect(strip.getByRole("link").nth(1)).toHaveAccessibleName("Run #1, trial 1: failed");
    await expect(caseRow(page, "Always fails")).toContainText("Failed");
    await expect(caseRow(page, "Never run")).toContainText("Not run yet");
    await expect(page.getByRole("list", { name: "Latest results of Never run, newest first" })).toHaveCount(0);
  });

  await test.step("sort by last verdict: failed first, cases never run last; and back to run order", async () => {
    expect(await caseNames(page)).toEqual(["Always passes", "Flips to pass", "Always fails", "Never run"]);
    await page.getByRole("link", { name: /^Last verdict/ }).click();
    await expect(page).toHaveURL(/sort=verdict/);
    await expect.poll(() => caseNames(page)).toEqual(["Always fails", "Always passes", "Flips to pass", "Never run"]);
    await expect(page.getByRole("columnheader", { name: /Last verdict/ })).toHaveAttribute("aria-sort", "ascending");
    await page.getByRole("link", { name: /^Last verdict/ }).click();
    await expect.poll(() => caseNames(page)).toEqual(["Always passes", "Flips to pass", "Always fails", "Never run"]);
  });

  await test.step("the toolbar: Run suite is the primary button; the rest sits in a menu usable by keyboard", async () => {
    await expect(page.getByRole("button", { name: "Run suite" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Compare", exact: true })).toHaveCount(0);
    const more = page.getByRole("button", { name: "More actions" });
    await expect(more).toHaveAttribute("aria-haspopup", "menu");
    await expect(more).toHaveAttribute("aria-expanded", "false");
    await more.focus();
    await page.keyboard.press("Enter");
    await expect(more).toHaveAttribute("aria-expanded", "true");
    const menu = page.getByRole("menu", { name: "More actions" });
    await expect(menu.getByRole("menuitem", { name: "Runs & trends" })).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(menu.getByRole("menuitem", { name: "Comparisons" })).toBeFocused();
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowUp");
    await expect(menu.getByRole("menuitem", { name: "Export for Langfuse" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(menu).toHaveCount(0);
    await expect(more).toBeFocused();
    await expect(more).toHaveAttribute("aria-expanded", "false");

    // "New comparison…" opens the dialog; closing it returns focus to the menu button.
    await page.keyboard.press("ArrowDown");
    await page.getByRole("menuitem", { name: "New comparison…" }).focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "New A/B comparison" });
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(more).toBeFocused();
  });

  await test.step("the bulk bar appears only with a selection", async () => {
    const bulk = page.getByRole("region", { name: "Bulk actions" });
    await expect(bulk).toHaveCount(0);
    await page.getByLabel("Select Always fails").check();
    await expect(bulk).toBeVisible();
    await expect(bulk).toContainText("1 test case selected");
    await bulk.getByRole("button", { name: "Clear selection" }).click();
    await expect(bulk).toHaveCount(0);
  });
  await expectAccessible(page, "suite page at 1440 px");

  await test.step("at 390 px the primary action is in view and nothing scrolls sideways", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(suiteUrl);
    const run = page.getByRole("button", { name: "Run suite" });
    await expect(run).toBeInViewport();
    const box = (await run.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, "the page scrolls sideways").toBeLessThanOrEqual(1);
    await page.getByRole("button", { name: "More actions" }).click();
    const menuBox = (await page.getByRole("menu", { name: "More actions" }).boundingBox())!;
    expect(menuBox.x).toBeGreaterThanOrEqual(0);
    expect(menuBox.x + menuBox.width).toBeLessThanOrEqual(390);
    await page.keyboard.press("Escape");
  });
  await expectAccessible(page, "suite page at 390 px");
});
