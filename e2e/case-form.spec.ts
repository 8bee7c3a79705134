import { expect, test, type Page } from "@playwright/test";
import { apiPost, exactly, expectAccessible, fakeSuiteOfItsOwn, submitRefusedCase, unique } from "./fixtures";

/**
 * The test case form as a QA engineer writes a case: Create and Cancel stay on screen while a long
 * form scrolls (at 1440 and 390 px), leaving with unsaved edits asks first (Cancel keeps the edits,
 * OK leaves), the simulated user's context and turn cap appear only with a persona, a refused case
 * says why in the form's words at the field and in a linked summary, and the new case is marked New
 * and focused on the suite page.
 */

/** A workspace of its own with one suite (no case yet); answers the suite page's path. */
async function suiteOfItsOwn(page: Page, name: string): Promise<{ suiteUrl: string; token: string; suiteId: string }> {
  const { workspaceId, token, suite } = await fakeSuiteOfItsOwn(page, {
    workspace: name,
    keyLabel: "case form e2e",
    agent: { name: "Form bot", system_prompt: "You help customers." },
    suite: { name: "Form suite" },
    cases: [],
  });
  return { suiteUrl: `/w/${workspaceId}/suites/${suite.id}`, token, suiteId: suite.id };
}

/** Makes the new-case form long: a simulated user and four checks. */
async function lengthenForm(page: Page) {
  await page.getByLabel("Simulated user (multi-turn)").check();
  for (let i = 0; i < 4; i++) await page.getByRole("button", { name: "Add semantic similarity check" }).click();
  await expect(page.getByRole("group", { name: /Check 4/ })).toBeVisible();
}

test("the save bar stays in view while a long case form scrolls, at 1440 and 390 px", async ({ page }) => {
  test.setTimeout(150_000);
  const { suiteUrl } = await suiteOfItsOwn(page, "Case form sticky");
  // Reopening the form leaves the last width's edits behind: the browser's leave prompt is accepted.
  page.on("dialog", (d) => void d.accept());
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`${suiteUrl}/cases/new`);
    await lengthenForm(page);
    const create = page.getByRole("button", { name: "Create test case" });
    const cancel = page.getByRole("link", { name: "Cancel" });
    // The form is taller than the screen: its end is out of view while its top is shown.
    await page.getByRole("heading", { name: "New test case" }).scrollIntoViewIfNeeded();
    await expect(page.getByRole("group", { name: /Check 4/ })).not.toBeInViewport();
    await expect(create).toBeInViewport();
    await expect(cancel).toBeInViewport();
    // Half-way down, by the persona's fields.
    await page.getByLabel("Persona instructions").scrollIntoViewIfNeeded();
    await expect(create).toBeInViewport();
    await page.getByRole("group", { name: /Check 2/ }).scrollIntoViewIfNeeded();
    await expect(create).toBeInViewport();
    await expect(cancel).toBeInViewport();
    await expectAccessible(page, `new case form at ${width} px`);
  }
});

test("leaving with unsaved edits asks first: Cancel keeps the edits, OK leaves", async ({ page }) => {
  const { suiteUrl } = await suiteOfItsOwn(page, "Case form guard");
  const prompts: string[] = [];

  // Nothing typed yet: Cancel leaves without asking.
  await page.goto(`${suiteUrl}/cases/new`);
  page.once("dialog", (d) => {
    prompts.push(d.message());
    void d.dismiss();
  });
  await page.getByRole("link", { name: "Cancel" }).click();
  await expect(page).toHaveURL(new RegExp(`${suiteUrl}$`));
  expect(prompts).toEqual([]);
  page.removeAllListeners("dialog");

  await page.goto(`${suiteUrl}/cases/new`);
  await page.getByLabel(exactly("Name")).fill("Half-written case");
  await expect(page.getByTestId("unsaved")).toHaveText("Unsaved changes");

  // Dismissed: the page and the edits stay.
  page.once("dialog", (d) => {
    prompts.push(d.message());
    void d.dismiss();
  });
  await page.getByRole("link", { name: "Cancel" }).click();
  await expect.poll(() => prompts).toEqual(["Discard unsaved changes?"]);
  await expect(page).toHaveURL(/\/cases\/new$/);
  await expect(page.getByLabel(exactly("Name"))).toHaveValue("Half-written case");

  // Confirmed: the page is left.
  page.once("dialog", (d) => {
    prompts.push(d.message());
    void d.accept();
  });
  await page.getByRole("link", { name: "Cancel" }).click();
  await expect(page).toHaveURL(new RegExp(`${suiteUrl}$`));
  expect(prompts).toEqual(["Discard unsaved changes?", "Discard unsaved changes?"]);
});

test("user context and max turns show only with a simulated user", async ({ page }) => {
  const { suiteUrl } = await suiteOfItsOwn(page, "Case form persona");
  await page.goto(`${suiteUrl}/cases/new`);
  const persona = page.getByLabel("Simulated user (multi-turn)");
  const userContext = page.getByLabel(exactly("User context (JSON object)"));
  const maxTurns = page.getByLabel("Max turns");

  await expect(persona).not.toBeChecked();
  await expect(userContext).toHaveCount(0);
  await expect(maxTurns).toHaveCount(0);
  await expect(page.getByLabel("Persona type")).toHaveCount(0);

  await persona.check();
  await expect(userContext).toBeVisible();
  await expect(maxTurns).toBeVisible();
  await expect(page.getByLabel("Persona type")).toBeVisible();

  await persona.uncheck();
  await expect(userContext).toHaveCount(0);
  await expect(maxTurns).toHaveCount(0);
});

test("a refused case says why in the form's words, at the field and in a linked summary", async ({ page }) => {
  const { suiteUrl } = await suiteOfItsOwn(page, "Case form errors");
  await page.goto(`${suiteUrl}/cases/new`);
  // Active (the default) without an initial message or a simulated user cannot run.
  const check = await submitRefusedCase(page, "Nothing to ask yet");

  const runnable = "An active case needs an initial message or a simulated user to run";
  const status = page.getByLabel(exactly("Status"));
  await expect(page.getByTestId("error-status")).toContainText(runnable);
  await expect(status).toHaveAttribute("aria-invalid", "true");
  await expect(status).toHaveAccessibleDescription(new RegExp(runnable));
  await expect(page.getByTestId("error-checks.0.threshold")).toHaveText("Threshold must be between 0 and 1");

  const summary = page.getByRole("alert").filter({ hasText: "Please fix the highlighted fields" });
  await expect(summary).toContainText(`Status: ${runnable}`);
  await expect(summary).toContainText("Check 1 · Threshold: Threshold must be between 0 and 1");
  // No API field names or the API's wording anywhere the user reads.
  for (const apiWords of ["initial_message", "without persona", "can only be a draft", "checks.0"]) {
    await expect(summary).not.toContainText(apiWords);
    await expect(page.getByTestId("error-status")).not.toContainText(apiWords);
  }
  // Each entry leads to its field.
  await summary.getByRole("link", { name: "Status", exact: true }).click();
  await expect(status).toBeFocused();
  await summary.getByRole("link", { name: "Check 1 · Threshold" }).click();
  await expect(check.getByLabel("Threshold (0 to 1)")).toBeFocused();
  await expect(page).toHaveURL(/\/cases\/new$/);

  // As a draft it is accepted: the status was the only thing in the way, besides the threshold.
  await status.selectOption("draft");
  await check.getByLabel("Threshold (0 to 1)").fill("0.8");
  await page.getByRole("button", { name: "Create test case" }).click();
  await expect(page).toHaveURL(new RegExp(`${suiteUrl}$`));
});

test("after creating, the suite page marks the new case New and focuses it", async ({ page }) => {
  const { suiteUrl, token, suiteId } = await suiteOfItsOwn(page, "Case form created");
  // Enough older cases that the new one lands among others.
  for (const name of ["Alpha case", "Beta case", "Gamma case"]) {
    await apiPost(page.request, token, `/api/v1/suites/${suiteId}/test-cases`, { name, initial_message: `Hello from ${name}` });
  }
  await page.goto(`${suiteUrl}/cases/new`);
  const name = unique("Refund status");
  await page.getByLabel(exactly("Name")).fill(name);
  await page.getByLabel("Initial message").fill("Where is my refund?");
  await page.getByRole("button", { name: "Create test case" }).click();

  await expect(page.getByText("Test case created.")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${suiteUrl}$`));
  const table = page.getByRole("table", { name: "Test cases" });
  const link = table.getByRole("link", { name, exact: true });
  const row = table.getByRole("row").filter({ has: page.getByRole("link", { name, exact: true }) });
  await expect(row).toContainText("New");
  await expect(link).toBeFocused();
  // Only the new case is marked.
  await expect(table.getByRole("row").filter({ has: page.getByText("New", { exact: true }) })).toHaveCount(1);
  // Enter on the focused link opens the case.
  await page.keyboard.press("Enter");
  await expect(page.getByLabel(exactly("Name"))).toHaveValue(name);
});
