import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { addFakeRules, createApiKey, createFakeSuite, createWorkspace, expectAccessible, runToCompletion, unique } from "./fixtures";

/**
 * The morning path of a QA lead on a red run: a 300-case run with 40 failures (30 missing
 * phrases of a contains check, 10 judged "not met" with a reason) and 3 errors. Open the run:
 * failures come first, the chips count them, "1–50 of 300", and the first failure's row says why.
 * Open it, move through five failures with the buttons and the keyboard in the table's order,
 * go back to the run, search, re-run two selected failures. The same at 390 px wide; axe at both widths. The agent is the fake
 * server's default echo; the judge and the errors are scripted by rules keyed to this spec's marker.
 *
 * Clicks on the path (run page open): 1 to open the first failure, 2 for "Next failure" (three
 * more steps by key), 1 for "Back to the run": 4 clicks and 3 key presses for five failures' reasons.
 */

const CASES = 300;
/** Failures at every 7th case from the 4th (40 of them); every 4th of those is judged, the rest miss phrases. */
const FAILING = Array.from({ length: 40 }, (_, k) => 3 + 7 * k);
const JUDGED = new Set(FAILING.filter((_, k) => k % 4 === 1));
const ERRORING = new Set([5, 152, 299]);
const MISSING = ["refund policy", "30 days"];
const JUDGE_REASON = "The agent never offered a refund.";

const caseName = (i: number) => `Case ${String(i + 1).padStart(3, "0")}`;

/** The run's cases: most pass (no expectations), 30 miss phrases, 10 are judged not met, 3 hit an agent error. */
function testCases(marker: string) {
  const failing = new Set(FAILING);
  return Array.from({ length: CASES }, (_, i) => ({
    name: caseName(i),
    initial_message: ERRORING.has(i) ? `Question ${i} ERR-${marker}` : `Question ${i} (${marker})`,
    tags: [i % 2 ? "odd" : "even"],
    ...(failing.has(i) && !JUDGED.has(i) ? { checks: [{ type: "contains_phrases", phrases: MISSING }] } : {}),
    ...(JUDGED.has(i) ? { expected_outcomes: { "Offers a refund": true } } : {}),
  }));
}

async function makeRedRun(request: APIRequestContext, token: string) {
  const marker = `TRIAGE${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  const suite = await createFakeSuite(request, token, { agent: { name: "Triage bot" }, suite: { name: "Nightly support" } });
  const imported = await request.post(`/api/v1/suites/${suite.id}/test-cases/import`, {
    headers: { authorization: `Bearer ${token}` },
    data: testCases(marker),
  });
  expect(imported.status(), await imported.text()).toBe(201);
  await addFakeRules(request, [
    { match: { lastUserContains: `ERR-${marker}` }, reply: { status: 400 } },
    {
      match: { schemaName: "outcome_verdicts", anyContains: marker },
      reply: { json: { o1: { reasoning: JUDGE_REASON, evidence_turns: [1], verdict: "fail" } } },
    },
  ]);
  return runToCompletion(request, token, suite.id, { concurrency: 32 });
}

const caseTable = (page: Page) => page.getByRole("table", { name: "Case results" });
/** The case links of the table's rows, in order. */
const rowNames = async (page: Page) => caseTable(page).getByRole("row").getByRole("link").allInnerTexts();

/** The failures in the table's order as the run page shows them: failures first, in case order. */
const FAILURE_NAMES = FAILING.map(caseName);

async function expectTriageList(page: Page) {
  await expect(page.getByRole("button", { name: "Failed 40" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Errors 3" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Passed 257" })).toBeVisible();
  await expect(page.getByTestId("case-range")).toHaveText("1–50 of 300");
  const first = caseTable(page).getByRole("row").nth(1);
  await expect(first.getByRole("link")).toHaveText(FAILURE_NAMES[0]!);
  await expect(first.getByTestId("case-row-reason")).toHaveText("Missing phrases “refund policy”, “30 days”");
}

async function expectCase(page: Page, name: string, failureIndex: number) {
  await expect(page.getByRole("heading", { level: 1 })).toContainText(name);
  await expect(page.getByTestId("case-nav-position")).toContainText(`${failureIndex} of 40 failures`);
}

test("the morning path: a red run's failures, each reason one click away, next failure by key, at 1440 and 390 px", async ({ page }) => {
  // A 300-case run is made and executed first (about 10 s alone, more on a busy machine).
  test.setTimeout(150_000);
  const workspaceId = await createWorkspace(page, unique("Triage"));
  const token = await createApiKey(page, workspaceId, "triage e2e");
  const runId = await makeRedRun(page.request, token);
  const runUrl = `/w/${workspaceId}/runs/${runId}`;

  await test.step("1440 px: failures first with their reasons, chip counts and the range", async () => {
    await page.setViewportSize({ width: 1440, height: 1000 });
    await page.goto(runUrl);
    await expectTriageList(page);
    expect((await rowNames(page)).slice(0, 40)).toEqual(FAILURE_NAMES);
    const judged = caseTable(page)
      .getByRole("row")
      .filter({ hasText: caseName(FAILING[1]!) });
    await expect(judged.getByTestId("case-row-reason")).toHaveText(`Outcome not met: Offers a refund — ${JUDGE_REASON}`);
    const errored = caseTable(page).getByRole("row").nth(41);
    await expect(errored.getByRole("link")).toHaveText(caseName(5));
    await expect(errored.getByTestId("case-row-reason")).toContainText("Agent error:");
    await expectAccessible(page, "run page triage (1440)");
  });

  await test.step("open the first failure, then next failure five times by button and key, in the table's order", async () => {
    await caseTable(page).getByRole("link", { name: FAILURE_NAMES[0]! }).click();
    await expectCase(page, FAILURE_NAMES[0]!, 1);
    await expect(page.getByTestId("case-reason")).toContainText("1 of 1 check failed");
    await expectAccessible(page, "case view with navigation (1440)");
    const urls = new Set([page.url()]);
    const steps: ("click" | "j" | "]")[] = ["click", "j", "]", "click", "j"];
    for (const [n, step] of steps.entries()) {
      if (step === "click") await page.getByRole("link", { name: "Next failure →" }).click();
      else await page.keyboard.press(step);
      await expectCase(page, FAILURE_NAMES[n + 1]!, n + 2);
      urls.add(page.url());
    }
    expect(urls.size).toBe(6);
    await page.keyboard.press("k");
    await expectCase(page, FAILURE_NAMES[4]!, 5);
    await page.getByRole("link", { name: /^← Back to (the )?run$/ }).click();
    await expect(page).toHaveURL(new RegExp(`${runUrl}$`));
    await expectTriageList(page);
  });

  await test.step("search narrows the table and the case view keeps it", async () => {
    const search = page.getByLabel("Search cases");
    await search.fill("Case 01");
    await expect(page.getByTestId("case-range")).toHaveText("1–10 of 10");
    await expect(page).toHaveURL(/q=Case\+01/);
    await expect(page.getByRole("button", { name: "Failed 2" })).toBeVisible();
    expect(await rowNames(page)).toEqual([
      "Case 011",
      "Case 018",
      "Case 010",
      "Case 012",
      "Case 013",
      "Case 014",
      "Case 015",
      "Case 016",
      "Case 017",
      "Case 019",
    ]);
    await caseTable(page).getByRole("link", { name: "Case 011" }).click();
    await expect(page.getByTestId("case-nav-position")).toContainText("1 of 2 failures");
    await page.getByRole("link", { name: "Next failure →" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Case 018");
    await expect(page.getByTestId("case-nav-position")).toContainText("2 of 2 failures");
  });

  await test.step("the bulk bar appears with selected rows and re-runs just their cases", async () => {
    await page.goto(`${runUrl}?status=failed`);
    const bar = page.getByRole("group", { name: "Selected case results" });
    await expect(bar).toHaveCount(0);
    await page.getByLabel(`Select ${FAILURE_NAMES[0]}`).check();
    await page.getByLabel(`Select ${FAILURE_NAMES[1]}`).check();
    await expect(bar).toContainText("2 selected");
    await expect(bar.getByRole("button", { name: "Send to review" })).toBeVisible();
    await bar.getByRole("button", { name: "Re-run selected" }).click();
    await page.waitForURL((url) => /\/runs\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.endsWith(runId));
    await expect(page.getByRole("link", { name: "Re-run of #1" })).toBeVisible();
    const rerunId = /\/runs\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    const rerun = await page.request.get(`/api/v1/runs/${rerunId}`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await rerun.json()) as { total_cases: number }).total_cases).toBe(2);
  });

  await test.step("390 px: the same path on a phone", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(runUrl);
    await expectTriageList(page);
    await expectAccessible(page, "run page triage (390)");
    await caseTable(page).getByRole("link", { name: FAILURE_NAMES[0]! }).click();
    await expectCase(page, FAILURE_NAMES[0]!, 1);
    await page.keyboard.press("j");
    await expectCase(page, FAILURE_NAMES[1]!, 2);
    await page.getByRole("link", { name: "Next failure →" }).click();
    await expectCase(page, FAILURE_NAMES[2]!, 3);
    await expectAccessible(page, "case view with navigation (390)");
  });
});
