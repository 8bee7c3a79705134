import { expect, test } from "@playwright/test";
import {
  FAKE_OPENAI_URL,
  apiPost,
  createApiKey,
  expectAccessible,
  openWorkspace,
  unique,
  addFakeRules,
  createFakeModelConfig,
} from "./fixtures";

/**
 * A 2×2 matrix run end to end in the browser: define AIConfiguration × Temperature in the
 * suite's Matrix dialog (model configuration names as checkboxes, typed temperatures), see the
 * combination count and estimated calls, start it, watch the page complete live and read the
 * cases × combinations table and the best combination. The fake OpenAI server answers the
 * "smart" model without the checked phrase, so its two combinations fail every case.
 */

test("start a 2×2 matrix in the dialog and read its table", async ({ page }) => {
  test.setTimeout(120_000);
  const workspaceId = await openWorkspace(page);
  const token = await createApiKey(page, workspaceId, "matrices e2e");
  const marker = `MXSPEC${Date.now().toString(36)}`;
  const fast = unique("Fast");
  const fastConfig = await apiPost(page.request, token, "/api/v1/model-configs", {
    name: fast,
    base_url: FAKE_OPENAI_URL,
    model: "gpt-4o-mini",
    api_key: "sk-fake",
    input_price_per_mtok: 0.15,
    output_price_per_mtok: 0.6,
  });
  const { name: smart } = await createFakeModelConfig(page.request, token, "Smart", "gpt-4o");
  const agent = await apiPost(page.request, token, "/api/v1/agents", {
    name: unique("Matrix bot"),
    kind: "chat",
    system_prompt: `You help customers. (${marker})`,
    model_config_id: fastConfig.id,
    variables_schema: [
      { name: "AIConfiguration", display_name: "AI Configuration", data_type: "string", value_source: "freeform" },
      { name: "Temperature", display_name: "Temperature", data_type: "number", value_source: "freeform" },
    ],
  });
  const suiteName = unique("Matrix support");
  const suite = await apiPost(page.request, token, "/api/v1/suites", {
    agent_id: agent.id,
    name: suiteName,
    llm_judge_model_config_id: fastConfig.id,
  });
  for (const [name, question] of [
    ["Greeting", "Hello there"],
    ["Opening hours", "When are you open?"],
  ]) {
    await apiPost(page.request, token, `/api/v1/suites/${suite.id}/test-cases`, {
      name,
      initial_message: question,
      checks: [{ type: "contains_phrases", phrases: ["Fake reply"] }],
    });
  }
  const rules = [{ match: { model: "gpt-4o", anyContains: marker, endpoint: "chat" }, reply: { content: "Sorry, no idea." } }];
  await addFakeRules(page.request, rules);

  // The suite's matrix list starts empty.
  await page.goto(`/w/${workspaceId}/suites/${suite.id}`);
  await page.getByRole("button", { name: "More actions" }).click();
  await page.getByRole("menuitem", { name: "Matrix runs" }).click();
  await expect(page.getByText("No matrix runs yet")).toBeVisible();

  // The dialog, from the suite page's menu: AIConfiguration (model configuration names as checkboxes) × Temperature (typed).
  await page.goto(`/w/${workspaceId}/suites/${suite.id}`);
  await page.getByRole("button", { name: "More actions" }).click();
  await page.getByRole("menuitem", { name: "New matrix run…" }).click();
  const dialog = page.getByRole("dialog", { name: "New matrix run" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Variable 1").selectOption("AIConfiguration");
  const models = dialog.getByRole("group", { name: "Values of AIConfiguration" });
  await models.getByRole("checkbox", { name: new RegExp(`^${fast}`) }).check();
  await models.getByRole("checkbox", { name: new RegExp(`^${smart}`) }).check();
  await dialog.getByRole("button", { name: "Add variable" }).click();
  await dialog.getByLabel("Variable 2").selectOption("Temperature");
  await dialog.getByLabel("Values of Temperature").fill("0, 0.7");
  await expect(dialog.getByTestId("matrix-estimate")).toHaveText(/^4 combinations × 2 cases ≈ 8 agent calls/);
  await expectAccessible(page, "Matrix dialog");
  await dialog.getByRole("button", { name: "Start 4 runs" }).click();

  // Live: the page polls until every combination is done.
  await page.waitForURL(/\/matrices\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Matrix: AIConfiguration × Temperature");
  await expect(page.getByRole("heading", { level: 1 }).getByText("Completed")).toBeVisible({ timeout: 60_000 });

  // The table: rows = cases, columns = combinations C1…C4 in expansion order (model slowest).
  const table = page.getByRole("table", { name: "Verdict per case and combination" });
  const headers = table.getByRole("columnheader");
  await expect(headers).toHaveCount(5);
  await expect(headers.nth(1)).toContainText(`C1AIConfiguration="${fast}", Temperature=0`);
  await expect(headers.nth(2)).toContainText(`C2AIConfiguration="${fast}", Temperature=0.7`);
  await expect(headers.nth(3)).toContainText(`C3AIConfiguration="${smart}", Temperature=0`);
  await expect(headers.nth(4)).toContainText(`C4AIConfiguration="${smart}", Temperature=0.7`);
  for (const name of ["Greeting", "Opening hours"]) {
    const row = table.getByRole("row").filter({ hasText: name });
    await expect(row.getByRole("cell")).toHaveText([name, "Passed", "Passed", "Failed", "Failed"]);
  }
  await expect(headers.nth(1)).toContainText("100.0 %");
  await expect(headers.nth(3)).toContainText("0.0 %");
  // Each heading links its combination's run by number (the suite had no run before: #1 to #4).
  await expect(headers.nth(1).getByRole("link", { name: /^Run #[1-4]$/ })).toHaveAttribute("href", /\/runs\/[0-9a-f-]{36}$/);
  await expect(table.getByRole("columnheader").getByRole("link", { name: /^Run #\d+$/ })).toHaveText([
    "Run #1",
    "Run #2",
    "Run #3",
    "Run #4",
  ]);
  // The best combination: a fast one (100 %); the cheaper-or-faster tie-break picks C1 or C2.
  await expect(page.getByTestId("best-combination")).toContainText(new RegExp(`C[12]: AIConfiguration="${fast}"`));

  await expectAccessible(page, "Matrix page");

  // A cell opens its case result.
  await table.getByRole("link", { name: /Greeting under C3 .*: Failed/ }).click();
  await page.waitForURL(/\/runs\/[0-9a-f-]{36}\/cases\/[0-9a-f-]{36}$/);
  await page.goBack();

  // The suite's list shows it.
  await page.goto(`/w/${workspaceId}/suites/${suite.id}/matrices`);
  const listRow = page.getByRole("row").filter({ hasText: "Matrix: AIConfiguration × Temperature" });
  await expect(listRow.getByRole("cell").nth(2)).toHaveText("Completed");
  await expect(listRow.getByRole("cell").nth(4)).toHaveText("4/4");

  // The suite's history leaves the four runs out; its Experiments filter lists them as the matrix's combinations, linked to it.
  await page.goto(`/w/${workspaceId}/suites/${suite.id}/runs`);
  await expect(page.getByText("No runs yet — start one")).toBeVisible();
  await page.getByRole("navigation", { name: "Runs to list" }).getByRole("link", { name: "Experiments" }).click();
  await expect(page).toHaveURL(/\/runs\?kind=experiment$/);
  const badges = page
    .getByRole("table", { name: "Experiment runs, newest first" })
    .getByRole("link", { name: /^Matrix combination [1-4]$/ });
  await expect(badges).toHaveCount(4);
  await badges.first().click();
  await page.waitForURL(/\/matrices\/[0-9a-f-]{36}$/);
});
