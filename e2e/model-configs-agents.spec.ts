import { expect, test } from "@playwright/test";
import { FAKE_OPENAI_URL, openWorkspace, unique } from "./fixtures";

/**
 * Model configurations (masked key, test connection against the fake OpenAI server) and a chat
 * agent with a tool, including field errors from the client (invalid JSON) and the server
 * (duplicate name).
 */

const API_KEY = "sk-e2e-secret-key-87654321";

test("create a model configuration, test it, and create a chat agent with a tool", async ({ page }) => {
  const workspaceId = await openWorkspace(page);
  const configName = unique("Fake OpenAI");
  const agentName = unique("Weather bot");

  // Model configuration: client-side errors first, then a valid one with an API key.
  await page.goto(`/w/${workspaceId}/model-configs`);
  await page.getByRole("link", { name: "New model configuration" }).first().click();
  await page.getByLabel("Base URL").fill("not a url");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("error-mc-name")).toHaveText("Name is required");
  await expect(page.getByTestId("error-mc-base_url")).toHaveText("Enter an http(s) URL");

  await page.getByLabel("Name", { exact: true }).fill(configName);
  await page.getByLabel("Base URL").fill(FAKE_OPENAI_URL);
  await page.getByLabel("Model", { exact: true }).fill("gpt-4o-mini");
  await page.getByLabel("API key").fill(API_KEY);
  await page.getByLabel("Temperature").fill("0.2");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}/model-configs$`));

  // The key is shown only as a masked hint, never in the page.
  const row = page.getByRole("row", { name: configName });
  await expect(row).toContainText("••••4321");
  await expect(row).toContainText(FAKE_OPENAI_URL);
  expect(await page.content()).not.toContain(API_KEY);

  await row.getByRole("button", { name: "Test connection" }).click();
  await expect(row.getByTestId("connection-result")).toContainText("Connected");

  // Edit page: the hint, a blank key field that keeps the key, and the test button.
  await row.getByRole("link", { name: configName }).click();
  await expect(page.getByRole("heading", { name: configName })).toBeVisible();
  await expect(page.getByText("Saved key ••••4321")).toBeVisible();
  await expect(page.getByLabel("API key")).toHaveValue("");
  await page.getByRole("button", { name: "Test connection" }).click();
  await expect(page.getByTestId("connection-result")).toContainText("Connected");
  await page.getByLabel("Max tokens").fill("256");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}/model-configs$`));
  await expect(page.getByRole("row", { name: configName })).toContainText("••••4321");

  // Agents: empty list or existing ones, then a new chat agent.
  await page.goto(`/w/${workspaceId}/agents`);
  await page.getByRole("link", { name: "New agent" }).first().click();
  await page.getByLabel("Name", { exact: true }).fill(agentName);
  await page.getByLabel("Model configuration").selectOption({ label: configName });
  await expect(page.getByText("Model: gpt-4o-mini")).toBeVisible();
  await page.getByLabel("System prompt").fill("You answer weather questions. Use get_weather.");
  await page.getByRole("button", { name: "Add tool" }).click();
  await page.getByLabel("Tool name").fill("get_weather");
  await page.getByLabel("Tool description").fill("Current weather for a city");
  const parameters = page.getByLabel("Parameters (JSON schema)");
  await parameters.fill('{"type": "object", "properties": {"city": {"type": "string"}');
  await page.getByLabel("Mock response").fill('{"temperature_c": 21, "sky": "clear"}');
  await page.getByRole("button", { name: "Save" }).click();

  // Invalid JSON: an error at the field, and the text is kept for fixing.
  await expect(page.getByTestId("error-tools-0-parameters")).toContainText("Parameters must be valid JSON");
  await expect(parameters).toHaveValue('{"type": "object", "properties": {"city": {"type": "string"}');
  await expect(page).toHaveURL(/\/agents\/new$/);
  await parameters.fill('{"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}');
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}/agents/[0-9a-f-]{36}$`));

  // The saved agent reloads with its tool.
  await page.reload();
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(agentName);
  await expect(page.getByLabel("Tool name")).toHaveValue("get_weather");
  await expect(page.getByLabel("Parameters (JSON schema)")).toHaveValue(/"required": \[\s*"city"\s*\]/);
  await expect(page.getByLabel("Mock response")).toHaveValue(/"sky": "clear"/);

  // It is listed.
  await page.goto(`/w/${workspaceId}/agents`);
  const agentRow = page.getByRole("row", { name: agentName });
  await expect(agentRow).toContainText(configName);
  await expect(agentRow).toContainText("chat");

  // A second agent with the same name: the server's conflict shows at the Name field.
  await page.getByRole("link", { name: "New agent" }).first().click();
  await page.getByLabel("Name", { exact: true }).fill(agentName);
  await page.getByLabel("Model configuration").selectOption({ label: configName });
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("error-agent-name")).toHaveText("An agent with this name already exists");
});

test("an HTTP agent: kind switch, masked headers, timeout error at the field", async ({ page }) => {
  const workspaceId = await openWorkspace(page);
  const name = unique("HTTP agent");
  await page.goto(`/w/${workspaceId}/agents/new`);
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Kind").selectOption("http");
  await expect(page.getByLabel("System prompt")).toHaveCount(0);
  await page.getByLabel("URL", { exact: true }).fill("http://127.0.0.1:9/agent");
  await page.getByRole("button", { name: "Add header" }).click();
  await page.getByLabel("Header name").fill("Authorization");
  await page.getByLabel("Header value").fill("Bearer header-secret-2468");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}/agents/[0-9a-f-]{36}$`));

  await expect(page.getByLabel("Header value")).toHaveValue("••••2468");
  expect(await page.content()).not.toContain("header-secret");
  await page.getByLabel("Timeout (ms)").fill("abc");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("error-http-timeout_ms")).toHaveText("Timeout must be a whole number of milliseconds");
  await page.getByLabel("Timeout (ms)").fill("5000");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Timeout (ms)")).toHaveValue("5000");
  await expect(page.getByLabel("Header value")).toHaveValue("••••2468");
});
