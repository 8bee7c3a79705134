import { expect, test, type Locator, type Page } from "@playwright/test";
import { FAKE_OPENAI_URL, createApiKey, expectAccessible, openWorkspace, passRateTrendRows, unique } from "./fixtures";

/**
 * A suite's history is made of its ordinary runs. Two ordinary runs (the second from CI, with its
 * commit, branch and build URL), then an A/B comparison and a 2-value matrix, all through the REST
 * API: the trend, the latest run, the suites list and the run table show runs #1 and #2 only; the
 * Experiments filter lists the four experiment runs, each named by the arm or combination it is
 * and linked to its comparison or matrix; runs are named by number on the run page, the
 * comparison's configuration card and the matrix's heat map. At 1440 and 390 px wide.
 */

const COMMIT = "0f3c9a2e5b7d1c4f8a6e9b0d2c3f4a5b6c7d8e9f";
const BRANCH = "feature/checkout";
const BUILD_URL = "https://ci.example.test/builds/42";
const TERMINAL = ["completed", "failed", "cancelled"];

type Api = {
  post: <T>(path: string, data: unknown) => Promise<T>;
  until: (path: string) => Promise<Record<string, unknown>>;
};

function restApi(page: Page, token: string): Api {
  const headers = { authorization: `Bearer ${token}` };
  return {
    async post<T>(path: string, data: unknown): Promise<T> {
      const res = await page.request.post(`/api/v1${path}`, { headers, data });
      expect(res.status(), `${path}: ${await res.text()}`).toBeLessThan(300);
      return (await res.json()) as T;
    },
    /** GET until the resource's status is terminal; it must have completed. */
    async until(path: string) {
      let body: Record<string, unknown> = {};
      await expect
        .poll(
          async () => {
            body = (await (await page.request.get(`/api/v1${path}`, { headers })).json()) as Record<string, unknown>;
            return TERMINAL.includes(String(body.status));
          },
          { timeout: 60_000, intervals: [250] },
        )
        .toBe(true);
      expect(body.status, path).toBe("completed");
      return body;
    },
  };
}

/** The box does not scroll sideways: its content fits at this width (a table scrolls inside its own wrapper). */
async function expectFits(box: Locator, what: string) {
  const { scroll, client } = await box.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(scroll, `${what} overflows its box (${scroll} > ${client})`).toBeLessThanOrEqual(client + 1);
}

type Ids = { suiteId: string; suiteName: string; runs: string[]; comparisonId: string; matrixId: string };

async function seed(page: Page, workspaceId: string): Promise<Ids> {
  const api = restApi(page, await createApiKey(page, workspaceId, "history e2e"));
  const model = await api.post<{ id: string }>("/model-configs", { name: unique("Fake"), base_url: FAKE_OPENAI_URL, model: "gpt-4o-mini" });
  const agent = await api.post<{ id: string }>("/agents", {
    name: unique("History bot"),
    kind: "chat",
    system_prompt: "Be brief.",
    model_config_id: model.id,
    variables_schema: [{ name: "Temperature", display_name: "Temperature", data_type: "number", value_source: "freeform" }],
  });
  const suiteName = unique("History suite");
  const suite = await api.post<{ id: string }>("/suites", { agent_id: agent.id, name: suiteName, llm_judge_model_config_id: model.id });
  for (const [name, question] of [
    ["Greets", "Say hello"],
    ["Opening hours", "When are you open?"],
  ]) {
    await api.post(`/suites/${suite.id}/test-cases`, {
      name,
      initial_message: question,
      checks: [{ type: "contains_phrases", phrases: ["Fake reply"] }],
    });
  }

  // Two ordinary runs: by hand, then from CI with where it comes from.
  const first = await api.post<{ id: string }>(`/suites/${suite.id}/runs`, {});
  await api.until(`/runs/${first.id}`);
  const second = await api.post<{ id: string }>(`/suites/${suite.id}/runs`, {
    metadata: { commit: COMMIT, branch: BRANCH, build_url: BUILD_URL },
  });
  await api.until(`/runs/${second.id}`);
  // Experiments: an A/B comparison (arms #3, #4; its build URL is not a web address) and a matrix (#5, #6).
  const comparison = await api.post<{ id: string; baseline: { run_id: string }; variant: { run_id: string } }>(
    `/suites/${suite.id}/comparisons`,
    { name: "Cooler", baseline: {}, variant: { temperature: 0.2 }, reset_window_ms: 0, metadata: { build_url: "javascript:alert(1)" } },
  );
  await api.until(`/comparisons/${comparison.id}`);
  const matrix = await api.post<{ id: string; combinations: { run_id: string }[] }>(`/suites/${suite.id}/matrix`, {
    name: "Temperatures",
    variables: { Temperature: [0, 0.7] },
  });
  await api.until(`/matrices/${matrix.id}`);
  return {
    suiteId: suite.id,
    suiteName,
    runs: [first.id, second.id, comparison.baseline.run_id, comparison.variant.run_id, ...matrix.combinations.map((c) => c.run_id)],
    comparisonId: comparison.id,
    matrixId: matrix.id,
  };
}

test("the suite's history is its ordinary runs, named by number; experiments are listed apart", async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 1000 });
  const workspaceId = await openWorkspace(page);
  const ids = await seed(page, workspaceId);
  const w = `/w/${workspaceId}`;
  const runsUrl = `${w}/suites/${ids.suiteId}/runs`;

  // The suites list: the pass rates of the two ordinary runs only.
  await page.goto(`${w}/suites`);
  const listRow = page.getByTestId("suite-row").filter({ hasText: ids.suiteName });
  await expect(listRow.getByRole("img", { name: "Pass rate over the last 2 runs: 100% → 100%" })).toBeVisible();

  // The trend: exactly the two ordinary runs, #1 and #2, the second with its branch and commit.
  await page.goto(runsUrl);
  const trendRows = await passRateTrendRows(
    page,
    "Pass rate per run over the last 2 finished runs (#1 to #2): from 100% in #1 to 100% in #2, the latest.",
    3,
  );
  // Each run: number, time, status, pass rate, pass@1 and its 95% interval (from the run's summary: two
  // green cases give the bootstrap nothing to resample, so the Wilson interval over 2 cases), counts, metadata.
  const trendRow = (number: string, metadata: string) => [
    number,
    /UTC$/,
    "Completed",
    "100%",
    "100%",
    "34.2%–100%",
    "2",
    "0",
    "0",
    "0",
    "2",
    metadata,
  ];
  await expect(trendRows.nth(1).getByRole("cell")).toHaveText(trendRow("#1", "—"));
  await expect(trendRows.nth(2).getByRole("cell")).toHaveText(trendRow("#2", `${BRANCH} · 0f3c9a2`));

  // The latest run is #2; the history lists #2 and #1 with where they come from.
  await expect(page.getByText("Latest run:").locator("..").getByRole("link", { name: "Run #2" })).toHaveAttribute(
    "href",
    `${w}/runs/${ids.runs[1]}`,
  );
  const history = page.getByRole("table", { name: "Run history, newest first" });
  const rows = history.getByRole("row");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1).getByRole("link", { name: "Run #2" })).toHaveAttribute("href", `${w}/runs/${ids.runs[1]}`);
  await expect(rows.nth(1)).toContainText(BRANCH);
  await expect(rows.nth(1).getByTitle(`Commit ${COMMIT}`)).toHaveText("Commit 0f3c9a2");
  const build = rows.nth(1).getByRole("link", { name: /^Build/ });
  await expect(build).toHaveAttribute("href", BUILD_URL);
  await expect(build).toHaveAttribute("rel", "noopener noreferrer nofollow");
  await expect(build).toHaveAttribute("target", "_blank");
  await expect(rows.nth(2).getByRole("link", { name: "Run #1" })).toBeVisible();
  await expect(rows.nth(2).getByRole("cell").nth(4)).toHaveText("—");
  await expect(history.getByText(/Comparison arm|Matrix combination/)).toHaveCount(0);
  await expectAccessible(page, "suite runs: history");
  await page.screenshot({ path: test.info().outputPath("history-1440.png"), fullPage: true });

  // The Experiments filter: the four experiment runs, named by what they belong to and linked there.
  await page.getByRole("navigation", { name: "Runs to list" }).getByRole("link", { name: "Experiments" }).click();
  await expect(page).toHaveURL(`${runsUrl}?kind=experiment`);
  const experiments = page.getByRole("table", { name: "Experiment runs, newest first" });
  await expect(experiments.getByRole("row")).toHaveCount(5);
  const expected: [number, string, string][] = [
    [3, "Comparison arm A", `${w}/comparisons/${ids.comparisonId}`],
    [4, "Comparison arm B", `${w}/comparisons/${ids.comparisonId}`],
    [5, "Matrix combination 1", `${w}/matrices/${ids.matrixId}`],
    [6, "Matrix combination 2", `${w}/matrices/${ids.matrixId}`],
  ];
  for (const [number, label, href] of expected) {
    const row = experiments.getByRole("row").filter({ has: page.getByRole("link", { name: `Run #${number}`, exact: true }) });
    await expect(row.getByRole("link", { name: label })).toHaveAttribute("href", href);
  }
  // A build URL that is not http(s) is shown as text, never linked.
  const armRow = experiments.getByRole("row").filter({ has: page.getByRole("link", { name: "Run #3", exact: true }) });
  await expect(armRow.getByText("Build javascript:alert(1)")).toBeVisible();
  await expect(experiments.getByRole("link", { name: /^Build/ })).toHaveCount(0);
  // The trend still shows the history only.
  await expect(page.getByRole("table", { name: "Pass rate per run" }).getByRole("row")).toHaveCount(3);
  // The status filter keeps the choice.
  await page.getByLabel("Status", { exact: true }).selectOption("completed");
  await expect(page).toHaveURL(`${runsUrl}?kind=experiment&status=completed`);
  await expect(experiments.getByRole("row")).toHaveCount(5);
  await expectAccessible(page, "suite runs: experiments");
  await page.screenshot({ path: test.info().outputPath("experiments-1440.png"), fullPage: true });
  await page.getByRole("navigation", { name: "Runs to list" }).getByRole("link", { name: "History" }).click();
  await expect(page).toHaveURL(`${runsUrl}?status=completed`);
  await expect(page.getByRole("table", { name: "Run history, newest first" }).getByRole("row")).toHaveCount(3);

  // The run page names the run #2 and says where it comes from.
  await page.goto(`${w}/runs/${ids.runs[1]}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Run #2");
  await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toContainText("Run #2");
  const header = page.getByRole("heading", { level: 1 }).locator("xpath=..");
  await expect(header.getByTitle(`Branch ${BRANCH}`)).toBeVisible();
  await expect(header.getByTitle(`Commit ${COMMIT}`)).toHaveText("Commit 0f3c9a2");
  await expect(header.getByRole("link", { name: /^Build/ })).toHaveAttribute("href", BUILD_URL);
  await page.screenshot({ path: test.info().outputPath("run-1440.png") });

  // An arm's run page says it is an experiment and links its comparison.
  await page.goto(`${w}/runs/${ids.runs[3]}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Run #4");
  await expect(page.getByRole("link", { name: "Comparison arm B" })).toHaveAttribute("href", `${w}/comparisons/${ids.comparisonId}`);

  // The comparison's configuration card links its arms' runs by number.
  await page.goto(`${w}/comparisons/${ids.comparisonId}`);
  await expect(page.getByTestId("arm-baseline").getByRole("link", { name: "Run #3" })).toHaveAttribute("href", `${w}/runs/${ids.runs[2]}`);
  await expect(page.getByTestId("arm-variant").getByRole("link", { name: "Run #4" })).toHaveAttribute("href", `${w}/runs/${ids.runs[3]}`);

  // The matrix's heat map links each combination's run by number.
  await page.goto(`${w}/matrices/${ids.matrixId}`);
  const heatMap = page.getByRole("table", { name: "Verdict per case and combination" });
  await expect(heatMap.getByRole("columnheader").getByRole("link", { name: /^Run #/ })).toHaveText(["Run #5", "Run #6"]);
  await expect(heatMap.getByRole("link", { name: "Run #6" })).toHaveAttribute("href", `${w}/runs/${ids.runs[5]}`);

  // 390 px wide: the sidebar is a menu, so the page has the whole width and never scrolls sideways.
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(runsUrl);
  await expect(page.getByRole("heading", { name: "Pass rate trend" })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("history-390.png"), fullPage: true });
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(390);
  await expectFits(page.getByRole("region", { name: "Run history" }), "run history");
  await expectFits(page.getByRole("region", { name: "Pass rate trend" }), "trend");
  await page.getByRole("main").screenshot({ path: test.info().outputPath("history-main-390.png") });
  await page.goto(`${runsUrl}?kind=experiment`);
  await expectFits(page.getByRole("region", { name: "Experiment runs" }), "experiment runs");
  await page.getByRole("main").screenshot({ path: test.info().outputPath("experiments-main-390.png") });
  await page.goto(`${w}/runs/${ids.runs[1]}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Run #2");
  await expectFits(page.getByRole("heading", { level: 1 }).locator("xpath=../.."), "run header");
  await page.getByRole("main").screenshot({ path: test.info().outputPath("run-main-390.png") });
});
