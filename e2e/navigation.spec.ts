import { expect, test, type Page } from "@playwright/test";
import {
  addFakeRules,
  addTestCases,
  createApiKey,
  createFakeSuite,
  createWorkspace,
  expectAccessible,
  fakeSuiteOfItsOwn,
  runToCompletion,
  unique,
  workspaceWithKey,
} from "./fixtures";

/**
 * Navigation: the workspace's home dashboard, the runs list across suites with its filters, the
 * sidebar's Alerts item, the skip link, and the small-screen menu (every main page without
 * horizontal page scrolling at 390 px).
 */

/** A case the fake model passes: its check asks for the phrase every fake reply holds. */
const GREETS = { name: "Greets the customer", initial_message: "Hello", checks: [{ type: "contains_phrases", phrases: ["Fake reply"] }] };

/** A suite of one passing and one failing case (its check asks for a phrase the fake model never says). */
async function suiteWithAFailure(page: Page, token: string, name: string) {
  const suite = await createFakeSuite(page.request, token, { agent: { name: `${name} bot` }, suite: { name } });
  await addTestCases(page.request, token, suite.id, [
    GREETS,
    {
      name: "Quotes the refund policy",
      initial_message: "Can I get a refund?",
      checks: [{ type: "contains_phrases", phrases: ["thirty days refund window"] }],
    },
  ]);
  return suite as { id: string; name: string };
}

test("home shows the last pass rate and the failure; the runs list filters by suite and branch; Alerts sits in the sidebar", async ({
  page,
}) => {
  const workspaceId = await createWorkspace(page, unique("Navigation"));
  await page.goto(`/w/${workspaceId}`);
  await expect(page.getByText("No suites yet")).toBeVisible();
  await expect(page.getByRole("link", { name: "Create a suite" })).toBeVisible();

  const token = await createApiKey(page, workspaceId, "navigation e2e");
  const checkout = await suiteWithAFailure(page, token, "Checkout");
  const search = await suiteWithAFailure(page, token, "Search");
  const mainRun = await runToCompletion(page.request, token, checkout.id, { metadata: { branch: "main" } });
  await runToCompletion(page.request, token, checkout.id, { metadata: { branch: "feature/refunds" } });
  await runToCompletion(page.request, token, search.id, { metadata: { branch: "main" } });

  // Home: the logo leads there; each suite with its last pass rate; the failure links to its case.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Suites" }).click();
  await page.getByRole("link", { name: "Assay" }).first().click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}$`));
  await expect(page.getByRole("heading", { name: "Home", level: 1 })).toBeVisible();
  const suites = page.getByRole("region", { name: "Suites" });
  await expect(suites.getByRole("link", { name: checkout.name, exact: true })).toBeVisible();
  await expect(suites.getByRole("link", { name: `${checkout.name}: last run #2, pass rate 50%` })).toBeVisible();
  const failures = page.getByRole("region", { name: "Recent failures" });
  const failure = failures.getByRole("link", { name: "Quotes the refund policy" }).first();
  await expect(failure).toBeVisible();
  await expectAccessible(page, "home dashboard");
  await failure.click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}\/cases\/[0-9a-f-]{36}$/);

  // Runs: across suites, then by suite and branch (the URL keeps the filters).
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Runs" }).click();
  await expect(page.getByText("1–3 of 3 runs")).toBeVisible();
  const filters = page.getByRole("search", { name: "Filter runs" });
  await filters.getByLabel("Suite").selectOption({ label: checkout.name });
  await filters.getByLabel("Metadata").fill("branch:main");
  await filters.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/metadata=branch%3Amain/);
  await expect(page.getByText("1–1 of 1 runs")).toBeVisible();
  const table = page.getByRole("table", { name: "Runs, newest first" });
  await expect(table.getByRole("link", { name: `${checkout.name} #1` })).toHaveAttribute("href", `/w/${workspaceId}/runs/${mainRun}`);
  await expectAccessible(page, "runs list");
  await filters.getByLabel("Metadata").fill("main");
  await filters.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("Write a metadata filter as key:value, for example branch:main")).toBeVisible();

  // Alerts in the sidebar with the number of open alerts (none in a new workspace).
  const alerts = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Alerts/ });
  await expect(alerts).toHaveAccessibleName("Alerts");
  await alerts.click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}/alerts`));
});

test("the Alerts item counts the open alerts", async ({ page }) => {
  const marker = `NAVALERTS${Date.now().toString(36)}`;
  const { workspaceId, token, suite } = await fakeSuiteOfItsOwn(page, {
    workspace: "Navigation alerts",
    keyLabel: "navigation alerts e2e",
    agent: { name: "Regressing bot", system_prompt: `You help customers. (${marker})` },
    suite: { name: "Regressing" },
    cases: [GREETS],
  });
  // A passing run, then the agent regresses: the second run fails and raises one regression alert.
  await runToCompletion(page.request, token, suite.id);
  await addFakeRules(page.request, [{ match: { anyContains: marker, endpoint: "chat" }, reply: { content: "Sorry, I cannot help." } }]);
  await runToCompletion(page.request, token, suite.id);
  const alerts = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Alerts, 1 open" });
  await expect
    .poll(
      async () => {
        await page.goto(`/w/${workspaceId}`);
        return alerts.count();
      },
      { timeout: 20_000 },
    )
    .toBe(1);
  await expect(page.getByRole("region", { name: "Open alerts" }).getByRole("link", { name: `${suite.name} #2` })).toBeVisible();
});

test("the skip link is the first stop of the keyboard and moves focus to the main content", async ({ page }) => {
  const workspaceId = await createWorkspace(page, unique("Navigation skip"));
  await page.goto(`/w/${workspaceId}`);
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to main content" });
  await expect(skip).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("main")).toBeFocused();
});

test.describe("at 390 px wide", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the sidebar is a menu, and no main page scrolls sideways", async ({ page }) => {
    const { workspaceId, token } = await workspaceWithKey(page, "Navigation phone", "navigation phone e2e");
    const suite = await suiteWithAFailure(page, token, "Phone");
    const runId = await runToCompletion(page.request, token, suite.id, { metadata: { branch: "main" } });

    await page.goto(`/w/${workspaceId}`);
    const menu = page.getByRole("button", { name: "Menu" });
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav).toBeHidden();
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await menu.click();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await expect(nav).toBeVisible();
    await expect(page.getByRole("complementary", { name: "Sidebar" }).getByRole("link", { name: "Assay" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(nav).toBeHidden();
    await expect(menu).toBeFocused();
    await expectAccessible(page, "home at 390 px");

    // A link in the menu closes it.
    await menu.click();
    await nav.getByRole("link", { name: "Runs" }).click();
    await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}/runs$`));
    await expect(nav).toBeHidden();
    await expectAccessible(page, "runs list at 390 px");

    const pages = [
      `/w/${workspaceId}`,
      `/w/${workspaceId}/suites`,
      `/w/${workspaceId}/suites/${suite.id}`,
      `/w/${workspaceId}/suites/${suite.id}/runs`,
      `/w/${workspaceId}/runs`,
      `/w/${workspaceId}/runs/${runId}`,
      `/w/${workspaceId}/alerts`,
      `/w/${workspaceId}/review`,
      `/w/${workspaceId}/agents`,
      `/w/${workspaceId}/model-configs`,
      `/w/${workspaceId}/settings`,
      `/w/${workspaceId}/settings/members`,
      `/w/${workspaceId}/settings/api-keys`,
      `/w/${workspaceId}/settings/webhooks`,
      "/account",
    ];
    for (const path of pages) {
      await page.goto(path);
      await expect(page.getByRole("main")).toBeVisible();
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: document.scrollingElement!.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      expect.soft(scrollWidth, `${path} scrolls sideways`).toBeLessThanOrEqual(innerWidth);
    }
  });
});
