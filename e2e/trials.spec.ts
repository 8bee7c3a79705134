import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { FAKE_OPENAI_URL, apiPost, createApiKey, createFakeModelConfig, expectAccessible, openWorkspace, unique } from "./fixtures";

/**
 * Trials in the browser: a run of three cases × three trials where the fake model gets one case
 * wrong on its first trial only. The run page fills each case's trial strip live, labels the
 * cases Stable pass / Flaky / Stable fail and filters by that, shows pass@1 as the stored verdicts
 * give it; the case view selects between the case's trials and shows its history strip and flip
 * rate; "Re-run flaky" starts a run of the flaky case that says which run it re-ran.
 */

const FAKE_CONTROL = FAKE_OPENAI_URL.replace(/\/v1$/, "");

type Result = { test_case_id: string; status: string; trial: number };

/** A suite whose checks need the fake model's default reply ("Fake reply: …"); one case can never pass. */
async function createSuite(request: APIRequestContext, token: string, marker: string) {
  const config = await createFakeModelConfig(request, token, "Trials model");
  const agent = await apiPost(request, token, "/api/v1/agents", {
    name: unique("Trials bot"),
    kind: "chat",
    system_prompt: `You answer briefly. (${marker})`,
    model_config_id: config.id,
  });
  const suite = await apiPost(request, token, "/api/v1/suites", {
    agent_id: agent.id,
    name: unique("Trials suite"),
    llm_judge_model_config_id: config.id,
  });
  const cases = [
    { name: "Always passes", initial_message: `Hello ${marker}`, phrases: ["Fake reply"] },
    { name: "Coin flip", initial_message: `Flip a coin ${marker}`, phrases: ["Fake reply"] },
    { name: "Never passes", initial_message: `Say the password ${marker}`, phrases: ["open sesame"] },
  ];
  for (const c of cases) {
    await apiPost(request, token, `/api/v1/suites/${suite.id}/test-cases`, {
      name: c.name,
      initial_message: c.initial_message,
      checks: [{ type: "contains_phrases", phrases: c.phrases }],
    });
  }
  return suite.id;
}

/** pass@1 from the stored verdicts: the mean over judged cases of passed / judged trials, as a whole percent. */
async function passAt1FromVerdicts(request: APIRequestContext, token: string, runId: string): Promise<string> {
  const res = await request.get(`/api/v1/runs/${runId}/results?limit=100`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok()).toBe(true);
  const results = ((await res.json()) as { data: Result[] }).data;
  expect(results).toHaveLength(9);
  const byCase = new Map<string, Result[]>();
  for (const r of results) byCase.set(r.test_case_id, [...(byCase.get(r.test_case_id) ?? []), r]);
  const rates = [...byCase.values()]
    .map((trials) => trials.filter((t) => t.status !== "error"))
    .filter((judged) => judged.length > 0)
    .map((judged) => judged.filter((t) => t.status === "passed").length / judged.length);
  return `${Math.round((rates.reduce((a, b) => a + b, 0) / rates.length) * 100)}%`;
}

/**
 * The page fits 390 px wide: no horizontal overflow of main nor of the page (the sidebar is a menu
 * there). Screenshots at both widths to look at.
 */
async function expectFitsPhone(page: Page, main: Locator, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}-1440.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  const { scroll, client } = await main.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(scroll, `the page overflows at 390 px (${scroll} > ${client})`).toBeLessThanOrEqual(client);
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth), `${name} scrolls sideways`).toBeLessThanOrEqual(390);
  await page.screenshot({ path: test.info().outputPath(`${name}-390.png`), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
}

test("a run with three trials: strips fill live, a flaky case is labelled and filtered, its trials and history open, and it re-runs", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const workspaceId = await openWorkspace(page);
  const token = await createApiKey(page, workspaceId, "trials e2e");
  const marker = `TRIALSPEC${Date.now().toString(36)}`;
  const suiteId = await createSuite(page.request, token, marker);
  // The coin flip is answered wrong once (its first trial: trials run in order at concurrency 1);
  // every other reply of this spec is slowed down so the page sees the trials arrive.
  const rules = [
    { match: { endpoint: "chat", lastUserContains: `Flip a coin ${marker}` }, reply: { content: "Hmm." }, times: 1 },
    { match: { endpoint: "chat", anyContains: marker }, reply: { delayMs: 400 } },
  ];
  expect((await page.request.post(`${FAKE_CONTROL}/__fake/rules`, { data: rules })).ok()).toBe(true);

  const run = await apiPost(page.request, token, `/api/v1/suites/${suiteId}/runs`, { trials: 3, concurrency: 1 });
  await page.goto(`/w/${workspaceId}/runs/${run.id}`);
  const cases = page.getByRole("region", { name: "Cases", exact: true });
  const strip = (name: string) => cases.getByRole("list", { name: `Trials of ${name}` });

  await test.step("the strips fill as trials finish, without a reload", async () => {
    await expect(strip("Always passes").getByRole("link")).toHaveCount(3);
    await expect(strip("Always passes").getByRole("link", { name: "Trial 3: pending" })).toBeVisible();
    await expect(strip("Always passes").getByRole("link", { name: "Trial 3: passed" })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole("heading", { level: 1 }).getByText("Completed")).toBeVisible({ timeout: 30_000 });
  });

  await test.step("marks, stability labels and the stability filter", async () => {
    const coin = strip("Coin flip");
    await expect(coin.getByRole("link")).toHaveText(["✗", "✓", "✓"]);
    await expect(coin.getByRole("link", { name: "Trial 1: failed" })).toBeVisible();
    await expect(coin.getByRole("link", { name: "Trial 2: passed" })).toHaveAttribute(
      "href",
      new RegExp(`/w/${workspaceId}/runs/${run.id}/cases/[0-9a-f-]{36}$`),
    );
    await expect(strip("Never passes").getByRole("link", { name: /^Trial \d: failed$/ })).toHaveCount(3);
    const row = (name: string) => cases.getByRole("row").filter({ hasText: name });
    await expect(row("Always passes")).toContainText("Stable pass");
    await expect(row("Coin flip")).toContainText("Flaky");
    await expect(row("Coin flip")).toContainText("2 of 3 passed");
    await expect(row("Never passes")).toContainText("Stable fail");

    await cases.getByLabel("Stability").selectOption("flaky");
    await expect(cases.getByRole("row")).toHaveCount(2);
    await expect(cases.getByRole("row").nth(1)).toContainText("Coin flip");
    await expect(page).toHaveURL(/[?&]stability=flaky/);
    // The filter is in the address: a reload shows the same list.
    await page.reload();
    await expect(cases.getByLabel("Stability")).toHaveValue("flaky");
    await expect(cases.getByRole("row")).toHaveCount(2);
    await cases.getByLabel("Stability").selectOption("stable_fail");
    await expect(cases.getByRole("row")).toHaveCount(2);
    await expect(cases.getByRole("row").nth(1)).toContainText("Never passes");
    await cases.getByLabel("Stability").selectOption("");
    await expect(cases.getByRole("row")).toHaveCount(4);
  });

  await test.step("the summary's pass@1 is the stored verdicts' and counts the flaky case", async () => {
    const expected = await passAt1FromVerdicts(page.request, token, run.id);
    await expect(page.getByTestId("run-summary-pass-at-1")).toHaveText(new RegExp(`^${expected} \\(95% CI \\d+–\\d+%\\)$`));
    await expect(page.getByTestId("run-summary-flaky")).toHaveText("1");
    await expect(page.getByTestId("run-summary-pass-all-k")).toHaveText("33%");
    await expectAccessible(page, "run page with trials");
    await expectFitsPhone(page, page.getByRole("main"), "run-page");
  });

  await test.step("the case view: the trials of the case and its history strip", async () => {
    await strip("Coin flip").getByRole("link", { name: "Trial 1: failed" }).click();
    await page.waitForURL(new RegExp(`/runs/${run.id}/cases/[0-9a-f-]{36}$`));
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Coin flip");
    const trials = page.getByRole("navigation", { name: "Trials of this case" });
    await expect(trials.getByRole("link")).toHaveText(["Trial 1 · failed", "Trial 2 · passed", "Trial 3 · passed"]);
    await expect(trials.getByRole("link", { name: /^Trial 1/ })).toHaveAttribute("aria-current", "page");
    await expect(trials.getByRole("link", { name: /^Trial 2/ })).not.toHaveAttribute("aria-current", /.*/);

    const history = page.getByRole("list", { name: "Latest results of this case" });
    await expect(history.getByRole("link")).toHaveCount(3);
    await expect(history.getByRole("link").first()).toHaveAccessibleName(/^Run #1, trial 1, .+: failed$/);
    await expect(history.getByRole("link", { name: /^Run #1, trial 1, .+: failed$/ })).toHaveAttribute("aria-current", "page");
    // Judged oldest to newest: failed, passed, passed: one flip over two steps.
    await expect(page.getByTestId("case-flip-rate")).toHaveText("Flip rate 0.50 over 3 judged results");
    await expectAccessible(page, "case view with trials");
    await expectFitsPhone(page, page.getByRole("main"), "case-view");

    // Keyboard: the next trial is reachable and opens with Enter.
    const second = trials.getByRole("link", { name: /^Trial 2/ });
    await second.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("navigation", { name: "Trials of this case" }).getByRole("link", { name: /^Trial 2/ })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expect(page.getByTestId("case-flip-rate")).toHaveText("Flip rate 0.50 over 3 judged results");
  });

  await test.step("Re-run flaky starts a run of the flaky case that links back", async () => {
    await page.goto(`/w/${workspaceId}/runs/${run.id}`);
    const rerun = page.getByRole("group", { name: "Re-run" });
    await expect(rerun.getByRole("button")).toHaveText(["Re-run failed", "Re-run flaky", "Re-run all"]);
    await rerun.getByRole("button", { name: "Re-run flaky" }).click();
    await page.waitForURL((url) => /\/runs\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.endsWith(run.id));
    const origin = page.getByRole("link", { name: "Re-run of #1" });
    await expect(origin).toBeVisible();
    await expect(origin).toHaveAttribute("href", `/w/${workspaceId}/runs/${run.id}`);
    await expect(page.getByRole("heading", { level: 1 }).getByText("Completed")).toBeVisible({ timeout: 30_000 });
    // Only the flaky case, three trials again; the model now answers it right every time.
    const cases2 = page.getByRole("region", { name: "Cases", exact: true });
    await expect(cases2.getByRole("row")).toHaveCount(2);
    await expect(cases2.getByRole("list", { name: "Trials of Coin flip" }).getByRole("link")).toHaveText(["✓", "✓", "✓"]);
    await expectAccessible(page, "re-run page");
  });
});
