import { expect, test } from "@playwright/test";
import { unique } from "./fixtures";

test("a new workspace loads the demo suite and runs it end to end without any API key", async ({ page }) => {
  // A fresh workspace has no agents, so the suites page offers the demo.
  await page.goto("/workspaces/new");
  await page.getByLabel("Workspace name").fill(unique("Demo team"));
  await page.getByRole("button", { name: "Create workspace" }).click();
  await page.waitForURL(/\/w\/[0-9a-f-]{36}\/suites/);
  await page.getByRole("button", { name: "Load the demo suite" }).click();
  await expect(page.getByRole("heading", { name: "Demo: customer support" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Order status lookup" })).toBeVisible();

  // The model configuration is clearly the built-in demo endpoint, with no key.
  const suiteUrl = page.url();
  await page.getByRole("link", { name: "Model configurations" }).click();
  await expect(page.getByRole("link", { name: "Demo model (built-in, no API key)" })).toBeVisible();
  await page.goto(suiteUrl);

  await page.getByRole("button", { name: "Run suite" }).click();
  await page.getByRole("button", { name: "Start run" }).click();
  await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("run-done-count")).toHaveText("10 of 10 cases done", { timeout: 30_000 });
  await expect(page.getByRole("heading", { level: 1 }).getByText("Completed")).toBeVisible();
  await expect(page.getByRole("link", { name: /Order status lookup/ })).toBeVisible();
});
