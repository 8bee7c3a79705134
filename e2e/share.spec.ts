import { expect, test } from "@playwright/test";
import { createApiKey, createFakeSuite, createWorkspace, expectAccessible, runToCompletion, apiPost, unique } from "./fixtures";

/**
 * A read-only share link, as a QA lead sends one to someone without an account: sharing is off
 * until an admin turns it on; the run's Share dialog makes a link; a browser without a session
 * opens the report without the app's navigation; revoking the link turns the page into the
 * "expired or revoked" notice.
 */
test("share a finished run read-only, open it without a session, then revoke it", async ({ page, browser, request }) => {
  const workspaceId = await createWorkspace(page, unique("Share"));
  const token = await createApiKey(page, workspaceId);
  const suite = await createFakeSuite(request, token, { agent: { name: "Share bot" }, suite: { name: "Share suite" } });
  await apiPost(request, token, `/api/v1/suites/${suite.id}/test-cases`, { name: "Greets the user", initial_message: "Hello" });
  const runId = await runToCompletion(request, token, suite.id);

  // Off by default: the dialog says who can turn it on.
  await page.goto(`/w/${workspaceId}/runs/${runId}`);
  await page.getByRole("button", { name: "Share" }).click();
  const dialog = page.getByRole("dialog", { name: "Share this run report" });
  await expect(dialog.getByText("Sharing is turned off for this workspace")).toBeVisible();
  await dialog.getByRole("button", { name: "Close" }).click();

  await page.goto(`/w/${workspaceId}/settings`);
  const toggle = page.getByRole("checkbox", { name: /Allow read-only share links/ });
  await expect(toggle).not.toBeChecked();
  await toggle.check();
  await expect(toggle).toBeChecked();

  await page.goto(`/w/${workspaceId}/runs/${runId}`);
  await page.getByRole("button", { name: "Share" }).click();
  await dialog.getByLabel("Expires after (days)").fill("3");
  await dialog.getByRole("button", { name: "Create link" }).click();
  const field = dialog.getByRole("textbox", { name: "Share link", exact: true });
  await expect(field).toHaveValue(/\/share\/shr_\S{43}$/);
  const link = await field.inputValue();
  await expect(dialog.getByText("Active", { exact: true })).toBeVisible();

  // Someone without an account: a browser context without the session cookie.
  const outsider = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const shared = await outsider.newPage();
  const response = await shared.goto(link);
  expect(response?.headers()["referrer-policy"]).toBe("no-referrer");
  await expect(shared.getByRole("heading", { level: 1, name: /Run #1/ })).toBeVisible();
  await expect(shared.getByText("Read-only shared report")).toBeVisible();
  await expect(shared.getByRole("cell", { name: "Greets the user" })).toBeVisible();
  await expect(shared.getByRole("navigation")).toHaveCount(0);
  await expect(shared.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await expectAccessible(shared, "shared run report at 1440 px");
  await shared.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(shared, "shared run report at 390 px");
  expect(await shared.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // The case's transcript, on the shared page too.
  await shared.getByRole("link", { name: "Greets the user" }).click();
  await expect(shared.getByRole("heading", { level: 1, name: "Greets the user" })).toBeVisible();
  await expect(shared.getByRole("heading", { name: "Transcript" })).toBeVisible();
  await expectAccessible(shared, "shared case at 390 px");

  // Revoked: the link is dead at once.
  await dialog.getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("dialog", { name: "Revoke this share link?" }).getByRole("button", { name: "Revoke" }).click();
  await expect(dialog.getByText("Revoked", { exact: true })).toBeVisible();
  await shared.goto(link);
  await expect(shared.getByRole("heading", { name: "This link has expired or was revoked" })).toBeVisible();
  await expect(shared.getByText("Greets the user")).toHaveCount(0);
  await outsider.close();
});
