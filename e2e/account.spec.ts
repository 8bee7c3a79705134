import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { newMember, openWorkspace } from "./fixtures";

const OLD_PASSWORD = "account-old-password";
const NEW_PASSWORD = "account-new-password";

/** A browser without the admin's session. */
async function guestPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  return context.newPage();
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("a member changes their password: this session stays, other sessions end, only the new password signs in", async ({
  page,
  browser,
}) => {
  // A new member (not the shared admin), with an account made from an invitation.
  const workspaceId = await openWorkspace(page);
  const { email, member } = await newMember(page, browser, workspaceId, { prefix: "account", password: OLD_PASSWORD });

  // The same person signed in elsewhere too.
  const elsewhere = await guestPage(browser);
  await signIn(elsewhere, email, OLD_PASSWORD);
  await expect(elsewhere).toHaveURL(new RegExp(`/w/${workspaceId}`));

  // The account page is linked from the shell.
  await member.getByRole("link", { name: "Account" }).click();
  await expect(member).toHaveURL(/\/account$/);
  await expect(member.getByText(`Signed in as ${email}`)).toBeVisible();
  const { violations } = await new AxeBuilder({ page: member }).withTags(["wcag2a", "wcag2aa"]).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);

  const change = member.getByRole("button", { name: "Change password" });
  // Checked in the browser first: the confirmation must match.
  await member.getByLabel("Current password").fill(OLD_PASSWORD);
  await member.getByLabel(/^New password/).fill(NEW_PASSWORD);
  await member.getByLabel("Confirm new password").fill("something-else");
  await change.click();
  await expect(member.getByTestId("error-confirm")).toHaveText("The passwords do not match");

  // Checked by the server: a wrong current password is answered at its field.
  await member.getByLabel("Current password").fill("not-my-password");
  await member.getByLabel("Confirm new password").fill(NEW_PASSWORD);
  await change.click();
  await expect(member.getByTestId("error-currentPassword")).toHaveText("The current password is not correct");

  await member.getByLabel("Current password").fill(OLD_PASSWORD);
  await change.click();
  await expect(member.getByRole("status").filter({ hasText: "Your password was changed" })).toBeVisible();
  await expect(member.getByLabel("Current password")).toHaveValue("");

  // This session is still signed in; the other one is not.
  await member.goto("/");
  await expect(member).toHaveURL(new RegExp(`/w/${workspaceId}`));
  await elsewhere.goto(`/w/${workspaceId}`);
  await expect(elsewhere).toHaveURL(/\/sign-in/);

  // Sign out: the old password no longer works, the new one does.
  await member.getByRole("button", { name: "Sign out" }).click();
  await expect(member).toHaveURL(/\/sign-in/);
  await signIn(member, email, OLD_PASSWORD);
  await expect(member.getByText("Email or password is incorrect")).toBeVisible();
  await member.getByLabel("Password").fill(NEW_PASSWORD);
  await member.getByRole("button", { name: "Sign in" }).click();
  await expect(member).toHaveURL(new RegExp(`/w/${workspaceId}`));

  await member.context().close();
  await elsewhere.context().close();
});
