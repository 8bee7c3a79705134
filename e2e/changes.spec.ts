import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { addFakeRules, apiPost, createApiKey, createFakeSuite, expectAccessible, lookAt, openWorkspace, runToCompletion } from "./fixtures";

/**
 * "Why did the pass rate drop?": a suite of three passing cases runs four times, and between runs
 * (a) one case's check is edited so it fails, (b) the agent's system prompt changes so another
 * case fails, (c) nothing changes but the model answers one case differently once. Each time the
 * run's changes card lists the flip with its cause (the case changed / the agent changed /
 * neither: possibly flaky), "What changed" shows the check's or the prompt's before and after,
 * and the alert opens with the same explanation, names the runs by number and says where the run
 * comes from. The pages are looked at 1440 and 390 px wide.
 */

type Token = string;

async function patch(request: APIRequestContext, token: Token, url: string, data: unknown) {
  const res = await request.patch(url, { headers: { authorization: `Bearer ${token}` }, data });
  expect(res.status(), `PATCH ${url}: ${await res.text()}`).toBeLessThan(300);
}

/** Waits until the suite has `count` alerts (one is raised just after its run completes). */
async function waitForAlerts(request: APIRequestContext, token: Token, suiteId: string, count: number) {
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/v1/alerts?suite_id=${suiteId}`, { headers: { authorization: `Bearer ${token}` } });
        return ((await res.json()) as { data: unknown[] }).data.length;
      },
      { timeout: 10_000, intervals: [200] },
    )
    .toBe(count);
}

/** Opens the run page and its changes card's "What changed"; the card and the opened panel. */
async function openChanges(page: Page, workspaceId: string, runId: string, since: number) {
  await page.goto(`/w/${workspaceId}/runs/${runId}`);
  const card = page.getByRole("region", { name: `Changes since run #${since}` });
  await expect(card).toBeVisible();
  return card;
}

async function openWhatChanged(card: Locator, since: number) {
  const toggle = card.getByRole("button", { name: "What changed" });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  // Keyboard: focus and Enter opens it.
  await toggle.focus();
  await toggle.press("Enter");
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  const panel = card.getByRole("region", { name: `What changed since run #${since}` });
  await expect(panel).toBeVisible();
  return panel;
}

test("a flip says whether the case, the agent or neither changed, on the run's changes and in the alert", async ({ page }) => {
  test.setTimeout(180_000);
  const workspaceId = await openWorkspace(page);
  const token = await createApiKey(page, workspaceId, "changes e2e");
  const marker = `CHANGESPEC${Date.now().toString(36)}`;
  const promptMarker = `${marker}-TERSE`;

  // A suite of three cases whose check needs the fake model's default reply ("Fake reply: …").
  const suite = await createFakeSuite(page.request, token, {
    agent: { name: "Changes bot", system_prompt: `You help customers of ${marker}.\nKeep answers short.\nBe kind.` },
    suite: { name: "Changes suite" },
  });
  const suiteName = suite.name;
  const cases: Record<string, { id: string }> = {};
  for (const [name, question] of [
    ["Greets politely", "Hello there?"],
    ["Gives opening hours", "When do you open?"],
    ["Explains refunds", "How do refunds work?"],
  ] as const) {
    cases[name] = await apiPost(page.request, token, `/api/v1/suites/${suite.id}/test-cases`, {
      name,
      initial_message: question,
      checks: [{ type: "contains_phrases", phrases: ["Fake reply"] }],
    });
  }
  const alerts = page.getByRole("article", { name: `Regression in ${suiteName}` });
  /** Once the suite has `count` alerts: its alerts page, and the alert of `runs` with its explanation checked. */
  const openAlert = async (count: number, runs: string, explanation: string) => {
    await waitForAlerts(page.request, token, suite.id, count);
    await page.goto(`/w/${workspaceId}/alerts?suite=${suite.id}`);
    const alert = alerts.filter({ hasText: runs });
    await expect(alert.getByTestId("alert-explanation")).toHaveText(explanation);
    return alert;
  };

  await runToCompletion(page.request, token, suite.id); // run #1: all pass

  await test.step("(a) a case's check is edited: the test changed, not the agent", async () => {
    await patch(page.request, token, `/api/v1/test-cases/${cases["Greets politely"]!.id}`, {
      checks: [{ type: "contains_phrases", phrases: ["Welcome aboard"] }],
    });
    const run2 = await runToCompletion(page.request, token, suite.id, {
      metadata: {
        branch: "feature/edit-checks",
        commit: "0123456789abcdef0123456789abcdef01234567",
        build_url: "https://ci.example/builds/2",
        note: "<b>not markup</b>",
      },
    });

    const card = await openChanges(page, workspaceId, run2, 1);
    await expect(card.getByRole("link", { name: "run #1" })).toHaveAttribute("href", /\/runs\/[0-9a-f-]{36}$/);
    await expect(card.getByTestId("run-changes-summary")).toHaveText(
      "Neither the agent nor the evaluation settings changed since run #1. One flipped case was edited.",
    );
    const regression = card.getByRole("region", { name: "Regressions" }).getByRole("listitem");
    await expect(regression).toHaveCount(1);
    await expect(regression).toContainText("Greets politely");
    await expect(regression).toContainText("Why it flipped: the case changed");

    const panel = await openWhatChanged(card, 1);
    await expect(panel.getByRole("region", { name: "Agent" })).toContainText("The agent is the same as in run #1.");
    const edited = panel.getByRole("region", { name: "Edited cases" }).getByRole("region", { name: "Greets politely" });
    await expect(edited.getByLabel("Checks before")).toContainText('"Fake reply"');
    await expect(edited.getByLabel("Checks after")).toContainText('"Welcome aboard"');
    await expect(edited.getByLabel("Checks after")).not.toContainText("Fake reply");
    await lookAt(page, "run-changes-case-edit", [[card, "the changes card"]]);
    // Enter again closes it.
    await card.getByRole("button", { name: "What changed" }).press("Enter");
    await expect(panel).toBeHidden();

    const alert = await openAlert(
      1,
      "run #2 vs baseline #1",
      "The flipped case was edited since the baseline run: the test changed, not the agent.",
    );
    await expect(alert).toHaveCount(1);
    const origin = alert.getByTestId("alert-run-metadata");
    await expect(origin).toContainText("feature/edit-checks");
    await expect(origin.getByTitle("Commit 0123456789abcdef0123456789abcdef01234567")).toHaveText("Commit 0123456");
    await expect(origin).toContainText("note: <b>not markup</b>"); // user text stays text
    await expect(origin.getByRole("link", { name: /^Build/ })).toHaveAttribute("href", "https://ci.example/builds/2");
    await expect(origin.getByRole("link", { name: /^Build/ })).toHaveAttribute("rel", "noopener noreferrer nofollow");
    const flipped = alert.getByRole("list", { name: "Flipped cases" }).getByRole("listitem");
    await expect(flipped).toHaveCount(1);
    await expect(flipped).toContainText("Greets politely");
    await expect(flipped).toContainText("the case changed");
    await expectAccessible(page, "alerts page with a case-edit alert");

    await page.goto(`/w/${workspaceId}/suites/${suite.id}`);
    const banner = page.getByTestId("suite-alert-banner");
    await expect(banner).toContainText(
      "Regression in run #2: The flipped case was edited since the baseline run: the test changed, not the agent.",
    );
    await expect(banner).toContainText("Baseline #1 → run #2: pass rate 100% → 66.7% (−33.3 points); 1 flipped case.");
    await lookAt(page, "suite-alert-banner", [[banner, "the suite's alert banner"]]);
  });

  await test.step("(b) the agent's system prompt changes: the agent changed", async () => {
    await addFakeRules(page.request, [
      { match: { endpoint: "chat", anyContains: promptMarker, lastUserContains: "When do you open?" }, reply: { content: "Closed." } },
    ]);
    await patch(page.request, token, `/api/v1/agents/${suite.agent.id}`, {
      system_prompt: `You help customers of ${marker}.\nAnswer in one word (${promptMarker}).\nBe kind.`,
    });
    const run3 = await runToCompletion(page.request, token, suite.id);

    const card = await openChanges(page, workspaceId, run3, 2);
    await expect(card.getByTestId("run-changes-summary")).toHaveText("The agent changed since run #2; the evaluation settings did not.");
    const regression = card.getByRole("region", { name: "Regressions" }).getByRole("listitem");
    await expect(regression).toHaveCount(1); // "Greets politely" still fails: no flip
    await expect(regression).toContainText("Gives opening hours");
    await expect(regression).toContainText("Why it flipped: the agent changed");

    const panel = await openWhatChanged(card, 2);
    const prompt = panel.getByRole("region", { name: "Agent" }).getByLabel("System prompt: line diff");
    await expect(prompt).toContainText("Removed: Keep answers short.");
    await expect(prompt).toContainText(`Added: Answer in one word (${promptMarker}).`);
    await expect(prompt).not.toContainText("Removed: Be kind.");
    await expect(panel.getByRole("region", { name: "Agent" })).toContainText("+1 / −1 lines");
    await expect(panel.getByRole("region", { name: "Evaluation settings" })).toContainText("the same as in run #2");
    await expect(panel.getByRole("region", { name: "Edited cases" })).toHaveCount(0);
    await expectAccessible(page, "run page with What changed open");
    await lookAt(page, "run-changes-agent", [[card, "the changes card"]]);

    const alert = await openAlert(2, "run #3 vs baseline #2", "The agent changed since the baseline run and no flipped case was edited.");
    await expect(alert.getByRole("list", { name: "Flipped cases" })).toContainText("the agent changed");
  });

  await test.step("(c) nothing changes, the model answers one case differently once: possibly flaky", async () => {
    await addFakeRules(page.request, [
      { match: { endpoint: "chat", anyContains: marker, lastUserContains: "How do refunds work?" }, reply: { content: "Hmm." }, times: 1 },
    ]);
    const run4 = await runToCompletion(page.request, token, suite.id);

    const card = await openChanges(page, workspaceId, run4, 3);
    await expect(card.getByTestId("run-changes-summary")).toHaveText("Neither the agent nor the evaluation settings changed since run #3.");
    const regression = card.getByRole("region", { name: "Regressions" }).getByRole("listitem");
    await expect(regression).toHaveCount(1);
    await expect(regression).toContainText("Explains refunds");
    await expect(regression).toContainText("Why it flipped: neither changed: possibly flaky");
    // Nothing to show field by field.
    await expect(card.getByRole("button", { name: "What changed" })).toHaveCount(0);

    const alert = await openAlert(
      3,
      "run #4 vs baseline #3",
      "Neither the agent nor any flipped case changed since the baseline run: possibly flaky.",
    );
    await expect(alert.getByRole("list", { name: "Flipped cases" })).toContainText("neither changed: possibly flaky");
    await lookAt(page, "alerts", [
      [alerts.first(), "the newest alert"],
      [alerts.filter({ hasText: "run #2 vs baseline #1" }), "the alert with run metadata"],
    ]);
  });
});
