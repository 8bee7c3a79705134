import { expect, test, type APIRequestContext } from "@playwright/test";
import { addFakeRules, createApiKey, createFakeModelConfig, openWorkspace, passRateTrendRows, unique } from "./fixtures";

function api(request: APIRequestContext, token: string) {
  const headers = { authorization: `Bearer ${token}` };
  return {
    async post<T>(path: string, data: unknown, status = 201): Promise<T> {
      const res = await request.post(`/api/v1${path}`, { headers, data });
      expect(res.status(), `${path}: ${await res.text()}`).toBe(status);
      return (await res.json()) as T;
    },
    async get<T>(path: string): Promise<T> {
      const res = await request.get(`/api/v1${path}`, { headers });
      expect(res.status(), path).toBe(200);
      return (await res.json()) as T;
    },
  };
}

type Run = { id: string; status: string; passed_cases: number; failed_cases: number; pass_rate: number };

test("the suite's runs page charts the pass-rate trend and lists every run", async ({ page, request }) => {
  const workspaceId = await openWorkspace(page);
  const token = await createApiKey(page, workspaceId, "trends key");
  const v1 = api(request, token);

  // A model config at the fake OpenAI server, a chat agent, a suite with a judge and three cases.
  // The fake answers "Fake reply: <question>", so the phrase checks decide pass/fail deterministically.
  const model = await createFakeModelConfig(request, token, "Fake model");
  // The marker in the agent's prompt scopes this test's fake rule to its own calls.
  const marker = `TRENDSPEC${Date.now().toString(36)}`;
  const agent = await v1.post<{ id: string }>("/agents", {
    name: unique("Trend agent"),
    kind: "chat",
    system_prompt: `Be brief. (${marker})`,
    model_config_id: model.id,
  });
  const suiteName = unique("Trend suite");
  // One metric, judged by the fake's schema-shaped answer; threshold 0 keeps the checks in charge
  // of pass/fail, and each run's summary gets an average score for the metric chart.
  const suite = await v1.post<{ id: string }>("/suites", {
    agent_id: agent.id,
    name: suiteName,
    llm_judge_model_config_id: model.id,
    metrics: [{ metric: "relevance", threshold: 0 }],
  });
  const contains = (phrase: string) => [{ type: "contains_phrases", phrases: [phrase] }];
  await v1.post(`/suites/${suite.id}/test-cases`, {
    name: "Greets",
    initial_message: "Say hello",
    tags: ["smoke", "greeting"],
    checks: contains("hello"),
  });
  await v1.post(`/suites/${suite.id}/test-cases`, {
    name: "Says goodbye",
    initial_message: "Say hi",
    tags: ["smoke"],
    checks: contains("goodbye"),
  });
  await v1.post(`/suites/${suite.id}/test-cases`, {
    name: "Fruit",
    initial_message: "Repeat banana",
    tags: ["fruit"],
    checks: contains("banana"),
  });

  const runToEnd = async (options: Record<string, unknown>) => {
    const started = await v1.post<Run>(`/suites/${suite.id}/runs`, options, 202);
    let run = started;
    await expect
      .poll(async () => (run = await v1.get<Run>(`/runs/${started.id}`)).status, { timeout: 30_000, intervals: [250] })
      .toBe("completed");
    return run;
  };
  // All three cases (2 of 3 pass), then only the "smoke" ones (1 of 2 pass).
  const first = await runToEnd({});
  expect(first).toMatchObject({ passed_cases: 2, failed_cases: 1, pass_rate: 66.7 });
  const second = await runToEnd({ tags: ["smoke"] });
  expect(second).toMatchObject({ passed_cases: 1, failed_cases: 1, pass_rate: 50 });

  // The suites list: the last pass rate and a sparkline of the completed runs.
  await page.goto(`/w/${workspaceId}/suites`);
  const listRow = page.getByTestId("suite-row").filter({ hasText: suiteName });
  await expect(listRow.getByRole("img", { name: "Pass rate over the last 2 runs: 66.7% → 50%" })).toBeVisible();
  await expect(listRow.getByRole("cell").filter({ hasText: /^50%$/ })).toBeVisible();
  const listed = await v1.get<{ data: { id: string; last_pass_rate: number | null; recent_pass_rates: number[] }[] }>("/suites");
  expect(listed.data.find((s) => s.id === suite.id)).toMatchObject({ last_pass_rate: 50, recent_pass_rates: [66.7, 50] });

  await page.goto(`/w/${workspaceId}/suites/${suite.id}/runs`);
  await expect(page.getByRole("heading", { level: 1, name: suiteName })).toBeVisible();
  await expect(page.getByRole("link", { name: "← Test cases" })).toHaveAttribute("href", `/w/${workspaceId}/suites/${suite.id}`);
  await expect(page.getByRole("button", { name: "Run suite" })).toBeVisible();

  // The trend chart: a heading, an image with a summary, and its data table (oldest first), by run number.
  await expect(page.getByRole("heading", { name: "Pass rate trend" })).toBeVisible();
  const trendRows = await passRateTrendRows(
    page,
    "Pass rate per run over the last 2 finished runs (#1 to #2): from 66.7% in #1 to 50% in #2, the latest.",
    3,
  );
  await expect(trendRows.nth(1).getByRole("cell")).toHaveText([
    "#1",
    /UTC$/,
    "Completed",
    "66.7%",
    // pass@1 and its 95% interval, from the run's summary.
    "66.7%",
    /^\d+(\.\d)?%–\d+(\.\d)?%$/,
    "2",
    "1",
    "0",
    "0",
    "3",
    "—",
  ]);
  await expect(trendRows.nth(2).getByRole("cell").first()).toHaveText("#2");
  await expect(trendRows.nth(2)).toContainText("50%");

  // Hovering near the newest point shows its counts; clicking opens that run.
  const chart = page.getByRole("img", { name: /Pass rate per run/ });
  const box = (await chart.boundingBox())!;
  const x = box.x + box.width - 40;
  const y = box.y + box.height / 2;
  // Retried: the chart follows the mouse once the page has hydrated.
  await expect(async () => {
    await page.mouse.move(x - 20, y);
    await page.mouse.move(x, y, { steps: 2 });
    await expect(page.getByText("Click to open the run")).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByText("1 passed · 1 failed · 0 errors · 0 skipped of 2")).toBeVisible();
  await expect(page.getByText(/^Run #2 · /)).toBeVisible();
  await page.mouse.click(x, y);
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}/runs/${second.id}$`));
  await page.goBack();
  await expect(page.getByRole("heading", { name: "Pass rate trend" })).toBeVisible();

  // Pass rate by tag, for the latest run: smoke 1 of 2.
  await expect(page.getByRole("heading", { name: "Pass rate by tag" })).toBeVisible();
  const tagRows = page.getByRole("table", { name: "Pass rate by tag" }).getByRole("row");
  await expect(tagRows.filter({ hasText: "smoke" })).toContainText("50%");
  await expect(tagRows.filter({ hasText: "greeting" })).toContainText("100%");
  // Per-metric averages over time, from each run's summary.
  await expect(page.getByRole("heading", { name: "Average metric scores" })).toBeVisible();
  const metricTable = page.getByRole("table", { name: "Average metric scores per run" });
  await expect(metricTable.getByRole("columnheader", { name: "relevance" })).toBeVisible();
  await expect(metricTable.getByRole("row")).toHaveCount(3);
  await expect(metricTable.getByRole("row").nth(2).getByRole("cell").first()).toHaveText("#2");

  // The history table, newest first, with pass rates; a row's number opens its run page.
  await expect(page.getByText("Latest run:")).toBeVisible();
  await expect(page.getByRole("link", { name: "Run #2" }).first()).toHaveAttribute("href", `/w/${workspaceId}/runs/${second.id}`);
  const history = page.getByRole("table", { name: "Run history, newest first" }).getByRole("row");
  await expect(history).toHaveCount(3);
  await expect(history.nth(1)).toContainText("Completed");
  await expect(history.nth(1)).toContainText("API");
  await expect(history.nth(1)).toContainText("50%");
  await expect(history.nth(2)).toContainText("66.7%");
  await history.nth(2).getByRole("link", { name: "Run #1" }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}/runs/${first.id}$`));

  // While a run is in progress the page polls: the new run appears as running, then completes
  // in the table and the trend without a reload. The fake holds its one agent reply for 6 s.
  await addFakeRules(request, [{ match: { anyContains: marker, lastUserContains: "Repeat banana" }, reply: { delayMs: 6_000 }, times: 1 }]);
  const third = await v1.post<Run>(`/suites/${suite.id}/runs`, { tags: ["fruit"] }, 202);
  await page.goto(`/w/${workspaceId}/suites/${suite.id}/runs`);
  await expect(page.getByText("1 run in progress — refreshing every 5 s")).toBeVisible();
  await expect(history).toHaveCount(4);
  await expect(history.nth(1)).toContainText(/Pending|Running/);
  await expect(trendRows).toHaveCount(3);
  await expect(history.nth(1)).toContainText("Completed", { timeout: 30_000 });
  await expect(history.nth(1)).toContainText("100%");
  await expect(trendRows).toHaveCount(4);
  await expect(page.getByText("1 run in progress — refreshing every 5 s")).toHaveCount(0);
  expect((await v1.get<Run>(`/runs/${third.id}`)).status).toBe("completed");
});

test("a suite without runs offers to start one", async ({ page, request }) => {
  const workspaceId = await openWorkspace(page);
  const token = await createApiKey(page, workspaceId, "trends key");
  const v1 = api(request, token);
  const model = await createFakeModelConfig(request, token, "Fake model");
  const agent = await v1.post<{ id: string }>("/agents", { name: unique("Idle agent"), kind: "chat", model_config_id: model.id });
  const suiteName = unique("Idle suite");
  const suite = await v1.post<{ id: string }>("/suites", { agent_id: agent.id, name: suiteName });

  // The suites list says so instead of drawing an empty sparkline.
  await page.goto(`/w/${workspaceId}/suites`);
  const listRow = page.getByTestId("suite-row").filter({ hasText: suiteName });
  await expect(listRow.getByText("No completed runs")).toBeVisible();
  await expect(listRow.getByRole("img", { name: /Pass rate/ })).toHaveCount(0);

  await page.goto(`/w/${workspaceId}/suites/${suite.id}/runs`);
  await expect(page.getByText("No runs yet — start one")).toBeVisible();
  await expect(page.getByRole("button", { name: "Run suite" })).toHaveCount(2); // header and empty state
  await expect(page.getByRole("table", { name: "Pass rate per run" })).toHaveCount(0);

  // A stale or hand-edited history cursor falls back to the first page.
  await page.goto(`/w/${workspaceId}/suites/${suite.id}/runs?cursor=not-a-cursor&status=completed`);
  await expect(page).toHaveURL(new RegExp(`/suites/${suite.id}/runs\\?status=completed$`));
  await expect(page.getByText("No runs yet — start one")).toBeVisible();
});
