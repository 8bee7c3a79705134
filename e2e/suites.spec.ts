import { expect, test, type APIRequestContext } from "@playwright/test";
import { FAKE_OPENAI_URL, createApiKey, newMember, openWorkspace, unique } from "./fixtures";

/**
 * Suites: create (client-side and server-side errors at the fields), list, settings,
 * delete → trash → restore (with a name conflict first), metrics and the simulator model,
 * and a viewer's read-only view.
 * Prerequisites (model configuration, agent with variables of the variables model) go through the REST API
 * with an API key created in the UI.
 */

async function api(request: APIRequestContext, token: string, method: "get" | "post" | "patch" | "delete", url: string, data?: unknown) {
  const res = await request[method](url, { headers: { authorization: `Bearer ${token}` }, data });
  expect(res.status(), `${method.toUpperCase()} ${url}: ${await res.text()}`).toBeLessThan(300);
  return res.status() === 204 ? null : ((await res.json()) as { id: string });
}

async function createPrerequisites(request: APIRequestContext, token: string) {
  const judge = { name: unique("Judge"), base_url: FAKE_OPENAI_URL, model: "fake-judge" };
  const mc = await api(request, token, "post", "/api/v1/model-configs", judge);
  const agent = {
    name: unique("Support bot"),
    kind: "chat",
    system_prompt: "You help customers.",
    model_config_id: mc!.id,
    variables_schema: [
      {
        name: "AIConfiguration",
        display_name: "AI Configuration",
        data_type: "string",
        value_source: "static",
        possible_values: [
          { value: "gpt-4o", label: "GPT-4o" },
          { value: "claude-opus", label: "Claude Opus" },
        ],
      },
      { name: "Temperature", display_name: "Temperature", data_type: "number", value_source: "freeform", default_value: 0.7 },
    ],
  };
  const created = await api(request, token, "post", "/api/v1/agents", agent);
  return { judgeName: judge.name, agentName: agent.name, agentId: created!.id };
}

test("create, list, edit, delete, restore a suite", async ({ page }) => {
  const workspaceId = await openWorkspace(page);
  const token = await createApiKey(page, workspaceId, "suites e2e");
  const { judgeName, agentName, agentId } = await createPrerequisites(page.request, token);
  const name = unique("Checkout regression");

  // Create: a daily schedule without a time is refused at the field before anything is sent.
  await page.goto(`/w/${workspaceId}/suites`);
  await page.getByRole("link", { name: "New suite" }).click();
  await expect(page).toHaveURL(/\/suites\/new/);
  await page.getByLabel("Agent").selectOption({ label: agentName });
  await page.getByLabel(/^Name/).fill(name);
  await page.getByLabel("Description").fill("Checkout flows");
  await page.getByLabel("Schedule").selectOption("daily");
  await page.getByRole("button", { name: "Create suite" }).click();
  await expect(page.getByTestId("error-schedule_time")).toHaveText("A daily schedule needs a time (HH:MM)");
  await page.getByLabel("Time (HH:MM)").fill("09:30");
  await page.getByLabel("Judge model configuration").selectOption({ label: judgeName });
  await page.getByLabel("Alert threshold (%)").fill("15");
  // Variables come from the agent's variables_schema: a select for static, a number input for freeform.
  await page.getByLabel("AI Configuration").selectOption({ label: "Claude Opus" });
  await page.getByLabel("Temperature").fill("0.2");
  await page.getByRole("button", { name: "Create suite" }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}/suites/[0-9a-f-]{36}$`));
  const suiteId = /\/suites\/([0-9a-f-]{36})$/.exec(page.url())![1]!;

  // The same name for the same agent is refused by the server, shown at the name field.
  await page.goto(`/w/${workspaceId}/suites/new?agent=${agentId}`);
  await page.getByLabel(/^Name/).fill(name);
  await page.getByRole("button", { name: "Create suite" }).click();
  await expect(page.getByTestId("error-name")).toHaveText("This agent already has a suite with this name");

  // The list shows it with agent, counts, schedule and status; the agent filter narrows it.
  await page.goto(`/w/${workspaceId}/suites`);
  const row = page.getByTestId("suite-row").filter({ hasText: name });
  await expect(row).toContainText(agentName);
  await expect(row).toContainText("Daily at 09:30");
  await expect(row).toContainText("No cases");
  await expect(row).toContainText("Enabled");
  await page.getByLabel("Filter by agent").selectOption({ label: agentName });
  await expect(page).toHaveURL(new RegExp(`agent=${agentId}`));
  await expect(page.getByTestId("suite-row")).toHaveCount(1);
  await expect(row.getByRole("link", { name, exact: true })).toHaveAttribute("href", `/w/${workspaceId}/suites/${suiteId}`);

  // Settings: the stored values come back; edit and save.
  await row.getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(`/w/${workspaceId}/suites/${suiteId}/settings`);
  await expect(page.getByLabel("Agent")).toHaveValue(agentName);
  await expect(page.getByLabel("Time (HH:MM)")).toHaveValue("09:30");
  await expect(page.getByLabel("Alert threshold (%)")).toHaveValue("15");
  await expect(page.getByLabel("Temperature")).toHaveValue("0.2");
  await page.getByLabel("Schedule").selectOption("weekly");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("error-schedule_day_of_week")).toHaveText("A weekly schedule needs a day of week");
  await page.getByLabel("Day of week").selectOption({ label: "Monday" });
  await page.getByLabel("Enabled", { exact: true }).uncheck();
  await page.getByLabel("Description").fill("Checkout and refunds");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved", { exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Description")).toHaveValue("Checkout and refunds");
  await expect(page.getByLabel("Day of week")).toHaveValue("1");
  await expect(page.getByLabel("Enabled", { exact: true })).not.toBeChecked();
  await expect(page.getByLabel("AI Configuration")).toHaveValue("1");

  // Delete (after confirmation) → the suite leaves the list and appears in the trash.
  await page.getByRole("button", { name: "Delete suite" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}/suites$`));
  await expect(page.getByTestId("suite-row").filter({ hasText: name })).toHaveCount(0);
  await page.getByRole("link", { name: "Trash" }).click();
  const trashRow = page.getByTestId("trash-row").filter({ hasText: name });
  await expect(trashRow).toContainText(agentName);

  // Meanwhile a new live suite took the name: restoring is refused with the reason inline.
  const replacement = await api(page.request, token, "post", "/api/v1/suites", { agent_id: agentId, name });
  await trashRow.getByRole("button", { name: "Restore" }).click();
  await expect(trashRow).toContainText(`already has a suite named "${name}"`);
  await api(page.request, token, "patch", `/api/v1/suites/${replacement!.id}`, { name: `${name} (new)` });
  await trashRow.getByRole("button", { name: "Restore" }).click();
  await expect(trashRow).toHaveCount(0);
  await page.goto(`/w/${workspaceId}/suites`);
  const restored = page.getByTestId("suite-row").filter({ has: page.getByRole("link", { name, exact: true }) });
  await expect(restored).toContainText("Weekly on Monday at 09:30");
  await expect(restored).toContainText("Disabled");
});

test("a viewer sees suites read-only", async ({ page, browser }) => {
  const workspaceId = await openWorkspace(page);
  const token = await createApiKey(page, workspaceId, "suites e2e");
  const { agentId } = await createPrerequisites(page.request, token);
  const name = unique("Viewer visible");
  const suite = await api(page.request, token, "post", "/api/v1/suites", { agent_id: agentId, name });

  const { member: p2 } = await newMember(page, browser, workspaceId, {
    prefix: "viewer",
    role: "viewer",
    name: "Vera Viewer",
    password: "viewer-password-1",
  });

  await p2.goto(`/w/${workspaceId}/suites`);
  await expect(p2.getByTestId("suite-row").filter({ hasText: name })).toBeVisible();
  await expect(p2.getByRole("link", { name: "New suite" })).toHaveCount(0);
  await p2.goto(`/w/${workspaceId}/suites/${suite!.id}/settings`);
  await expect(p2.getByText("Read-only: your role (viewer) cannot change suites.")).toBeVisible();
  await expect(p2.getByLabel(/^Name/)).toBeDisabled();
  await expect(p2.getByRole("button", { name: "Save" })).toHaveCount(0);
  await expect(p2.getByRole("button", { name: "Delete suite" })).toHaveCount(0);
  await p2.goto(`/w/${workspaceId}/suites/new`);
  await expect(p2.getByText("Read-only access")).toBeVisible();
  await expect(p2.getByRole("button", { name: "Create suite" })).toHaveCount(0);
  await p2.context().close();
});

test("metrics, simulator model and an hourly schedule on the suite form", async ({ page }) => {
  const workspaceId = await openWorkspace(page);
  const token = await createApiKey(page, workspaceId, "suites e2e");
  const { judgeName, agentName } = await createPrerequisites(page.request, token);
  const simName = unique("Simulator");
  const sim = await api(page.request, token, "post", "/api/v1/model-configs", {
    name: simName,
    base_url: FAKE_OPENAI_URL,
    model: "fake-sim",
  });
  const name = unique("Metrics suite");

  await page.goto(`/w/${workspaceId}/suites/new`);
  // A value chosen before the form hydrates is reset to its default when react-hook-form registers
  // the field: choose the schedule until its minute field appears (only a hydrated form shows it),
  // then the rest.
  await expect(async () => {
    await page.getByLabel("Schedule").selectOption("hourly");
    await expect(page.getByLabel("Minute past the hour")).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await page.getByLabel("Minute past the hour").fill("15");
  await page.getByLabel("Agent").selectOption({ label: agentName });
  await page.getByLabel(/^Name/).fill(name);
  await page.getByLabel("Judge model configuration").selectOption({ label: judgeName });
  await expect(page.getByLabel("Simulator model configuration")).toHaveValue("");
  await page.getByLabel("Simulator model configuration").selectOption({ label: simName });

  // Two metrics: a built-in with an out-of-range threshold, a custom one without its prompt.
  await page.getByRole("button", { name: "Add metric" }).click();
  await page.getByRole("button", { name: "Add metric" }).click();
  const rows = page.getByTestId("metric-row");
  await expect(rows).toHaveCount(2);
  await rows.nth(0).getByLabel("Metric", { exact: true }).selectOption("relevance");
  await rows.nth(0).getByLabel("Threshold (on the scale)").fill("7");
  await rows.nth(1).getByLabel("Metric", { exact: true }).selectOption("custom");
  await rows.nth(1).getByLabel("Metric name").fill("politeness");
  await page.getByRole("button", { name: "Create suite" }).click();
  await expect(page.getByTestId("error-metrics.0.threshold")).toHaveText("Threshold is on the metric's own scale: at most 5 (its scale)");
  await expect(page.getByTestId("error-metrics.1.custom_prompt")).toContainText("custom prompt");

  await rows.nth(0).getByLabel("Threshold (on the scale)").fill("4");
  await rows.nth(1).getByLabel("Custom prompt").fill("Is the reply polite? {{response}}");
  await rows.nth(1).getByLabel("Threshold (on the scale)").fill(""); // informational
  await rows.nth(1).getByLabel("Model override").selectOption({ label: simName });
  await rows.nth(1).getByLabel("Retry on failure").selectOption("2");
  await rows.nth(1).getByLabel("Timeout (ms)").fill("5000");
  await rows.nth(1).getByLabel("Fail on error").check();
  await page.getByRole("button", { name: "Create suite" }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}/suites/[0-9a-f-]{36}$`));
  const suiteId = /\/suites\/([0-9a-f-]{36})$/.exec(page.url())![1]!;

  // The settings page shows what was stored.
  await page.goto(`/w/${workspaceId}/suites/${suiteId}/settings`);
  await expect(page.getByLabel("Minute past the hour")).toHaveValue("15");
  await expect(page.getByLabel("Simulator model configuration")).toHaveValue(sim!.id);
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0).getByLabel("Metric", { exact: true })).toHaveValue("relevance");
  await expect(rows.nth(0).getByLabel("Threshold (on the scale)")).toHaveValue("4");
  await expect(rows.nth(1).getByLabel("Metric name")).toHaveValue("politeness");
  await expect(rows.nth(1).getByLabel("Custom prompt")).toHaveValue("Is the reply polite? {{response}}");
  await expect(rows.nth(1).getByLabel("Threshold (on the scale)")).toHaveValue("");
  await expect(rows.nth(1).getByLabel("Model override")).toHaveValue(sim!.id);
  await expect(rows.nth(1).getByLabel("Retry on failure")).toHaveValue("2");
  await expect(rows.nth(1).getByLabel("Timeout (ms)")).toHaveValue("5000");
  await expect(rows.nth(1).getByLabel("Fail on error")).toBeChecked();

  // Remove the first metric and save; the API returns the rest.
  await page.getByRole("button", { name: "Remove metric 1" }).click();
  await expect(rows).toHaveCount(1);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved", { exact: true })).toBeVisible();
  const stored = (await api(page.request, token, "get", `/api/v1/suites/${suiteId}`)) as unknown as Record<string, unknown>;
  expect(stored).toMatchObject({
    schedule_type: "hourly",
    schedule_time: "00:15",
    simulator_model_config_id: sim!.id,
    metrics: [
      {
        metric: "politeness",
        threshold: null,
        model: sim!.id,
        retry_on_failure: 2,
        timeout_ms: 5000,
        fail_on_error: true,
        enabled: true,
        scale: 5,
      },
    ],
  });

  // A metric override whose configuration was deleted: shown as unavailable, refused at its field by the server.
  const temp = await api(page.request, token, "post", "/api/v1/model-configs", {
    name: unique("Temp"),
    base_url: FAKE_OPENAI_URL,
    model: "fake-temp",
  });
  await api(page.request, token, "patch", `/api/v1/suites/${suiteId}`, { metrics: [{ metric: "fluency", model: temp!.id }] });
  await api(page.request, token, "delete", `/api/v1/model-configs/${temp!.id}`);
  await page.reload();
  await expect(rows.nth(0).getByLabel("Model override")).toHaveValue(temp!.id);
  await expect(rows.nth(0).getByLabel("Model override").locator("option:checked")).toHaveText("Unavailable configuration");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("error-metrics.0.model")).toHaveText("Choose a model configuration of this workspace");
  await rows.nth(0).getByLabel("Model override").selectOption("");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved", { exact: true })).toBeVisible();

  await page.goto(`/w/${workspaceId}/suites`);
  await expect(page.getByTestId("suite-row").filter({ hasText: name })).toContainText("Hourly at :15 UTC");
});
