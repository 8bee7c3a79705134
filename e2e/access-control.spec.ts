import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { apiPost, createApiKey, newMember, openWorkspace, unique, createFakeModelConfig, runToCompletion } from "./fixtures";

/**
 * Access control in the browser: the retention page refuses settings that would delete
 * everything and asks again before a cleanup deletes more than half of all runs; a sign-in lock
 * caught by someone else's wrong passwords does not keep the user out; a page of another origin
 * cannot upload into a workspace with the user's session.
 *
 * The cleanup test needs its runs to be all of the instance's finished runs: it is tagged @solo,
 * so it runs alone before the other specs, and every Playwright run starts on a fresh database.
 */

const slug = (prefix: string) =>
  unique(prefix)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-");

/** A one-case suite on the fake model whose own retention keeps none of its runs. */
async function suiteKeepingNothing(request: APIRequestContext, token: string) {
  const config = await createFakeModelConfig(request, token, "Retention model");
  const agent = await apiPost(request, token, "/api/v1/agents", {
    name: unique("Retention bot"),
    kind: "chat",
    system_prompt: "You answer briefly.",
    model_config_id: config.id,
  });
  const suite = await apiPost(request, token, "/api/v1/suites", {
    agent_id: agent.id,
    name: unique("Short-lived runs"),
    retention_days: 0,
    retention_runs: 0,
  });
  await apiPost(request, token, `/api/v1/suites/${suite.id}/test-cases`, {
    name: "Greets",
    initial_message: "Hello",
    checks: [{ type: "contains_phrases", phrases: ["Fake reply"] }],
  });
  return suite.id;
}

test(
  "retention refuses zero, and a cleanup of more than half of all finished runs is asked about again with its numbers",
  // Alone (the solo project in playwright.config.ts): it counts the finished runs of every workspace.
  { tag: "@solo" },
  async ({ page }) => {
    const workspaceId = await openWorkspace(page);
    const token = await createApiKey(page, workspaceId, "retention e2e");
    const suiteId = await suiteKeepingNothing(page.request, token);
    for (let i = 0; i < 3; i++) await runToCompletion(page.request, token, suiteId);
    const runsOfSuite = async () =>
      (
        (await (await page.request.get(`/api/v1/suites/${suiteId}/runs`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
          data: unknown[];
        }
      ).data.length;
    expect(await runsOfSuite()).toBe(3);

    // Retention lives on the Instance page now: the old settings address leads there.
    await page.goto(`/w/${workspaceId}/settings/retention`);
    await expect(page).toHaveURL(/\/instance$/);
    await page.getByLabel("Keep runs for (days)").fill("0");
    await page.getByLabel("Always keep the newest completed runs per suite").fill("0");
    await page.getByRole("button", { name: "Save retention settings" }).click();
    await expect(page.getByText("days must be at least 1")).toBeVisible();
    await expect(page.getByText("runs must be at least 1")).toBeVisible();
    await expect(page.getByText("Retention settings saved")).toHaveCount(0);

    // First question as always; then the server counts, and the page asks again with the numbers.
    const runCleanup = async () => {
      await page.getByRole("button", { name: "Run cleanup now" }).click();
      await page.getByRole("dialog", { name: "Run the cleanup now?" }).getByRole("button", { name: "Delete old runs" }).click();
      return page.getByRole("dialog", { name: "Delete more than half of all runs?" });
    };
    let second = await runCleanup();
    await expect(second).toBeVisible();
    await expect(second).toContainText("This cleanup would delete 3 of the 3 finished runs of every workspace");
    await second.getByRole("button", { name: "Cancel" }).click();
    await expect(second).toHaveCount(0);
    expect(await runsOfSuite()).toBe(3);

    second = await runCleanup();
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(second.getByRole("button", { name: "Delete 3 runs" })).toBeVisible();
    await second.getByRole("button", { name: "Delete 3 runs" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Cleanup done: deleted 3 runs" })).toBeVisible();
    await page.setViewportSize({ width: 1440, height: 900 });
    expect(await runsOfSuite()).toBe(0);
  },
);

/** A member with a password, made from an invitation (not the shared admin). */
async function memberWithPassword(browser: Browser, page: Page, workspaceId: string, password: string) {
  const { email, member } = await newMember(page, browser, workspaceId, { prefix: "lockout", password });
  await member.context().close();
  return email;
}

test("ten wrong passwords from one address lock that address out of the account, not the account's owner elsewhere", async ({
  page,
  browser,
}) => {
  const workspaceId = await openWorkspace(page);
  const email = await memberWithPassword(browser, page, workspaceId, "lockout-password-1");

  // Someone else, at their own address, guesses.
  const attacker = await browser.newContext({
    storageState: { cookies: [], origins: [] },
    extraHTTPHeaders: { "x-forwarded-for": "203.0.113.66" },
  });
  const a = await attacker.newPage();
  await a.goto("/sign-in");
  for (let i = 0; i < 10; i++) {
    await a.getByLabel("Email").fill(email);
    await a.getByLabel("Password").fill(`wrong-guess-${i}`);
    await a.getByRole("button", { name: "Sign in" }).click();
    await expect(a.getByText("Email or password is incorrect")).toBeVisible();
  }
  await a.getByLabel("Password").fill("lockout-password-1");
  await a.getByRole("button", { name: "Sign in" }).click();
  await expect(a.getByText(/^Too many attempts, try again in 1[45] minutes$/)).toBeVisible();
  await expect(a).toHaveURL(/\/sign-in/);
  await attacker.close();

  // The member, at theirs, signs in.
  const owner = await browser.newContext({
    storageState: { cookies: [], origins: [] },
    extraHTTPHeaders: { "x-forwarded-for": "198.51.100.77" },
  });
  const m = await owner.newPage();
  await m.goto("/sign-in");
  await m.getByLabel("Email").fill(email);
  await m.getByLabel("Password").fill("lockout-password-1");
  await m.getByRole("button", { name: "Sign in" }).click();
  await expect(m).toHaveURL(new RegExp(`/w/${workspaceId}`));
  await owner.close();
});

test("a page of another origin cannot upload into a workspace with the user's session; the app's own upload still works", async ({
  page,
  baseURL,
}) => {
  const workspaceId = await openWorkspace(page);
  const target = `${baseURL}/api/w/${workspaceId}/files`;
  // A page served from another port of the same host: another origin, but the same site, so the
  // session cookie goes along with what it sends.
  const elsewhere = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<!doctype html><title>Elsewhere</title><p>Another site</p>");
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, "127.0.0.1", resolve));
  const host = new URL(baseURL!).hostname;
  await page.goto(`http://${host}:${(elsewhere.address() as AddressInfo).port}/`);
  const name = `${slug("planted")}.txt`;
  const response = page.waitForResponse((r) => r.url() === target && r.request().method() === "POST");
  await page.evaluate(
    async ({ target, name }) => {
      const form = new FormData();
      form.append("file", new Blob(["planted by another site"], { type: "text/plain" }), name);
      // A "simple" cross-origin request: no preflight, the cookie goes along, and the server acts on
      // it although the page never reads the (opaque) answer.
      await fetch(target, { method: "POST", body: form, mode: "no-cors", credentials: "include" }).catch(() => undefined);
    },
    { target, name },
  );
  expect((await response).status()).toBe(403);
  await new Promise<void>((resolve) => elsewhere.close(() => resolve()));

  await page.goto(`/w/${workspaceId}`);
  const list = await page.request.get(`/api/w/${workspaceId}/files?limit=100`);
  expect(list.status()).toBe(200);
  expect(((await list.json()) as { data: { name: string }[] }).data.map((f) => f.name)).not.toContain(name);

  // The same upload from the app's own page goes through.
  const own = await page.evaluate(
    async ({ target, name }) => {
      const form = new FormData();
      form.append("file", new Blob(["uploaded by the app"], { type: "text/plain" }), name);
      return (await fetch(target, { method: "POST", body: form })).status;
    },
    { target, name },
  );
  expect(own).toBe(201);
});
