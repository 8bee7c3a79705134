import { expect, test } from "@playwright/test";
import { ADMIN, acceptInvite, createApiKey, inviteMember, newMember, openWorkspace, unique, uniqueEmail } from "./fixtures";

test("an API key is shown once, then only by its prefix, and stops working when revoked", async ({ page }) => {
  const workspaceId = await openWorkspace(page);
  await page.goto(`/w/${workspaceId}/settings/api-keys`);
  const name = unique("CI key");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Role", { exact: true }).selectOption("viewer");
  await page.getByRole("button", { name: "Create API key" }).click();

  const tokenField = page.getByLabel("New API key");
  await expect(tokenField).toHaveValue(/^assay_\S{32,}$/);
  const token = await tokenField.inputValue();
  await expect(page.getByText("This is the only time it is shown")).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText(`${token.slice(0, 12)}…`);

  const authorization = { authorization: `Bearer ${token}` };
  expect((await page.request.get("/api/v1/suites", { headers: authorization })).status()).toBe(200);

  // After a reload the plaintext is gone for good: only the prefix remains.
  await page.reload();
  await expect(page.getByLabel("New API key")).toHaveCount(0);
  await expect(page.getByText(token)).toHaveCount(0);
  await expect(row).toContainText(`${token.slice(0, 12)}…`);
  await expect(row).toContainText("Viewer");

  await row.getByRole("button", { name: `Revoke ${name}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke key" }).click();
  await expect(row).toContainText("Revoked");
  await expect(row.getByRole("button", { name: `Revoke ${name}` })).toHaveCount(0);
  const refused = await page.request.get("/api/v1/suites", { headers: authorization });
  expect(refused.status()).toBe(401);
  expect((await refused.json()).error.code).toBe("unauthorized");
});

test("an API key acts with at most its creator's current role: a demoted admin's key loses admin power, and the keys page says so", async ({
  page,
  browser,
}) => {
  const workspaceId = await openWorkspace(page);
  // A new admin makes an admin key.
  const { email, member } = await newMember(page, browser, workspaceId, {
    prefix: "key-maker",
    role: "admin",
    password: "key-maker-password-1",
  });
  const token = await createApiKey(member, workspaceId, "Demoted admin's key");
  await member.context().close();
  const authorization = { authorization: `Bearer ${token}` };
  // Webhooks are an admin's: the key reads them while its creator is an admin.
  expect((await page.request.get("/api/v1/webhooks", { headers: authorization })).status()).toBe(200);

  // The owner demotes them to viewer: the key is a viewer key from the next request on.
  await page.goto(`/w/${workspaceId}/settings/members`);
  await page.getByLabel(`Role of ${email}`).selectOption("viewer");
  await expect(async () => {
    await page.reload();
    await expect(page.getByLabel(`Role of ${email}`)).toHaveValue("viewer", { timeout: 1000 });
  }).toPass();
  const refused = await page.request.get("/api/v1/webhooks", { headers: authorization });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.code).toBe("forbidden");
  const create = await page.request.post("/api/v1/webhooks", {
    headers: authorization,
    data: { url: "http://127.0.0.1:9/hook", events: ["run.completed"] },
  });
  expect(create.status()).toBe(403);
  expect((await page.request.get("/api/v1/suites", { headers: authorization })).status()).toBe(200);

  // The keys page shows the key's own role and the one it acts with, and why.
  await page.goto(`/w/${workspaceId}/settings/api-keys`);
  const row = page.getByRole("row").filter({ hasText: "Demoted admin's key" });
  await expect(row).toContainText("Admin");
  await expect(row.getByText("Acts as Viewer: its creator is now a viewer")).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(row.getByText("Acts as Viewer: its creator is now a viewer")).toBeVisible();
  await page.setViewportSize({ width: 1440, height: 900 });
});

test("an invited person creates their account from the link and lands in the workspace", async ({ page, browser }) => {
  const workspaceId = await openWorkspace(page);
  const email = uniqueEmail("invitee");
  const link = await inviteMember(page, workspaceId, email, "editor");
  expect(link).toMatch(/\/invite\/inv_\S+$/);
  await expect(page.getByRole("listitem").filter({ hasText: email })).toBeVisible();

  // A fresh browser without the admin's session opens the link.
  const guest = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const p2 = await guest.newPage();
  await p2.goto(link);
  await expect(p2.getByRole("heading", { name: /^Join / })).toBeVisible();
  await expect(p2.getByLabel("Email")).toHaveValue(email);
  await p2.getByLabel("Password").fill("short");
  await p2.getByRole("button", { name: "Create account and join" }).click();
  await expect(p2.getByText("Use at least 8 characters")).toBeVisible();
  await p2.getByLabel("Your name").fill("Ivy Invitee");
  await p2.getByLabel("Password").fill("invitee-password-1");
  await p2.getByRole("button", { name: "Create account and join" }).click();
  await expect(p2).toHaveURL(new RegExp(`/w/${workspaceId}`));

  // Signed in as the new editor: members are readable, admin controls are not there.
  await p2.goto(`/w/${workspaceId}/settings/members`);
  await expect(p2.getByText("Only admins can invite, remove or change the role of members.")).toBeVisible();
  await expect(p2.getByRole("button", { name: "Invite member" })).toHaveCount(0);
  await expect(p2.getByRole("row").filter({ hasText: email })).toContainText("Editor");
  await p2.goto(`/w/${workspaceId}/settings/api-keys`);
  await expect(p2.getByText("Only admins can manage API keys")).toBeVisible();

  // The link works once.
  await p2.goto(link);
  await expect(p2.getByText("This invite link was already used.")).toBeVisible();
  await guest.close();

  // The admin sees the new member and no pending invitation for them.
  await page.reload();
  await expect(page.getByRole("row").filter({ hasText: email })).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: email })).toHaveCount(0);
});

test("a second workspace is separate from the first, and the switcher moves between them", async ({ page }) => {
  const firstId = await openWorkspace(page);
  await page.goto(`/w/${firstId}/settings`);
  // The form fills its inputs when it hydrates (react-hook-form): read the name once it is there.
  await expect(page.getByLabel("Workspace name")).not.toHaveValue("");
  const firstName = await page.getByLabel("Workspace name").inputValue();
  const switcher = page.getByLabel("Workspace", { exact: true });

  await switcher.selectOption("__new");
  await expect(page).toHaveURL(/\/workspaces\/new$/);
  await page.getByRole("button", { name: "Create workspace" }).click();
  await expect(page.getByText("Workspace name is required")).toBeVisible();
  const secondName = unique("Second team");
  await page.getByLabel("Workspace name").fill(secondName);
  await page.getByRole("button", { name: "Create workspace" }).click();
  await page.waitForURL((url) => /\/w\/[0-9a-f-]{36}/.test(url.pathname) && !url.pathname.includes(firstId));
  const secondId = /\/w\/([0-9a-f-]{36})/.exec(page.url())![1]!;

  // The second workspace has its own settings, members and keys: nothing of the first shows.
  await page.goto(`/w/${secondId}/settings`);
  await expect(page.getByLabel("Workspace name")).toHaveValue(secondName);
  await page.goto(`/w/${secondId}/settings/members`);
  const memberRows = page.getByRole("table").getByRole("row");
  await expect(memberRows).toHaveCount(2); // header + the creator
  await expect(memberRows.nth(1)).toContainText(ADMIN.email);
  await expect(memberRows.nth(1)).toContainText("Owner");
  await expect(page.getByText("invitee-")).toHaveCount(0);
  await page.goto(`/w/${secondId}/settings/api-keys`);
  await expect(page.getByText("No API keys yet.")).toBeVisible();

  // Switch back with the sidebar switcher.
  await expect(switcher).toHaveValue(secondId);
  await switcher.selectOption(firstId);
  await expect(page).toHaveURL(new RegExp(`/w/${firstId}`));
  await page.goto(`/w/${firstId}/settings`);
  await expect(page.getByLabel("Workspace name")).toHaveValue(firstName);
  await expect(page.getByLabel("Workspace", { exact: true })).toHaveValue(firstId);
  // Both workspaces are offered in the switcher.
  await expect(page.getByLabel("Workspace", { exact: true }).getByRole("option", { name: secondName })).toHaveCount(1);
});

test("an invited address that already has an account gets a pending invitation and joins after signing in", async ({ page, browser }) => {
  const firstId = await openWorkspace(page);
  // A second workspace the person will be invited to once they have an account.
  await page.goto("/workspaces/new");
  // Named to sort after the admin's first workspace, which "/" opens for the other specs.
  const secondName = unique("Team to join");
  await page.getByLabel("Workspace name").fill(secondName);
  await page.getByRole("button", { name: "Create workspace" }).click();
  await page.waitForURL((url) => /\/w\/[0-9a-f-]{36}/.test(url.pathname) && !url.pathname.includes(firstId));
  const secondId = /\/w\/([0-9a-f-]{36})/.exec(page.url())![1]!;

  async function invite(workspaceId: string, email: string) {
    const link = await inviteMember(page, workspaceId, email);
    await expect(page.getByText(`Invitation created for ${email}`)).toBeVisible();
    return link;
  }

  // The person gets an account through a first invitation.
  const email = uniqueEmail("existing");
  const firstLink = await invite(firstId, email);
  const p2 = await acceptInvite(browser, firstLink, firstId, { password: "existing-password-1" });

  // Inviting the now existing address answers exactly as for a new one, and adds nobody yet.
  const secondLink = await invite(secondId, email);
  await expect(page.getByText("was added to this workspace")).toHaveCount(0);
  await expect(page.getByRole("listitem").filter({ hasText: email })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: email })).toHaveCount(0);

  // Signed out, the link shows the same page as a link for an address without an account: it
  // must not tell whoever opens it that this address is registered.
  const freshLink = await invite(secondId, uniqueEmail("no-account"));
  const stranger = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const p3 = await stranger.newPage();
  for (const link of [secondLink, freshLink]) {
    await p3.goto(link);
    await expect(p3.getByRole("heading", { name: `Join ${secondName}` })).toBeVisible();
    await expect(p3.getByRole("link", { name: "Sign in to join" })).toBeVisible();
    await expect(p3.getByRole("button", { name: "Create account and join" })).toBeVisible();
    await expect(p3.getByText("already exists")).toHaveCount(0);
  }
  const pageText = async (link: string) => {
    await p3.goto(link);
    return (await p3.getByRole("main").innerText()).replace(/\S+@example\.test/g, "(address)");
  };
  expect(await pageText(secondLink)).toBe(await pageText(freshLink));
  await stranger.close();

  // Signed in as that address, the link offers Join; joining lands in the workspace.
  await p2.goto(secondLink);
  await p2.getByRole("button", { name: `Join ${secondName}` }).click();
  await expect(p2).toHaveURL(new RegExp(`/w/${secondId}`));
  await p2.context().close();
  await page.reload();
  await expect(page.getByRole("row").filter({ hasText: email })).toContainText("Editor");
});
