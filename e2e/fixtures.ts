// Helpers of the browser tests, and the rules every spec follows so that two Playwright workers
// can run spec files side by side against ONE app server, ONE database and ONE fake OpenAI server:
//
// - A workspace of its own: `createWorkspace(page, unique("…"))`. Anything a page counts across a
//   workspace (the alert bell, the Review link's count, lists, the review queue, calibration) sees
//   other specs' data in the shared "QA Team" workspace of `openWorkspace`; use that one only for
//   what no other spec can change under you (your own suite's pages, one row found by its name).
// - Fake rules are global and the first matching rule answers: every rule a spec adds matches a
//   marker of its own, e.g. `const marker = \`MYSPEC${Date.now().toString(36)}\`` put into the
//   agent's system prompt (`match: { anyContains: marker }`), into a case's message, or into a
//   model name (`match: { model: \`slow-${marker}\` }`). A rule matching only a common message
//   ("Repeat banana") or a common model ("gpt-4o-mini") answers, or uses up, another spec's calls.
//   Never clear or replace the fake's rules (DELETE / PUT /__fake/rules): other specs' rules live there.
// - The fake's request log holds every spec's calls: read it with `fakeRequests(request, marker)`.
// - Something of the whole instance (every workspace's runs, the executor process, instance-wide
//   settings): tag the test `{ tag: "@solo" }` and it runs alone, before the parallel specs
//   (the "solo" project in playwright.config.ts). Keep such tests few: they run one at a time.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Browser, type Locator, type Page } from "@playwright/test";
import { FAKE_OPENAI_PORT } from "../playwright.config";

export const ADMIN = { email: "admin@assay.test", password: "correct-horse-battery", workspace: "QA Team" };
export const FAKE_OPENAI_URL = `http://127.0.0.1:${FAKE_OPENAI_PORT}/v1`;

/**
 * The signed-in user's workspace, its home page open: for the admin, the first-run workspace ("QA
 * Team"), not simply the one "/" opens (the first by name: specs running beside this one create
 * workspaces whose names sort earlier); for any other user, the one "/" opens.
 */
export async function openWorkspace(page: Page): Promise<string> {
  await page.goto("/");
  await page.waitForURL(/\/w\/[0-9a-f-]{36}/);
  const opened = /\/w\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  await page.getByLabel("Workspace").waitFor({ state: "attached" });
  const options = await page
    .getByLabel("Workspace")
    .locator("option")
    .evaluateAll((els) => els.map((el) => ({ name: el.textContent?.trim(), id: el.getAttribute("value") })));
  const id = options.find((o) => o.name === ADMIN.workspace)?.id ?? opened;
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  if (id !== opened) await page.goto(`/w/${id}`);
  return id;
}

/** Creates a workspace named `name` as the signed-in admin and returns its id (its suites page is open). */
export async function createWorkspace(page: Page, name: string): Promise<string> {
  await page.goto("/workspaces/new");
  await page.getByLabel("Workspace name").fill(name);
  await page.getByRole("button", { name: "Create workspace" }).click();
  // A new workspace opens on its home dashboard; the specs start from its suites page.
  await page.waitForURL(/\/w\/[0-9a-f-]{36}/);
  const workspaceId = /\/w\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  await page.goto(`/w/${workspaceId}/suites`);
  return workspaceId;
}

/** Unique names so specs can run in any order against one database. */
export function unique(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
}

/** A unique address for an invited person: `unique(prefix)` as a slug at example.test. */
export function uniqueEmail(prefix: string): string {
  return `${unique(prefix)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")}@example.test`;
}

/**
 * Invites `email` on the workspace's members page as the signed-in admin (with `role`, or the
 * form's default) and returns the invite link the page shows.
 */
export async function inviteMember(page: Page, workspaceId: string, email: string, role?: "admin" | "editor" | "viewer"): Promise<string> {
  await page.goto(`/w/${workspaceId}/settings/members`);
  await page.getByLabel("Email").fill(email);
  if (role) await page.getByLabel("Role", { exact: true }).selectOption(role);
  await page.getByRole("button", { name: "Invite member" }).click();
  return page.getByLabel("Invite link").inputValue();
}

/**
 * Opens an invite link in a fresh browser context (without the admin's session), creates the
 * account with `password` (and `name`, when given) and lands in the workspace. Close it with
 * `page.context().close()`.
 */
export async function acceptInvite(
  browser: Browser,
  link: string,
  workspaceId: string,
  account: { password: string; name?: string },
): Promise<Page> {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto(link);
  if (account.name) await page.getByLabel("Your name").fill(account.name);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Create account and join" }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}`));
  return page;
}

/**
 * A new member (not the shared admin) made the way people join: invited as `uniqueEmail(prefix)`
 * by the signed-in admin on `page`, with the account created from the link in a fresh context.
 */
export async function newMember(
  page: Page,
  browser: Browser,
  workspaceId: string,
  opts: { prefix: string; role?: "admin" | "editor" | "viewer"; password: string; name?: string },
): Promise<{ email: string; member: Page }> {
  const email = uniqueEmail(opts.prefix);
  const link = await inviteMember(page, workspaceId, email, opts.role);
  return { email, member: await acceptInvite(browser, link, workspaceId, opts) };
}

/** A new API key of the workspace (admin unless `role` says otherwise), made on its settings page (the only time the key shows). */
export async function createApiKey(
  page: Page,
  workspaceId: string,
  label = "e2e",
  role: "admin" | "editor" | "viewer" = "admin",
): Promise<string> {
  await page.goto(`/w/${workspaceId}/settings/api-keys`);
  await page.getByLabel("Name", { exact: true }).fill(unique(label));
  await page.getByLabel("Role", { exact: true }).selectOption(role);
  await page.getByRole("button", { name: "Create API key" }).click();
  const field = page.getByLabel("New API key");
  await expect(field).toHaveValue(/^assay_\S{32,}$/);
  return field.inputValue();
}

/** A workspace of the spec's own, named `unique(name)`, and an admin API key of it (labelled `keyLabel`). */
export async function workspaceWithKey(page: Page, name: string, keyLabel: string): Promise<{ workspaceId: string; token: string }> {
  const workspaceId = await createWorkspace(page, unique(name));
  return { workspaceId, token: await createApiKey(page, workspaceId, keyLabel) };
}

/** POST to the REST API with a key; a non-2xx answer fails the test with its body. */
export async function apiPost(
  request: APIRequestContext,
  token: string,
  url: string,
  data: unknown,
): Promise<{ id: string; name: string }> {
  const res = await request.post(url, { headers: { authorization: `Bearer ${token}` }, data });
  expect(res.status(), `POST ${url}: ${await res.text()}`).toBeLessThan(300);
  return (await res.json()) as { id: string; name: string };
}

/** A model configuration on the fake OpenAI server, named `unique(name)`. */
export async function createFakeModelConfig(request: APIRequestContext, token: string, name: string, model = "gpt-4o-mini") {
  return apiPost(request, token, "/api/v1/model-configs", { name: unique(name), base_url: FAKE_OPENAI_URL, model, api_key: "sk-fake" });
}

/**
 * A suite of a chat agent, both on one new model configuration of the fake OpenAI server (the
 * agent's model and the suite's judge, answering as `model`). `agent` and `suite` are their API
 * fields; their names are made unique. Answers the suite, with its agent.
 */
export async function createFakeSuite(
  request: APIRequestContext,
  token: string,
  {
    agent,
    suite,
    model,
  }: { agent: { name: string; [field: string]: unknown }; suite: { name: string; [field: string]: unknown }; model?: string },
) {
  const config = await createFakeModelConfig(request, token, `${agent.name} model`, model);
  const createdAgent = await apiPost(request, token, "/api/v1/agents", {
    kind: "chat",
    model_config_id: config.id,
    ...agent,
    name: unique(agent.name),
  });
  const created = await apiPost(request, token, "/api/v1/suites", {
    llm_judge_model_config_id: config.id,
    ...suite,
    agent_id: createdAgent.id,
    name: unique(suite.name),
  });
  return { ...created, agent: createdAgent };
}

/** Adds `cases` (test case API bodies) to the suite, one after another in their order. */
export async function addTestCases(request: APIRequestContext, token: string, suiteId: string, cases: object[]) {
  for (const c of cases) await apiPost(request, token, `/api/v1/suites/${suiteId}/test-cases`, c);
}

/**
 * The start many specs share: a workspace of the spec's own with an admin API key
 * (`workspaceWithKey`), and in it a suite on the fake OpenAI server (`createFakeSuite`) holding
 * `cases`. Answers the workspace's id, the key and the suite.
 */
export async function fakeSuiteOfItsOwn(
  page: Page,
  opts: { workspace: string; keyLabel: string; cases: object[] } & Parameters<typeof createFakeSuite>[2],
) {
  const { workspaceId, token } = await workspaceWithKey(page, opts.workspace, opts.keyLabel);
  const suite = await createFakeSuite(page.request, token, { agent: opts.agent, suite: opts.suite, model: opts.model });
  await addTestCases(page.request, token, suite.id, opts.cases);
  return { workspaceId, token, suite };
}

/**
 * The Agent Eval variables as the agent form's button creates them: AIConfiguration choosing one
 * of `configs` by name (the first is the default) and a free Temperature (default 0.7).
 */
export function agentEvalVariables(configs: { name: string }[]) {
  return [
    {
      name: "AIConfiguration",
      display_name: "AI configuration",
      data_type: "string",
      value_source: "static",
      possible_values: configs.map((c) => ({ value: c.name })),
      default_value: configs[0]!.name,
    },
    { name: "Temperature", display_name: "Temperature", data_type: "number", value_source: "freeform", default_value: 0.7 },
  ];
}

/** The fake OpenAI server's control endpoints (scripted replies, the request log) sit beside its /v1. */
const FAKE_CONTROL = FAKE_OPENAI_URL.replace(/\/v1$/, "");

/** Adds `rules` to the fake OpenAI server's scripted replies (the first rule that matches a request answers it). */
export async function addFakeRules(request: APIRequestContext, rules: unknown[]) {
  const res = await request.post(`${FAKE_CONTROL}/__fake/rules`, { data: rules });
  expect(res.ok(), `fake rules: ${await res.text()}`).toBe(true);
}

/**
 * The requests the fake OpenAI server has received, oldest first: every spec's, or, given your
 * spec's `marker`, those whose body or headers contain it (other specs run at the same time).
 */
export async function fakeRequests<T>(request: APIRequestContext, marker?: string): Promise<T[]> {
  const all = (await (await request.get(`${FAKE_CONTROL}/__fake/requests`)).json()) as T[];
  return marker === undefined ? all : all.filter((r) => JSON.stringify(r).includes(marker));
}

/** Starts a run of the suite (`body` as the API takes it) and waits until it completed; its id. */
export async function runToCompletion(request: APIRequestContext, token: string, suiteId: string, body: object = {}): Promise<string> {
  const run = await apiPost(request, token, `/api/v1/suites/${suiteId}/runs`, body);
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/v1/runs/${run.id}`, { headers: { authorization: `Bearer ${token}` } });
        return ((await res.json()) as { status: string }).status;
      },
      { timeout: 30_000, intervals: [200] },
    )
    .toBe("completed");
  return run.id;
}

/** A field's label, exactly, with or without the required-field marker ("Name" or "Name *"). */
export const exactly = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}( \\*)?$`);

/**
 * On the open new-case form, submits a case named `name` that must be refused twice over: a
 * semantic similarity check with threshold 2, and the default status (active, checked here)
 * without an initial message or a simulated user. Answers the check's group.
 */
export async function submitRefusedCase(page: Page, name: string): Promise<Locator> {
  await page.getByLabel(exactly("Name")).fill(name);
  await page.getByRole("button", { name: "Add semantic similarity check" }).click();
  const check = page.getByRole("group", { name: /Check 1/ });
  await check.getByLabel("Expected answer").fill("Your refund was issued");
  await check.getByLabel("Threshold (0 to 1)").fill("2");
  await expect(page.getByLabel(exactly("Status"))).toHaveValue("active");
  await page.getByRole("button", { name: "Create test case" }).click();
  return check;
}

/**
 * The pass-rate trend on a suite's runs page: its chart, an image named by its summary `name`, and
 * its data table with `rows` rows (the header first), which it answers.
 */
export async function passRateTrendRows(page: Page, name: string, rows: number): Promise<Locator> {
  await expect(page.getByRole("img", { name })).toBeVisible();
  const trendRows = page.getByRole("table", { name: "Pass rate per run" }).getByRole("row");
  await expect(trendRows).toHaveCount(rows);
  return trendRows;
}

/** The element's content fits its box (no horizontal overflow) at the current width. */
export async function expectNoOverflow(locator: Locator, what: string) {
  const { scroll, client } = await locator.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(scroll, `${what} overflows its box (${scroll} > ${client})`).toBeLessThanOrEqual(client);
}

/**
 * Screenshots of the page at 1440 and 390 px wide; `boxes` must not overflow at either, and at
 * 390 px the page never scrolls sideways (the sidebar is a menu there).
 */
export async function lookAt(page: Page, name: string, boxes: [Locator, string][]) {
  const shot = (suffix: string) => page.screenshot({ path: test.info().outputPath(`${name}-${suffix}.png`), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 1000 });
  for (const [box, what] of boxes) await expectNoOverflow(box, `${what} at 1440 px`);
  await shot("1440");
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [box, what] of boxes) await expectNoOverflow(box, `${what} at 390 px`);
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth), `${name} scrolls sideways at 390 px`).toBeLessThanOrEqual(390);
  await shot("390");
  await page.setViewportSize({ width: 1280, height: 720 });
}

/** axe on the current page: no serious or critical WCAG 2 A/AA violation (soft: the spec goes on and reports all). */
export async function expectAccessible(page: Page, name: string) {
  await test.step(`axe: ${name}`, async () => {
    const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
    const blocking = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect
      .soft(
        blocking.map((v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
        `${name} has serious or critical violations`,
      )
      .toEqual([]);
  });
}
