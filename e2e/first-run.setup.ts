import { expect, test } from "@playwright/test";
import { ADMIN } from "./fixtures";
import { ADMIN_STATE } from "../playwright.config";

test("first run asks for the first admin and workspace, then signs in", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/setup$/);
  await expect(page.getByRole("heading", { name: "Welcome to Assay" })).toBeVisible();

  // Client-side validation shows errors at the fields.
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create admin and workspace" }).click();
  await expect(page.getByText("Enter a valid email address")).toBeVisible();
  await expect(page.getByText("Use at least 8 characters")).toBeVisible();
  await expect(page.getByText("Workspace name is required")).toBeVisible();

  await page.getByLabel("Your name").fill("Ada Admin");
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByLabel("Workspace name").fill(ADMIN.workspace);
  await page.getByRole("button", { name: "Create admin and workspace" }).click();
  await expect(page).toHaveURL(/\/w\/[0-9a-f-]{36}/);
  await expect(page.getByLabel("Workspace")).toHaveValue(/[0-9a-f-]{36}/);

  // Setup is a one-time page.
  await page.goto("/setup");
  await expect(page).not.toHaveURL(/\/setup$/);

  // Sign out, then sign in again with the new account.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill("wrong-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Email or password is incorrect")).toBeVisible();
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/w\/[0-9a-f-]{36}/);

  await page.context().storageState({ path: ADMIN_STATE });
});
