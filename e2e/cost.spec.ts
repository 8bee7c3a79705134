import { expect, test } from "@playwright/test";
import { FAKE_OPENAI_URL, addFakeRules, apiPost, createApiKey, createWorkspace, runToCompletion, unique } from "./fixtures";

/**
 * A run's cost on the run page and in the suite's runs list: the agent's model costs $2 per million
 * prompt tokens and $8 per million completion tokens, the fake server reports 1,000 and 500 for
 * the one agent call, so the run costs 1,000 × 2 / 1e6 + 500 × 8 / 1e6 = $0.0060. The case's
 * check needs no judge call and the case no simulated user: both parts are $0.00 (priced, unused).
 */
test("the run page and the runs list show what a run cost", async ({ page }) => {
  test.setTimeout(90_000);
  const workspaceId = await createWorkspace(page, unique("Cost"));
  const token = await createApiKey(page, workspaceId, "cost e2e");
  const marker = `COSTSPEC${Date.now().toString(36)}`;
  const config = await apiPost(page.request, token, "/api/v1/model-configs", {
    name: unique("Priced"),
    base_url: FAKE_OPENAI_URL,
    model: "gpt-4o-mini",
    api_key: "sk-fake",
    input_price_per_mtok: 2,
    output_price_per_mtok: 8,
  });
  const agent = await apiPost(page.request, token, "/api/v1/agents", {
    name: unique("Cost bot"),
    kind: "chat",
    system_prompt: `You help customers. (${marker})`,
    model_config_id: config.id,
  });
  const suite = await apiPost(page.request, token, "/api/v1/suites", {
    agent_id: agent.id,
    name: unique("Cost suite"),
    llm_judge_model_config_id: config.id,
  });
  await apiPost(page.request, token, `/api/v1/suites/${suite.id}/test-cases`, {
    name: "Greeting",
    initial_message: "Hello there",
    checks: [{ type: "contains_phrases", phrases: ["welcome"] }],
  });
  await addFakeRules(page.request, [
    {
      match: { anyContains: marker, endpoint: "chat" },
      reply: { content: "Hello and welcome!", usage: { prompt_tokens: 1000, completion_tokens: 500 } },
    },
  ]);
  const runId = await runToCompletion(page.request, token, suite.id);

  await page.goto(`/w/${workspaceId}/runs/${runId}`);
  await expect(page.getByTestId("run-summary-cost")).toHaveText("$0.0060");
  await expect(page.getByTestId("run-summary-cost-parts")).toHaveText("$0.0060 / $0.00 / $0.00");

  await page.goto(`/w/${workspaceId}/suites/${suite.id}/runs`);
  const table = page.getByRole("table", { name: "Run history, newest first" });
  await expect(table.getByRole("columnheader", { name: "Cost" })).toBeVisible();
  await expect(table.getByRole("row").filter({ hasText: "Completed" }).first()).toContainText("$0.0060");
});
