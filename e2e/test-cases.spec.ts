import { readFileSync } from "node:fs";
import { expect, test, type Download, type Locator, type Page } from "@playwright/test";
import { parse as parseYaml } from "yaml";
import { exactly, FAKE_OPENAI_URL, openWorkspace, submitRefusedCase, unique } from "./fixtures";

/** The download that the suite toolbar's "More actions" menu item `item` starts. */
async function downloadFromMenu(page: Page, item: string): Promise<Download> {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page
      .getByRole("button", { name: "More actions" })
      .click()
      .then(() => page.getByRole("menuitem", { name: item }).click()),
  ]);
  return download;
}

/** Chooses the option whose text contains `text` (option labels may add details, e.g. the model). */
async function selectByText(select: Locator, text: string) {
  const value = await select.locator("option", { hasText: text }).getAttribute("value");
  await select.selectOption(value ?? "");
}

/** Model configuration → agent with a tool → suite, through the pages; returns the suite page URL. */
async function createSuite(page: Page, workspaceId: string, names: { config: string; agent: string; suite: string }): Promise<string> {
  await page.goto(`/w/${workspaceId}/model-configs`);
  await page.getByRole("link", { name: "New model configuration" }).first().click();
  await page.getByLabel(exactly("Name")).fill(names.config);
  await page.getByLabel("Base URL").fill(FAKE_OPENAI_URL);
  await page.getByLabel(exactly("Model")).fill("fake-chat");
  await page.getByLabel("API key").fill("sk-e2e-test-key");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}/model-configs$`));

  await page.goto(`/w/${workspaceId}/agents`);
  await page.getByRole("link", { name: "New agent" }).first().click();
  await page.getByLabel(exactly("Name")).fill(names.agent);
  await selectByText(page.getByLabel("Model configuration"), names.config);
  await page.getByRole("button", { name: "Add tool" }).click();
  await page.getByLabel("Tool name").fill("lookup_order");
  await page.getByLabel("Tool description").fill("Look up an order by id");
  await page
    .getByLabel("Parameters (JSON schema)")
    .fill('{"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]}');
  await page.getByLabel("Mock response").fill('{"status": "shipped"}');
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).not.toHaveURL(/\/agents\/new$/);

  await page.goto(`/w/${workspaceId}/suites`);
  await page.getByRole("link", { name: "New suite" }).first().click();
  await selectByText(page.getByLabel(exactly("Agent")), names.agent);
  await page.getByLabel(exactly("Name")).fill(names.suite);
  await page.getByRole("button", { name: "Create suite" }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}/suites/[0-9a-f-]{36}$`));
  await expect(page.getByRole("heading", { name: names.suite })).toBeVisible();
  return new URL(page.url()).pathname;
}

const casesTable = (page: Page) => page.getByRole("table", { name: "Test cases" });
const caseRow = (page: Page, name: string) =>
  casesTable(page)
    .getByRole("row")
    .filter({ has: page.getByRole("link", { name, exact: true }) });
const tagFilter = (page: Page, tag: string) =>
  page.getByRole("group", { name: "Filter by tag" }).getByRole("button", { name: tag, exact: true });

async function importText(page: Page, fileName: string, body: string) {
  await page.getByRole("button", { name: "More actions" }).click();
  await page.getByRole("menuitem", { name: "Import cases…" }).click();
  const dialog = page.getByRole("dialog", { name: "Import test cases" });
  await dialog
    .getByLabel("Upload a file (.yaml, .yml, .json, .jsonl or .zip)")
    .setInputFiles({ name: fileName, mimeType: "application/yaml", buffer: Buffer.from(body) });
  await expect(dialog.getByLabel("Or paste the file's text")).toHaveValue(body);
  await dialog.getByRole("button", { name: "Import", exact: true }).click();
  return dialog;
}

test("test cases: form with validation, import, filters, bulk actions, reorder, archive and export", async ({ page }) => {
  test.setTimeout(180_000);
  const workspaceId = await openWorkspace(page);
  const suiteName = unique("Support suite");
  const suiteUrl = await createSuite(page, workspaceId, { config: unique("Fake model"), agent: unique("Support agent"), suite: suiteName });
  const multiTurn = unique("Angry refund customer");

  await test.step("empty suite offers to create or import", async () => {
    await expect(page.getByText("No test cases yet")).toBeVisible();
    await page.getByRole("link", { name: "New test case" }).first().click();
    await expect(page.getByRole("heading", { name: "New test case" })).toBeVisible();
  });

  await test.step("validation errors are shown at the fields, client-side and for the draft-only rule", async () => {
    // Active is the default status; without an initial message or persona the case cannot run.
    await submitRefusedCase(page, multiTurn);

    await expect(page.getByTestId("error-checks.0.threshold")).toHaveText("Threshold must be between 0 and 1");
    await expect(page.getByTestId("error-status")).toContainText("needs an initial message or a simulated user");

    // The simulated user's context and turn cap are its own fields, checked when it is on.
    await page.getByLabel("Simulated user (multi-turn)").check();
    await page.getByLabel("Persona type").fill("frustrated-user");
    await page.getByLabel("Persona description").fill("Waited two weeks for a refund");
    await page.getByLabel("Persona instructions").fill("Be curt; ask for a manager if not helped");
    await page.getByLabel("Max turns").fill("0");
    await page.getByLabel(exactly("User context (JSON object)")).fill('{"order_id": "A-1001",');
    await page.getByRole("button", { name: "Create test case" }).click();
    await expect(page.getByTestId("error-max_turns")).toHaveText("Max turns must be at least 1");
    await expect(page.getByTestId("error-user_context")).toContainText("Not valid JSON");
    // The bad JSON is kept for fixing.
    await expect(page.getByLabel(exactly("User context (JSON object)"))).toHaveValue('{"order_id": "A-1001",');
    await expect(page).toHaveURL(/\/cases\/new$/);
  });

  await test.step("create a multi-turn case with persona, outcomes and tool calls", async () => {
    await page.getByLabel(exactly("Description")).fill("A customer whose refund is late");
    await page.getByLabel("Difficulty").selectOption("hard");
    await page.getByRole("group", { name: "Pre-seeded tags" }).getByRole("button", { name: "red-team" }).click();
    await page.getByLabel(exactly("Tags")).fill("billing");
    await page.getByLabel(exactly("Tags")).press("Enter");
    await expect(page.getByRole("list", { name: "Selected tags" })).toContainText("red-team");
    await expect(page.getByRole("list", { name: "Selected tags" })).toContainText("billing");

    await page.getByLabel("Initial message").fill("Where is my refund for order A-1001?");
    await page.getByLabel("Simulated user (multi-turn)").check();
    await page.getByLabel("Persona type").fill("frustrated-user");
    await page.getByLabel("Persona description").fill("Waited two weeks for a refund");
    await page.getByLabel("Persona instructions").fill("Be curt; ask for a manager if not helped");
    await page.getByLabel(exactly("User context (JSON object)")).fill('{"order_id": "A-1001", "plan": "pro"}');
    await page.getByLabel("Max turns").fill("6");

    await page.getByRole("button", { name: "Add outcome" }).click();
    const outcome = page.getByRole("group", { name: "Outcome 1" });
    await outcome.getByLabel(exactly("Label")).fill("refund_issued");
    await outcome.getByLabel("Expected value").fill("true");

    await page.getByRole("button", { name: "Add tool call" }).click();
    const call = page.getByRole("group", { name: "Tool call 1" });
    // The tool picker offers the agent's tools.
    await expect(page.locator('datalist#agent-tools option[value="lookup_order"]')).toHaveCount(1);
    await call.getByLabel(exactly("Tool")).fill("lookup_order");
    await call.getByLabel(exactly("Expected parameters (JSON object)")).fill('{"order_id": "A-1001"}');

    await page
      .getByRole("group", { name: /Check 1/ })
      .getByLabel("Threshold (0 to 1)")
      .fill("0.8");
    await page.getByRole("button", { name: "Create test case" }).click();

    await expect(page.getByText("Test case created.")).toBeVisible();
    // The one-off notice does not stay in the (shareable) URL.
    await expect(page).toHaveURL(new RegExp(`${suiteUrl}$`));
    const row = caseRow(page, multiTurn);
    await expect(row).toContainText("Multi-turn");
    await expect(row).toContainText("Active");
    await expect(row).toContainText("red-team");
  });

  await test.step("the edit form shows the stored values", async () => {
    await page.getByRole("link", { name: multiTurn, exact: true }).click();
    await expect(page.getByLabel("Persona type")).toHaveValue("frustrated-user");
    await expect(page.getByRole("group", { name: "Outcome 1" }).getByLabel("Expected value")).toHaveValue("true");
    await expect(page.getByRole("group", { name: "Tool call 1" }).getByLabel(exactly("Tool"))).toHaveValue("lookup_order");
    await expect(page.getByLabel("Max turns")).toHaveValue("6");
    // Edit and save with Enter from a text field.
    await page.getByLabel(exactly("Description")).fill("A customer whose refund is two weeks late");
    await page.getByLabel(exactly("Name")).press("Enter");
    await expect(page.getByText("Test case saved.")).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${suiteUrl}$`));
  });

  await test.step("import a YAML file: errors per case, nothing written, then only the valid ones", async () => {
    const yaml = [
      "- name: Refund status (imported)",
      "  tags: [normal, billing]",
      "  initial_message: Has my refund been sent?",
      "  checks:",
      "    - type: contains_phrases",
      "      phrases: [refund]",
      "- name: Bad threshold (imported)",
      "  initial_message: Hi",
      "  checks:",
      "    - type: semantic_similarity",
      "      expected_answer: Hello",
      "      threshold: 2",
      "",
    ].join("\n");
    const dialog = await importText(page, "cases.yaml", yaml);
    await expect(dialog.getByText("Case #2 · checks.0.threshold: Threshold must be between 0 and 1")).toBeVisible();
    await expect(dialog.getByText("nothing was imported")).toBeVisible();
    await dialog.getByRole("button", { name: "Import only the 1 valid case" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText("Imported 1 test case. Skipped 1 invalid case.")).toBeVisible();
    await expect(caseRow(page, "Refund status (imported)")).toBeVisible();
    await expect(caseRow(page, "Bad threshold (imported)")).toHaveCount(0);

    const dialog2 = await importText(
      page,
      "more.yml",
      [
        "test_cases:",
        "  - name: Escalation (imported)",
        "    initial_message: I want a manager",
        "  - name: Placeholder (imported)",
        "    status: draft",
        "    tags: [edge-case]",
        "",
      ].join("\n"),
    );
    await expect(dialog2).toBeHidden();
    await expect(page.getByText("Imported 2 test cases.")).toBeVisible();
    await expect(page.getByRole("link", { name: /^All/ })).toContainText("4");
  });

  await test.step("filter by tag (any / all), search, and counts follow the filters", async () => {
    await tagFilter(page, "red-team").click();
    await expect(page).toHaveURL(/tag=red-team/);
    await expect(caseRow(page, multiTurn)).toBeVisible();
    await expect(caseRow(page, "Refund status (imported)")).toHaveCount(0);
    await expect(page.getByRole("link", { name: /^All/ })).toContainText("1");
    await expect(page.getByText(/^Reordering is available in run order with no filters applied/)).toBeVisible();

    await tagFilter(page, "billing").click();
    await expect(caseRow(page, "Refund status (imported)")).toBeVisible();
    await expect(caseRow(page, multiTurn)).toBeVisible();
    await page.getByLabel("All selected tags").check();
    await expect(page).toHaveURL(/match=all/);
    await expect(caseRow(page, "Refund status (imported)")).toHaveCount(0);
    await expect(caseRow(page, multiTurn)).toBeVisible();

    // The filtered URL is shareable.
    await page.reload();
    await expect(tagFilter(page, "billing")).toHaveAttribute("aria-pressed", "true");
    await expect(caseRow(page, "Refund status (imported)")).toHaveCount(0);

    await page.getByRole("link", { name: "Clear filters" }).first().click();
    await expect(page).toHaveURL(new RegExp(`${suiteUrl}$`));
    await page.getByLabel("Search").fill("Escalation");
    await expect(page).toHaveURL(/q=Escalation/);
    await expect(caseRow(page, "Escalation (imported)")).toBeVisible();
    await expect(casesTable(page).getByRole("row")).toHaveCount(2);
    await page.getByRole("link", { name: "Clear filters" }).first().click();
    await expect(casesTable(page).getByRole("row")).toHaveCount(5);
  });

  await test.step("bulk activate reports skipped cases with their reason; bulk tag", async () => {
    await page.getByLabel("Select Placeholder (imported)").check();
    await page.getByLabel("Select Escalation (imported)").check();
    await page.getByRole("button", { name: "Activate selected" }).click();
    const bulk = page.getByRole("region", { name: "Bulk actions" });
    await expect(bulk.getByText("Updated 1 test case. Skipped 1:")).toBeVisible();
    await expect(bulk.getByText(/Placeholder \(imported\) — A case without initial_message and without persona cannot run/)).toBeVisible();
    await expect(caseRow(page, "Placeholder (imported)")).toContainText("Draft");

    await page.getByLabel(exactly("Tag")).fill("escalations");
    await page.getByRole("button", { name: "Add tag", exact: true }).click();
    await expect(bulk.getByText('Added "escalations" to 2 test cases.')).toBeVisible();
    await expect(caseRow(page, "Escalation (imported)")).toContainText("escalations");
    await expect(caseRow(page, "Placeholder (imported)")).toContainText("escalations");
  });

  await test.step("reorder with the keyboard-usable move buttons", async () => {
    const names = async () => (await casesTable(page).getByRole("cell").getByRole("link").allTextContents()).map((s) => s.trim());
    expect(await names()).toEqual([multiTurn, "Refund status (imported)", "Escalation (imported)", "Placeholder (imported)"]);
    await page.getByRole("button", { name: `Move ${multiTurn} down` }).click();
    await expect.poll(names).toEqual(["Refund status (imported)", multiTurn, "Escalation (imported)", "Placeholder (imported)"]);
    await expect(page.getByRole("button", { name: `Move ${multiTurn} down` })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect.poll(names).toEqual(["Refund status (imported)", "Escalation (imported)", multiTurn, "Placeholder (imported)"]);
  });

  await test.step("archive: the case becomes read-only with only Restore", async () => {
    await page.getByRole("link", { name: multiTurn, exact: true }).click();
    await page.getByRole("group", { name: "Change status" }).getByRole("button", { name: "Archive" }).click();
    await expect(page.getByText("This test case is archived and read-only.")).toBeVisible();
    await expect(page.getByLabel(exactly("Name"))).toBeDisabled();
    await expect(page.getByRole("button", { name: "Save changes" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Duplicate" })).toHaveCount(0);
    await expect(page.getByRole("group", { name: "Change status" }).getByRole("button")).toHaveText(["Restore"]);

    await page.goto(suiteUrl);
    await expect(page.getByRole("link", { name: /^Archived/ })).toContainText("1");
    await page.getByRole("link", { name: /^Archived/ }).click();
    await expect(caseRow(page, multiTurn)).toContainText("Archived");
    await expect(casesTable(page).getByRole("row")).toHaveCount(2);
    await page.goto(suiteUrl);
  });

  await test.step("export YAML and JSON downloads the suite's cases", async () => {
    const yamlDownload = await downloadFromMenu(page, "Export YAML");
    expect(yamlDownload.suggestedFilename()).toMatch(/\.yaml$/);
    const yamlDocs = parseYaml(readFileSync((await yamlDownload.path())!, "utf8")) as Record<string, unknown>[];
    expect(yamlDocs.map((d) => d.name)).toEqual(["Refund status (imported)", "Escalation (imported)", multiTurn, "Placeholder (imported)"]);

    const jsonDownload = await downloadFromMenu(page, "Export JSON");
    expect(jsonDownload.suggestedFilename()).toMatch(/\.json$/);
    const jsonDocs = JSON.parse(readFileSync((await jsonDownload.path())!, "utf8")) as Record<string, unknown>[];
    expect(jsonDocs).toEqual(yamlDocs);
    const exported = jsonDocs.find((d) => d.name === multiTurn);
    expect(exported).toMatchObject({
      description: "A customer whose refund is two weeks late",
      difficulty: "hard",
      tags: ["red-team", "billing"],
      status: "archived",
      persona: {
        type: "frustrated-user",
        description: "Waited two weeks for a refund",
        instructions: "Be curt; ask for a manager if not helped",
      },
      initial_message: "Where is my refund for order A-1001?",
      user_context: { order_id: "A-1001", plan: "pro" },
      max_turns: 6,
      expected_outcomes: { refund_issued: true },
      expected_tool_calls: [{ tool: "lookup_order", expected_params: { order_id: "A-1001" } }],
      checks: [{ type: "semantic_similarity", expected_answer: "Your refund was issued", threshold: 0.8 }],
      mode: "all",
    });
  });

  await test.step("duplicate, then delete the copy and undo", async () => {
    await page.getByRole("link", { name: "Escalation (imported)", exact: true }).click();
    await page.getByRole("button", { name: "Duplicate" }).click();
    await expect(page.getByText("Test case duplicated as a draft.")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Escalation (imported) (copy)" })).toBeVisible();
    await expect(page.getByLabel(exactly("Name"))).toHaveValue("Escalation (imported) (copy)");
    await expect(page.getByRole("group", { name: "Change status" }).getByRole("button")).toHaveText(["Activate", "Archive"]);

    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog", { name: "Delete this test case?" }).getByRole("button", { name: "Delete" }).click();
    await expect(page.getByText("Test case deleted.")).toBeVisible();
    await expect(caseRow(page, "Escalation (imported) (copy)")).toHaveCount(0);
    await page.getByRole("button", { name: "Undo" }).click();
    await expect(page.getByLabel(exactly("Name"))).toHaveValue("Escalation (imported) (copy)");
    await page.goto(suiteUrl);
    await expect(caseRow(page, "Escalation (imported) (copy)")).toContainText("Draft");
  });
});
