import { expect, test } from "@playwright/test";
import { apiPost, createApiKey, openWorkspace, unique, createFakeModelConfig, agentEvalVariables } from "./fixtures";

/**
 * The variables model in the browser: author a test-level override in the case form (lock the model
 * configuration to B), start a one-case run from "Run this case" with a typed run value
 * (Temperature 0.3), and read the case's resolved values with their sources on its live case view.
 */

test("a test-level lock, a typed run value and the resolved values with sources on the case view", async ({ page }) => {
  const workspaceId = await openWorkspace(page);
  const token = await createApiKey(page, workspaceId, "variables e2e");
  const request = page.request;
  const modelA = await createFakeModelConfig(request, token, "Model A", "gpt-a");
  const modelB = await createFakeModelConfig(request, token, "Model B", "gpt-b");
  const agent = await apiPost(request, token, "/api/v1/agents", {
    name: unique("Vars bot"),
    kind: "chat",
    system_prompt: "You help customers at temperature {{ Temperature }}.",
    model_config_id: modelA.id,
    variables_schema: agentEvalVariables([modelA, modelB]),
  });
  const suite = await apiPost(request, token, "/api/v1/suites", {
    agent_id: agent.id,
    name: unique("Vars suite"),
    llm_judge_model_config_id: modelA.id,
  });
  const testCase = await apiPost(request, token, `/api/v1/suites/${suite.id}/test-cases`, {
    name: "Greets at a temperature",
    initial_message: "Hello at {{Temperature}}",
    checks: [{ type: "contains_phrases", phrases: ["Fake reply"] }],
  });

  // The case form: an unknown placeholder is refused at its field; then lock the model to B.
  const caseUrl = `/w/${workspaceId}/suites/${suite.id}/cases/${testCase.id}`;
  await page.goto(caseUrl);
  await page.getByLabel("Initial message").fill("Hello at {{Temperature}} in {{Mood}}");
  await page.getByRole("button", { name: "Save changes" }).click();
  // At the field, and in the form's summary of what to fix.
  await expect(page.getByTestId("error-initial_message")).toContainText("Unknown variable {{Mood}}");
  await expect(page.getByTestId("form-errors")).toContainText("Initial message: Unknown variable {{Mood}}");
  await page.getByLabel("Initial message").fill("Hello at {{Temperature}}");

  const model = page.getByRole("group", { name: "Variable AIConfiguration" });
  await model.getByLabel("Default for this case").selectOption({ label: modelB.name });
  await model.getByLabel(/^Locked/).check();
  await page.getByRole("button", { name: "Save changes" }).click();
  await page.waitForURL(/notice=saved/);

  // Reopen the case: the override is stored; run it with a typed run value.
  await page.goto(caseUrl);
  await expect(model.getByLabel(/^Locked/)).toBeChecked();
  await page.getByRole("button", { name: "Run this case" }).click();
  const dialog = page.getByRole("dialog", { name: "Run this case" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("resolves-AIConfiguration")).toContainText(`Locked by the case: ${modelB.name}`);
  await expect(dialog.getByTestId("resolves-Temperature")).toContainText("Resolves to 0.7");
  await expect(dialog.getByTestId("resolves-Temperature").getByTestId("variable-source")).toHaveText("type");
  // Text that is no number is refused at the variable, not sent as unset; then a typed value.
  await dialog.getByLabel(/^Temperature/).pressSequentially("1e");
  await dialog.getByRole("button", { name: "Start run" }).click();
  await expect(dialog.getByText("Temperature (Temperature) must be a number")).toBeVisible();
  await expect(page).toHaveURL(caseUrl);
  await dialog.getByLabel(/^Temperature/).fill("0.3");
  await expect(dialog.getByTestId("resolves-Temperature")).toContainText("Resolves to 0.3");
  await expect(dialog.getByTestId("resolves-Temperature").getByTestId("variable-source")).toHaveText("run");
  await dialog.getByRole("button", { name: "Start run" }).click();

  // The one-case run opens the case's live view, which shows the resolved values with sources.
  await page.waitForURL(/\/runs\/[0-9a-f-]{36}\/cases\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Greets at a temperature");
  const table = page.getByRole("table", { name: "Resolved variables" });
  await expect(table.getByRole("row", { name: /Temperature\s+0\.3\s+run/ })).toBeVisible();
  await expect(
    table.getByRole("row", { name: new RegExp(`AIConfiguration\\s+${modelB.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s+test`) }),
  ).toBeVisible();
  // The case's one check looks for the fake model's "Fake reply", so the run must pass.
  await expect(page.getByText("Every check, tool call expectation, outcome and metric passed.")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("case-reason")).toHaveCount(0);
});
