import { readFile } from "node:fs/promises";
import { expect, test, type APIRequestContext } from "@playwright/test";
import {
  apiPost,
  createApiKey,
  createWorkspace,
  expectAccessible,
  openWorkspace,
  unique,
  createFakeSuite,
  addFakeRules,
  fakeRequests,
  createFakeModelConfig,
  agentEvalVariables,
} from "./fixtures";

/**
 * An A/B comparison end to end in the browser: build the two arms in the suite's Compare dialog
 * (refused inline while identical or out of range) → watch it complete live → read the headline
 * and the verdict → filter the pairs to the flips and open one (both transcripts and verdicts) →
 * export CSV → "Compare with…" the two arm runs from a run page.
 * The fake OpenAI server answers the baseline after 100 ms and the variant (whose prompt carries
 * a marker) after 1,000 ms, and the variant fails one case, so the numbers are known in advance. The gap
 * is wide so that a loaded machine's jitter cannot make one pair's variant the faster one: with six
 * pairs the signed-rank test is significant only when all six are slower.
 */

const CSV_HEADER =
  "question,baseline_tokens,variant_tokens,token_overhead,baseline_latency_ms,variant_latency_ms,latency_diff_ms,response_length_ratio,baseline_status,variant_status,verdict_change";

/** A chat agent and a suite of three single-turn cases that pass when the reply is the fake's default. */
async function createSuite(request: APIRequestContext, token: string, marker: string) {
  const suite = await createFakeSuite(request, token, {
    agent: { name: "AB bot", system_prompt: `You help customers. (${marker})` },
    suite: { name: "AB support" },
  });
  for (const [name, question] of [
    ["Greeting", "Hello there"],
    ["Opening hours", "When are you open?"],
    ["Cancel order", "Please cancel my order"],
  ]) {
    await apiPost(request, token, `/api/v1/suites/${suite.id}/test-cases`, {
      name,
      tags: ["smoke"],
      initial_message: question,
      checks: [{ type: "contains_phrases", phrases: ["Fake reply"] }],
    });
  }
  return { suiteId: suite.id, suiteName: suite.name };
}

async function scriptFakeServer(request: APIRequestContext, marker: string) {
  const variant = `${marker}-VARIANT`;
  const rules = [
    // The variant fails the cancel case (its reply lacks the checked phrase); first matching rule wins.
    {
      match: { anyContains: variant, lastUserContains: "cancel my order", endpoint: "chat" },
      reply: { content: "Sorry, I cannot do that.", delayMs: 1000 },
    },
    { match: { anyContains: variant, endpoint: "chat" }, reply: { delayMs: 1000 } },
    { match: { anyContains: marker, endpoint: "chat" }, reply: { delayMs: 100 } },
  ];
  await addFakeRules(request, rules);
}

test("build a comparison in the dialog, watch it complete, read the verdict, open a pair and export CSV", async ({ page }) => {
  test.setTimeout(120_000);
  const workspaceId = await openWorkspace(page);
  const token = await createApiKey(page, workspaceId, "comparisons e2e");
  const marker = `ABSPEC${Date.now().toString(36)}`;
  const { suiteId, suiteName } = await createSuite(page.request, token, marker);
  await scriptFakeServer(page.request, marker);

  // The suite's Comparisons tab starts empty.
  await page.goto(`/w/${workspaceId}/suites/${suiteId}`);
  await page.getByRole("button", { name: "More actions" }).click();
  await page.getByRole("menuitem", { name: "Comparisons" }).click();
  await expect(page.getByText("No comparisons yet")).toBeVisible();
  await page.goto(`/w/${workspaceId}/suites/${suiteId}`);

  // The dialog: two arms side by side, prefilled with the suite's agent.
  await page.getByRole("button", { name: "More actions" }).click();
  await page.getByRole("menuitem", { name: "New comparison…" }).click();
  const dialog = page.getByRole("dialog", { name: "New A/B comparison" });
  await expect(dialog).toBeVisible();
  const baseline = dialog.getByRole("group", { name: "Baseline (A)" });
  const variant = dialog.getByRole("group", { name: "Variant (B)" });
  await expect(variant.getByLabel("System prompt")).toHaveValue(`You help customers. (${marker})`);
  await expect(baseline.getByLabel("Agent")).toHaveValue(/[0-9a-f-]{36}/);
  await dialog.getByLabel("Repetitions").fill("2");
  await dialog.getByLabel("Concurrency").fill("2");
  await expect(dialog.getByTestId("compare-estimate")).toHaveText("3 active cases × 2 repetitions × 2 arms = 12 estimated agent calls");

  // Identical arms are refused, and so is an out-of-range value, at its field.
  await expect(dialog.getByTestId("arm-differences")).toContainText("The two arms are identical");
  await dialog.getByRole("button", { name: "Start comparison" }).click();
  await expect(dialog.getByText(/must differ from the baseline/)).toBeVisible();
  await variant.getByLabel("Temperature").fill("5");
  await dialog.getByRole("button", { name: "Start comparison" }).click();
  await expect(variant.getByText("Temperature must be between 0 and 2")).toBeVisible();
  await variant.getByLabel("Temperature").fill("");

  // The variant: a longer prompt (marked as changed), its own label.
  await variant.getByLabel("Label").fill("Thorough prompt");
  await variant.getByLabel("System prompt").fill(`You help customers. Be thorough and kind. (${marker}-VARIANT)`);
  await expect(variant.getByText("Changed from the agent's prompt")).toBeVisible();
  await expect(baseline.getByText("Changed from the agent's prompt")).toHaveCount(0);
  await expect(dialog.getByTestId("arm-differences")).toHaveText("Variant differs in: system prompt.");
  await expectAccessible(page, "Compare dialog");
  await dialog.getByRole("button", { name: "Start comparison" }).click();

  // Live: the page polls until every pair is done, without a reload.
  await page.waitForURL(/\/comparisons\/[0-9a-f-]{36}$/);
  const comparisonUrl = page.url();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Baseline vs Thorough prompt");
  await page.evaluate(() => ((window as unknown as { __abMarker: boolean }).__abMarker = true));
  await expect(page.getByTestId("comparison-done-count")).toHaveText("6 of 6 pairs done", { timeout: 60_000 });
  await expect(page.getByRole("heading", { level: 1 }).getByText("Completed")).toBeVisible({ timeout: 15_000 });
  expect(await page.evaluate(() => (window as unknown as { __abMarker?: boolean }).__abMarker)).toBe(true);

  // Headline and verdict: the variant is ~900 ms slower on every pair and fails the cancel case twice.
  await expect(page.getByTestId("comparison-verdict")).toContainText(/^Variant is \d+ ms slower \(95 % CI \d+–\d+, p [<=] 0\.0\d+\)/);
  await expect(page.getByTestId("comparison-verdict")).toContainText("pass rate 100 % vs 66.7 %");
  const passRate = page.getByTestId("headline-pass-rate");
  await expect(passRate).toContainText("100 % → 66.7 %");
  await expect(passRate).toContainText("0 fail → pass · 2 pass → fail");
  await expect(page.getByTestId("headline-latency")).toContainText(/\+\d+ ms/);
  await expect(page.getByTestId("headline-latency")).toContainText("Wilcoxon p");
  await expect(page.getByTestId("headline-success")).toContainText("100 %");
  await expect(page.getByTestId("arm-variant")).toContainText("Thorough prompt");
  await expect(
    page.getByRole("img", { name: /^Latency diff per case, variant minus baseline, sorted: 6 of 6 pairs slower/ }),
  ).toBeVisible();
  await expect(page.getByRole("img", { name: /^Baseline vs variant latency for 6 pairs: 6 above/ })).toBeVisible();
  await expectAccessible(page, "comparison page");

  // The pairs table filters by verdict change; a flip opens the pair view.
  const pairs = page.getByRole("table", { name: "Pairs of the comparison" });
  await expect(pairs.getByRole("row")).toHaveCount(7);
  // The flipped pairs come first, their change said in words (the row's tint only repeats it).
  for (const row of [1, 2]) {
    await expect(pairs.getByRole("row").nth(row)).toContainText("Cancel order");
    await expect(pairs.getByRole("row").nth(row)).toContainText("Pass → fail");
  }
  await expect(pairs.getByRole("row").nth(3)).toContainText("Same");
  await expect(pairs.getByRole("link", { name: "Cancel order (rep 1)" })).toHaveAttribute("title", "Cancel order (rep 1)");

  // Each part of the page folds away, so the next one is on screen.
  const latencyChart = page.getByRole("img", { name: /^Latency diff per case/ });
  await page.getByText("Charts", { exact: true }).click();
  await expect(latencyChart).toBeHidden();
  await page.getByText("Verdict and arms", { exact: true }).click();
  await expect(page.getByTestId("comparison-verdict")).toBeHidden();
  await expect(pairs).toBeInViewport();
  await page.getByText("Charts", { exact: true }).click();
  await page.getByText("Verdict and arms", { exact: true }).click();
  await expect(latencyChart).toBeVisible();

  await page.getByLabel("Verdict change").selectOption("pass_to_fail");
  await expect(pairs.getByRole("row")).toHaveCount(3);
  await pairs.getByRole("button", { name: /Latency diff/ }).click();
  await expect(pairs.getByRole("columnheader", { name: /Latency diff/ })).toHaveAttribute("aria-sort", "ascending");
  await pairs.getByRole("link", { name: "Cancel order (rep 1)" }).click();

  await page.waitForURL(/\/comparisons\/[0-9a-f-]{36}\/pairs\/\d+$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Cancel order (rep 1)");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Pass → fail");
  const armA = page.getByTestId("pair-arm-A");
  const armB = page.getByTestId("pair-arm-B");
  await expect(armA.getByRole("heading", { level: 2 })).toContainText("Passed");
  await expect(armB.getByRole("heading", { level: 2 })).toContainText("Failed");
  await expect(armA.getByText("Fake reply: Please cancel my order").first()).toBeVisible();
  await expect(armB.getByText("Sorry, I cannot do that.").first()).toBeVisible();
  // Arm A's final answer diffed word by word against arm B's.
  const answerDiff = page.getByRole("region", { name: "Final answers compared (A → B)" });
  // Word by word: the two answers share only spaces, so their words alternate as removed and added.
  for (const word of ["Fake", "reply:", "cancel"])
    await expect(answerDiff.getByRole("deletion").filter({ hasText: word })).not.toHaveCount(0);
  for (const word of ["Sorry,", "cannot", "that."])
    await expect(answerDiff.getByRole("insertion").filter({ hasText: word })).not.toHaveCount(0);
  await expectAccessible(page, "pair view");

  // CSV export: the spec's columns, one row per pair.
  await page.goto(comparisonUrl);
  const exports = page.getByRole("group", { name: "Export comparison" });
  const [csv] = await Promise.all([page.waitForEvent("download"), exports.getByRole("link", { name: "CSV" }).click()]);
  expect(csv.suggestedFilename()).toMatch(/^comparison-.+\.csv$/);
  const lines = (await readFile((await csv.path())!, "utf8")).trim().split(/\r?\n/);
  expect(lines[0]).toBe(CSV_HEADER);
  expect(lines).toHaveLength(7);

  // The suite's Comparisons tab lists it with its headline numbers.
  await page.goto(`/w/${workspaceId}/suites/${suiteId}/comparisons`);
  const row = page.getByRole("row").filter({ hasText: "Baseline vs Thorough prompt" });
  await expect(row).toContainText("Completed");
  await expect(row).toContainText("100 % → 66.7 %");
  await expectAccessible(page, "suite comparisons list");

  // "Compare with…": the baseline arm's run against the variant arm's run, without executing again.
  await page.goto(comparisonUrl);
  await page
    .getByTestId("arm-baseline")
    .getByRole("link", { name: /^Run #\d+$/ })
    .click();
  await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(suiteName);
  await page.getByRole("button", { name: "Compare with…" }).click();
  const runsDialog = page.getByRole("dialog", { name: "Compare with another run" });
  // The suite has no history run to default to: the variant arm's run (an experiment) is picked by hand.
  await runsDialog.getByRole("radio", { name: /\(experiment: comparison arm B\)/ }).check();
  await runsDialog.getByRole("radio", { name: "Baseline (A)" }).check();
  await runsDialog.getByLabel("Name (optional)").fill("Arm runs");
  await runsDialog.getByRole("button", { name: "Compare runs" }).click();
  await page.waitForURL(/\/comparisons\/[0-9a-f-]{36}$/);
  expect(page.url()).not.toBe(comparisonUrl);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Arm runs");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Completed");
  await expect(page.getByTestId("headline-pass-rate")).toContainText("100 % → 66.7 %");
});

test("an arm's explicit model wins over the agent's AIConfiguration default, and the card shows what the calls named", async ({ page }) => {
  test.setTimeout(120_000);
  const workspaceId = await openWorkspace(page);
  const token = await createApiKey(page, workspaceId, "precedence e2e");
  const marker = `PREC${Date.now().toString(36)}`;
  const fast = await createFakeModelConfig(page.request, token, "Fast", `fast-${marker}`);
  const slow = await createFakeModelConfig(page.request, token, "Slow", `slow-${marker}`);
  // The Agent Eval set as the button creates it, with the fast configuration as AIConfiguration's default.
  const agent = await apiPost(page.request, token, "/api/v1/agents", {
    name: unique("Precedence bot"),
    kind: "chat",
    system_prompt: `You help customers. (${marker})`,
    model_config_id: fast.id,
    variables_schema: agentEvalVariables([fast, slow]),
  });
  const suite = await apiPost(page.request, token, "/api/v1/suites", {
    agent_id: agent.id,
    name: unique("Precedence"),
    llm_judge_model_config_id: fast.id,
  });
  // Six pairs: the verdict needs at least that many to state a difference.
  const questions = ["Hello there", "When are you open?", "Where is my order?", "Can I return this?", "Do you ship abroad?", "Thanks!"];
  for (const question of questions) {
    await apiPost(page.request, token, `/api/v1/suites/${suite.id}/test-cases`, { name: question, initial_message: question });
  }
  const rules = [{ match: { model: `slow-${marker}`, endpoint: "chat" }, reply: { delayMs: 900 } }];
  await addFakeRules(page.request, rules);

  await page.goto(`/w/${workspaceId}/suites/${suite.id}`);
  await page.getByRole("button", { name: "More actions" }).click();
  await page.getByRole("menuitem", { name: "New comparison…" }).click();
  const dialog = page.getByRole("dialog", { name: "New A/B comparison" });
  const variant = dialog.getByRole("group", { name: "Variant (B)" });
  await variant.getByLabel("Model configuration").selectOption({ label: `${slow.name} · slow-${marker}` });
  await variant.getByLabel("Temperature", { exact: true }).fill("0.2");
  // Setting the variable too, to another model, contradicts the explicit choice: refused at the variable, naming both.
  const aiConfiguration = variant.getByLabel("AI configuration AIConfiguration");
  await aiConfiguration.selectOption({ label: fast.name });
  await dialog.getByRole("button", { name: "Start comparison" }).click();
  await expect(
    variant.getByText(`AIConfiguration = "${fast.name}" contradicts this arm's model configuration "${slow.name}"`),
  ).toBeVisible();
  await expect(aiConfiguration).toHaveAttribute("aria-invalid", "true");
  await aiConfiguration.selectOption({ label: "(not set)" });
  await dialog.getByRole("button", { name: "Start comparison" }).click();

  await page.waitForURL(/\/comparisons\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 }).getByText("Completed")).toBeVisible({ timeout: 60_000 });
  // What ran, from the recorded calls: the slow model at 0.2 for the variant, the fast one at the default for the baseline.
  await expect(page.getByTestId("arm-variant-executed")).toHaveText(`slow-${marker} · temperature 0.2 · 6 agent calls`);
  await expect(page.getByTestId("arm-baseline-executed")).toHaveText(`fast-${marker} · temperature 0.7 · 6 agent calls`);
  await expect(page.getByTestId("comparison-verdict")).toContainText(/^Variant is \d+ ms slower/);

  // The fake server's own log agrees: each model was asked each question once (the judge has nothing to judge).
  const log = await fakeRequests<{ body: { model: string; temperature?: number } }>(page.request, marker);
  const calls = log.filter((r) => r.body?.model?.endsWith(marker)).map((r) => `${r.body.model}@${r.body.temperature}`);
  expect(calls.sort()).toEqual([...Array(6).fill(`fast-${marker}@0.7`), ...Array(6).fill(`slow-${marker}@0.2`)]);
});

test("each arm's variables are typed inputs: a bad number is refused at the variable, typed values reach the arms", async ({ page }) => {
  const workspaceId = await createWorkspace(page, unique("Compare variables"));
  const token = await createApiKey(page, workspaceId, "compare variables e2e");
  const marker = `CMPVARS${Date.now().toString(36)}`;
  const model = await createFakeModelConfig(page.request, token, "Vars model", `vars-${marker}`);
  const agent = await apiPost(page.request, token, "/api/v1/agents", {
    name: unique("Typed vars bot"),
    kind: "chat",
    system_prompt: `You help customers in a {{ Tone }} tone. (${marker})`,
    model_config_id: model.id,
    variables_schema: [
      ...agentEvalVariables([model]),
      { name: "Formal", display_name: "Formal register", data_type: "boolean", value_source: "freeform", default_value: false },
      { name: "Tone", display_name: "Tone of voice", data_type: "string", value_source: "freeform", default_value: "warm" },
    ],
  });
  const suite = await apiPost(page.request, token, "/api/v1/suites", {
    agent_id: agent.id,
    name: unique("Typed vars"),
    llm_judge_model_config_id: model.id,
  });
  await apiPost(page.request, token, `/api/v1/suites/${suite.id}/test-cases`, { name: "Greeting", initial_message: "Hello there" });

  await page.goto(`/w/${workspaceId}/suites/${suite.id}`);
  await page.getByRole("button", { name: "More actions" }).click();
  await page.getByRole("menuitem", { name: "New comparison…" }).click();
  const dialog = page.getByRole("dialog", { name: "New A/B comparison" });
  const baseline = dialog.getByRole("group", { name: "Baseline (A)" });
  const variant = dialog.getByRole("group", { name: "Variant (B)" });

  // Typed inputs per declared variable, each with what it resolves to; no JSON box.
  await expect(dialog.getByRole("textbox", { name: /Variables/ })).toHaveCount(0);
  const temperature = variant.getByRole("spinbutton", { name: "Temperature Temperature" });
  await expect(temperature).toBeVisible();
  await expect(variant.getByRole("checkbox", { name: "Formal register" })).not.toBeChecked();
  await expect(variant.getByRole("combobox", { name: "AI configuration AIConfiguration" })).toBeVisible();
  await expect(baseline.getByRole("textbox", { name: "Tone of voice Tone" })).toBeVisible();
  await expect(variant.getByTestId("resolves-Temperature")).toContainText("Resolves to 0.7");

  // Text that is no number is refused at the variable, naming it, and the keyboard is taken there.
  await temperature.pressSequentially("1e");
  await dialog.getByRole("button", { name: "Start comparison" }).click();
  await expect(variant.getByText("Temperature (Temperature) must be a number")).toBeVisible();
  await expect(temperature).toHaveAttribute("aria-invalid", "true");
  await expect(temperature).toBeFocused();
  await expect(page).toHaveURL(new RegExp(`/suites/${suite.id}$`));
  await expectAccessible(page, "Compare dialog with typed variables at 1440 px");
  // On a phone the arms stack and the dialog fits the screen's width.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => dialog.evaluate((d) => d.scrollWidth <= d.clientWidth)).toBe(true);
  await expectAccessible(page, "Compare dialog with typed variables at 390 px");
  await page.setViewportSize({ width: 1440, height: 900 });

  // Good values of each type: a number and a boolean for the variant, text for the baseline.
  await temperature.fill("0.4");
  await expect(variant.getByText("Temperature (Temperature) must be a number")).toHaveCount(0);
  await expect(variant.getByTestId("resolves-Temperature")).toContainText("Resolves to 0.4");
  // By keyboard, as a keyboard user ticks it (a pointer click once waited a minute for the box to be "stable").
  const formal = variant.getByRole("checkbox", { name: "Formal register" });
  await formal.focus();
  await page.keyboard.press("Space");
  await expect(formal).toBeChecked();
  await baseline.getByRole("textbox", { name: "Tone of voice Tone" }).fill("dry");
  await expect(dialog.getByTestId("arm-differences")).toHaveText("Variant differs in: variables.");
  await dialog.getByRole("button", { name: "Start comparison" }).click();

  await page.waitForURL(/\/comparisons\/[0-9a-f-]{36}$/);
  const comparisonId = /\/comparisons\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
  const res = await page.request.get(`/api/v1/comparisons/${comparisonId}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok()).toBe(true);
  const comparison = (await res.json()) as { baseline: { variables?: unknown }; variant: { variables?: unknown } };
  expect(comparison.baseline.variables).toEqual({ Tone: "dry" });
  expect(comparison.variant.variables).toEqual({ Temperature: 0.4, Formal: true });
});
