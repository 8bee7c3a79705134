import { expect, test, type Browser, type Page } from "@playwright/test";
import { addFakeRules, expectAccessible, fakeSuiteOfItsOwn, runToCompletion, unique } from "./fixtures";

/**
 * Human review, the whole loop in the browser: a suite whose review rules send failed results to
 * review with two labels required; a run where the (scripted) judge fails two cases, which land
 * in the queue; one editor labels an item blind with the keyboard alone and sees the judge only
 * after saving; a second editor labels it the other way (a conflict); an admin resolves it; the
 * run's reviewed pass rate follows. axe and screenshots at 1440 and 390 px on the queue and the
 * labelling view.
 */

const JUDGE_REASONING = "The agent never explains the refund policy.";

const slug = (prefix: string) =>
  unique(prefix)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-");

/** A new editor of the workspace, signed in in a browser context of their own (kept open). */
async function editor(browser: Browser, admin: Page, workspaceId: string, name: string): Promise<Page> {
  await admin.goto(`/w/${workspaceId}/settings/members`);
  await admin.getByLabel("Email").fill(`${slug(name)}@example.test`);
  await admin.getByLabel("Role", { exact: true }).selectOption("editor");
  await admin.getByRole("button", { name: "Invite member" }).click();
  const link = await admin.getByLabel("Invite link").inputValue();
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] }, viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto(link);
  await page.getByLabel("Your name").fill(name);
  await page.getByLabel("Password").fill("reviewer-password-1");
  await page.getByRole("button", { name: "Create account and join" }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}`));
  return page;
}

/** axe and a screenshot at 1440 px, then at 390 px (where the page must not scroll sideways), back to 1440. */
async function checkWidths(page: Page, name: string) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await expectAccessible(page, `${name} at 1440 px`);
  await page.screenshot({ path: `test-results/review-${name}-1440.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page, `${name} at 390 px`);
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.scrollingElement!.scrollWidth, client: window.innerWidth }));
  expect(scroll, `${name} overflows at 390 px (${scroll} > ${client})`).toBeLessThanOrEqual(client);
  await page.screenshot({ path: `test-results/review-${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
}

test("failed results reach the queue by rule, are labelled blind by keyboard, conflict, get resolved, and move the reviewed pass rate", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  // A workspace of its own: the queue, the nav's count and the calibration hold only what this test made.
  const marker = `REVIEWSPEC${Date.now().toString(36)}`;
  const { workspaceId, token, suite } = await fakeSuiteOfItsOwn(page, {
    workspace: "Review team",
    keyLabel: "review e2e",
    agent: { name: "Refund bot", system_prompt: "You help with refunds." },
    suite: { name: "Review suite", review_rules: { failed: true, passed_sample_percent: 0, flaky: false }, required_reviews: 2 },
    cases: [
      { name: "Greets", initial_message: `Hello ${marker}`, checks: [{ type: "contains_phrases", phrases: ["Fake reply"] }] },
      {
        name: "Refund policy",
        initial_message: `Can I get a refund? ${marker}-FAIL`,
        expected_outcomes: { "Explains the refund policy": true },
      },
      {
        name: "Refund window",
        initial_message: `How long may I ask? ${marker}-FAIL`,
        expected_outcomes: { "Names the 30-day window": true },
      },
    ],
  });
  await addFakeRules(page.request, [
    {
      match: { schemaName: "outcome_verdicts", anyContains: `${marker}-FAIL` },
      reply: { json: { o1: { reasoning: JUDGE_REASONING, evidence_turns: [1], verdict: "fail" } } },
    },
  ]);
  const runId = await runToCompletion(page.request, token, suite.id);
  const headers = { authorization: `Bearer ${token}` };
  const run = async () => (await (await page.request.get(`/api/v1/runs/${runId}`, { headers })).json()) as Record<string, unknown>;
  expect(await run()).toMatchObject({ passed_cases: 1, failed_cases: 2, pass_rate: 33.3, pass_rate_reviewed: 33.3 });

  const reviewerA = await editor(browser, page, workspaceId, "Reviewer Ada");
  const reviewerB = await editor(browser, page, workspaceId, "Reviewer Bo");

  await test.step("the failed results wait in the queue of a new editor, counted in the nav", async () => {
    await reviewerA.goto(`/w/${workspaceId}/review`);
    await expect(reviewerA.getByRole("link", { name: "Review, 2 waiting" })).toBeVisible();
    const table = reviewerA.getByRole("table", { name: "Review items" });
    await expect(table.getByRole("row")).toHaveCount(3);
    const row = table.getByRole("row").filter({ hasText: "Refund policy" });
    await expect(row).toContainText("Failed (rule)");
    await expect(row).toContainText("0/2");
    await expect(table.getByRole("row").filter({ hasText: "Greets" })).toHaveCount(0);
    await checkWidths(reviewerA, "queue");
  });

  let itemUrl = "";
  await test.step("reviewer A labels blind with the keyboard alone; the judge shows only after saving", async () => {
    const a = reviewerA;
    await a.getByRole("link", { name: "Refund policy" }).click();
    await a.waitForURL(/\/review\/[0-9a-f-]{36}/);
    itemUrl = new URL(a.url()).pathname;
    await expect(a.getByRole("heading", { level: 1, name: "Refund policy" })).toBeVisible();
    await expect(a.getByTestId("review-progress")).toHaveText(/^[12] of 2$/);
    await expect(a.getByRole("region", { name: "Judge's verdict" })).toHaveCount(0);
    await expect(a.getByText(JUDGE_REASONING)).toHaveCount(0);
    await expect(a.getByText("hidden until you label")).toBeVisible();
    await checkWidths(a, "labelling-blind");

    // `?` lists the shortcuts.
    await a.keyboard.press("?");
    const help = a.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(help).toBeVisible();
    await a.keyboard.press("Escape");
    await expect(help).toBeHidden();

    await a.locator("body").click({ position: { x: 5, y: 5 } });
    await a.keyboard.press("f");
    await expect(a.getByRole("radio", { name: "Fail" })).toBeChecked();
    // The first element cycles met → not met.
    await a.keyboard.press("1");
    await a.keyboard.press("1");
    const outcome = a.getByRole("radiogroup", { name: "1. Explains the refund policy" });
    await expect(outcome.getByRole("radio", { name: "Not met" })).toBeChecked();
    await a.keyboard.press("Enter");

    const judge = a.getByRole("region", { name: "Judge's verdict" });
    await expect(judge).toBeVisible();
    await expect(judge.getByTestId("judge-overall")).toHaveText("Fail");
    await expect(judge.getByText("Agrees")).toBeVisible();
    await expect(a.getByText(JUDGE_REASONING)).toBeVisible();
    await expect(a.getByRole("link", { name: "Review, 1 waiting" })).toBeVisible();
    await checkWidths(a, "labelling-revealed");
  });

  await test.step("j and k walk the queue, keeping its filters", async () => {
    const a = reviewerA;
    await a.locator("body").click({ position: { x: 5, y: 5 } });
    const before = a.url();
    await a.keyboard.press((await a.getByTestId("review-progress").textContent()) === "1 of 2" ? "j" : "k");
    await expect(a).not.toHaveURL(before);
    await expect(a.getByRole("heading", { level: 1, name: "Refund window" })).toBeVisible();
  });

  await test.step("reviewer B labels the same item the other way: a conflict", async () => {
    const b = reviewerB;
    await b.goto(itemUrl);
    await expect(b.getByRole("region", { name: "Judge's verdict" })).toHaveCount(0);
    await b.locator("body").click({ position: { x: 5, y: 5 } });
    // Saving without a verdict is refused at the field.
    await b.keyboard.press("s");
    await expect(b.getByText("verdict must be pass or fail")).toBeVisible();
    await expect(b.getByRole("region", { name: "Judge's verdict" })).toHaveCount(0);
    await b.keyboard.press("p");
    await b.keyboard.press("c");
    await b.keyboard.type("It does explain it, in other words.");
    await b.getByRole("button", { name: "Save label" }).click();
    const judge = b.getByRole("region", { name: "Judge's verdict" });
    await expect(judge).toBeVisible();
    await expect(judge.getByText("Overturned")).toBeVisible();
    await expect(b.getByText("Conflict").first()).toBeVisible();
  });

  await test.step("an admin resolves the conflict; the run's reviewed pass rate follows", async () => {
    await page.goto(itemUrl);
    const resolve = page.getByRole("region", { name: "Resolve the conflict" });
    await resolve.getByRole("button", { name: "Resolve" }).click();
    await expect(resolve.getByText("verdict must be pass or fail")).toBeVisible();
    await resolve.getByLabel("Final verdict").selectOption("pass");
    await resolve.getByLabel("Comment").fill("The answer covers the policy.");
    await resolve.getByRole("button", { name: "Resolve" }).click();
    await expect(page.getByText("Resolved as Pass")).toBeVisible();
    await expect(page.getByRole("region", { name: "Resolve the conflict" })).toHaveCount(0);
    expect(await run()).toMatchObject({ reviewed_cases: 1, overturned_cases: 1, pass_rate: 33.3, pass_rate_reviewed: 66.7 });
  });

  await test.step("the disagreement is in the queue's filter, and its labels export", async () => {
    await page.goto(`/w/${workspaceId}/review`);
    await page.getByLabel("Status").selectOption("all");
    await page.getByLabel("Suite").selectOption({ label: suite.name });
    await page.getByLabel("Disagreements").check();
    await page.getByRole("button", { name: "Filter" }).click();
    const rows = page.getByRole("table", { name: "Review items" }).getByRole("row");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText("Refund policy");
    await expect(rows.nth(1)).toContainText("Resolved");
    const href = await page.getByRole("link", { name: "Export labels (JSONL)" }).getAttribute("href");
    expect(href).toBe(`/api/w/${workspaceId}/review-items/export?suite_id=${suite.id}`);
    const res = await page.request.get(href!);
    expect(res.status()).toBe(200);
    const lines = (await res.text()).trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("Refund policy");
  });

  await reviewerA.context().close();
  await reviewerB.context().close();
});
