import { expect, test } from "@playwright/test";
import { apiPost, createApiKey, createFakeSuite, createWorkspace, expectAccessible, fakeRequests, unique } from "./fixtures";

/**
 * Provider rate limits: a model configuration declares its requests per minute in the form (with
 * inline errors), a run against it is paced to that budget, the run page says it is waiting for
 * the provider's rate limit while it is, and the fake's own request log shows the pace.
 */

test("a declared rpm paces the run, the run page says it waits for the provider's rate limit, and the fake saw the pace", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const workspaceId = await createWorkspace(page, unique("Rate limits"));
  const token = await createApiKey(page, workspaceId, "rate limits e2e");
  // A model name of its own: its provider budget is not shared with other specs running meanwhile.
  const marker = unique("paced");
  const suite = await createFakeSuite(page.request, token, { agent: { name: "Paced bot" }, suite: { name: "Paced" }, model: marker });
  for (let i = 1; i <= 3; i++) {
    await apiPost(page.request, token, `/api/v1/suites/${suite.id}/test-cases`, {
      name: `Paced question ${i}`,
      initial_message: `${marker} question ${i}`,
      checks: [{ type: "contains_phrases", phrases: ["Fake reply"] }],
    });
  }
  const configId = (suite.agent as unknown as { model_config_id: string }).model_config_id;

  // The form: what is not a whole number, or below 1, is named at its field; nothing is saved.
  await page.goto(`/w/${workspaceId}/model-configs/${configId}`);
  const rpm = page.getByLabel("Requests per minute");
  await rpm.fill("lots");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("error-mc-rpm")).toHaveText("Requests per minute must be a whole number");
  await rpm.fill("0");
  await page.getByLabel("Max concurrency").fill("2");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("error-mc-rpm")).toHaveText("Requests per minute must be at least 1");
  await expectAccessible(page, "model configuration form with rate limits");
  await rpm.fill("30");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}/model-configs$`));
  const saved = await (
    await page.request.get(`/api/v1/model-configs/${configId}`, { headers: { authorization: `Bearer ${token}` } })
  ).json();
  expect(saved).toMatchObject({ rpm: 30, tpm: null, max_concurrency: 2 });

  // 30 requests a minute: one every 2 s, so the three cases wait their turn.
  const run = await apiPost(page.request, token, `/api/v1/suites/${suite.id}/runs`, { concurrency: 3 });
  await page.goto(`/w/${workspaceId}/runs/${run.id}`);
  const notice = page.getByTestId("rate-limit-waits");
  await expect(notice).toContainText(/Waiting for the provider's rate limit: [1-3] cases? held back/, { timeout: 15_000 });
  await expect(page.getByTestId("run-phase")).toHaveText("Completed", { timeout: 30_000 });
  await expect(notice).toBeHidden();
  await expect(page.getByTestId("run-stat-passed")).toContainText("3");

  // The fake's own log: three questions, never two within the 2 s the budget allows (give or take the clock).
  const asked = (await fakeRequests<{ at: number; endpoint: string }>(page.request, marker)).filter((r) => r.endpoint === "chat");
  expect(asked).toHaveLength(3);
  const gaps = asked.slice(1).map((r, i) => r.at - asked[i]!.at);
  for (const gap of gaps) expect(gap).toBeGreaterThan(1_800);
});
