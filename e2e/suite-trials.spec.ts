import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { createApiKey, createFakeModelConfig, expectAccessible, openWorkspace, unique } from "./fixtures";

/**
 * Trials on the suite side: the suite's default trials feed the run dialog, the dialog starts a
 * run with its trials (every trial a case result), the runs page lists flaky cases (empty, then
 * a case whose verdict flips between runs) and draws each run's pass@1 interval; axe-clean at
 * desktop and phone widths.
 */

type Run = { id: string; status: string; trials: number; total_cases: number };

function api(request: APIRequestContext, token: string) {
  const headers = { authorization: `Bearer ${token}` };
  return {
    async send<T>(method: "post" | "patch", path: string, data: unknown): Promise<T> {
      const res = await request[method](`/api/v1${path}`, { headers, data });
      expect(res.status(), `${method.toUpperCase()} ${path}: ${await res.text()}`).toBeLessThan(300);
      return (await res.json()) as T;
    },
    async get<T>(path: string): Promise<T> {
      const res = await request.get(`/api/v1${path}`, { headers });
      expect(res.status(), path).toBe(200);
      return (await res.json()) as T;
    },
  };
}

/** The fake model answers "Fake reply: <question>", so a phrase check passes exactly when the phrase is in the question. */
const contains = (phrase: string) => [{ type: "contains_phrases", phrases: [phrase] }];

async function openRunDialog(page: Page) {
  await page.getByRole("button", { name: "Run suite" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Run suite" });
  await expect(dialog).toBeVisible();
  return dialog;
}

test("trials: suite default in the run dialog, a run with 2 trials, flaky cases and the pass@1 band", async ({ page, request }) => {
  // Four runs and four axe passes: more than the default minute on a shared machine.
  test.setTimeout(240_000);
  const workspaceId = await openWorkspace(page);
  const token = await createApiKey(page, workspaceId, "trials key");
  const v1 = api(request, token);
  const model = await createFakeModelConfig(request, token, "Trials model");
  const agent = await v1.send<{ id: string }>("post", "/agents", {
    name: unique("Trials agent"),
    kind: "chat",
    system_prompt: "Be brief.",
    model_config_id: model.id,
  });
  const suiteName = unique("Trials suite");
  const suite = await v1.send<{ id: string; default_trials: number }>("post", "/suites", { agent_id: agent.id, name: suiteName });
  expect(suite.default_trials).toBe(1);
  const greets = await v1.send<{ id: string }>("post", `/suites/${suite.id}/test-cases`, {
    name: "Greets",
    initial_message: "Say hello",
    checks: contains("hello"),
  });
  const others = [
    { name: "Fruit", message: "Repeat banana", phrase: "banana" },
    { name: "Colour", message: "Name a colour: blue", phrase: "blue" },
  ];
  for (const c of others) {
    await v1.send("post", `/suites/${suite.id}/test-cases`, { name: c.name, initial_message: c.message, checks: contains(c.phrase) });
  }
  const base = `/w/${workspaceId}/suites/${suite.id}`;

  await test.step("the settings form sets default_trials; out of range is named at the field", async () => {
    await page.goto(`${base}/settings`);
    const field = page.getByLabel("Default trials");
    await expect(field).toHaveValue("1");
    await expect(page.getByText("used by schedules and by runs that do not say")).toBeVisible();
    await field.fill("21");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByText("trials must be at most 20")).toBeVisible();
    await field.fill("3");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
    expect((await v1.get<{ default_trials: number }>(`/suites/${suite.id}`)).default_trials).toBe(3);
  });

  let runId = "";
  await test.step("the run dialog starts from the suite's default and states the agent executions", async () => {
    await page.goto(base);
    const dialog = await openRunDialog(page);
    const trials = dialog.getByLabel("Trials");
    await expect(trials).toHaveValue("3");
    await expect(dialog.getByTestId("trials-estimate")).toHaveText("3 trials × 3 cases = 9 agent executions");
    await expectAccessible(page, "run dialog");

    // Out of range: an inline error, and nothing starts.
    await trials.fill("21");
    await expect(dialog.getByText("Use a whole number from 1 to 20")).toBeVisible();
    await expect(trials).toHaveAttribute("aria-invalid", "true");
    await dialog.getByRole("button", { name: "Start run" }).click();
    await expect(dialog).toBeVisible();

    await trials.fill("2");
    await expect(dialog.getByTestId("trials-estimate")).toHaveText("2 trials × 3 cases = 6 agent executions");
    // Keyboard: the submit button is reachable and starts the run.
    await dialog.getByRole("button", { name: "Start run" }).focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
    runId = /\/runs\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
  });

  await test.step("the run has 2 × 3 results", async () => {
    const progress = page.getByRole("progressbar", { name: "Run progress" });
    await expect(progress).toHaveAttribute("aria-valuemax", "6");
    await expect(progress).toHaveAttribute("aria-valuenow", "6", { timeout: 30_000 });
    await expect.poll(async () => (await v1.get<Run>(`/runs/${runId}`)).status, { timeout: 30_000, intervals: [250] }).toBe("completed");
    expect(await v1.get<Run>(`/runs/${runId}`)).toMatchObject({ trials: 2, total_cases: 6 });
  });

  const runsPage = `${base}/runs`;
  const flakyCard = page.getByRole("region", { name: "Flaky cases" });
  await test.step("no flaky case yet: every trial of each case agreed", async () => {
    await page.goto(runsPage);
    await expect(flakyCard.getByText("No flaky cases in the last 20 runs")).toBeVisible();
    await expect(flakyCard.getByRole("list", { name: "Flaky cases" })).toHaveCount(0);
  });

  await test.step("a case whose verdict flips between runs is listed with its flip rate", async () => {
    // Greets passed twice (the dialog's run), then fails once and passes again: 2 flips in 4 results.
    const runOnce = async () => {
      const run = await v1.send<Run>("post", `/suites/${suite.id}/runs`, { trials: 1 });
      await expect.poll(async () => (await v1.get<Run>(`/runs/${run.id}`)).status, { timeout: 30_000, intervals: [250] }).toBe("completed");
    };
    await v1.send("patch", `/test-cases/${greets.id}`, { checks: contains("goodbye") });
    await runOnce();
    await v1.send("patch", `/test-cases/${greets.id}`, { checks: contains("hello") });
    await runOnce();

    await page.goto(runsPage);
    const rows = flakyCard.getByRole("list", { name: "Flaky cases" }).getByRole("listitem");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("67% flip rate · 2 flips in 4 results");
    await expect(rows.first().getByRole("link", { name: "Greets" })).toHaveAttribute("href", `${base}/cases/${greets.id}`);
  });

  await test.step("the trend states each run's pass@1 and its interval", async () => {
    const trendRows = page.getByRole("table", { name: "Pass rate per run" }).getByRole("row");
    await expect(trendRows).toHaveCount(4);
    const header = trendRows.first();
    await expect(header.getByRole("columnheader", { name: "pass@1" })).toHaveCount(1);
    await expect(header.getByRole("columnheader", { name: "95% interval" })).toHaveCount(1);
    // The first run: every case passed both trials, pass@1 100% with an interval from the summary.
    await expect(trendRows.nth(1).getByRole("cell").nth(4)).toHaveText("100%");
    await expect(trendRows.nth(1).getByRole("cell").nth(5)).toHaveText(/^\d+(\.\d)?%–\d+(\.\d)?%$/);
    // The second: Greets failed, 2 of 3.
    await expect(trendRows.nth(2).getByRole("cell").nth(4)).toHaveText("66.7%");
  });

  await test.step("accessible at 1440 px and 390 px", async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await expectAccessible(page, "suite runs page with flaky cases");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(flakyCard.getByRole("link", { name: "Greets" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Pass rate trend" })).toBeVisible();
    await expectAccessible(page, "suite runs page at 390 px");
    await page.goto(base);
    await expectAccessible(page, "suite page at 390 px");
    const dialog = await openRunDialog(page);
    await expect(dialog.getByLabel("Trials")).toBeVisible();
    await expectAccessible(page, "run dialog at 390 px");
  });
});
