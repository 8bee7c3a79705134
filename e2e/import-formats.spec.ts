import { expect, test } from "@playwright/test";
import { parse as parseYaml } from "yaml";
import { createApiKey, createFakeSuite, createWorkspace, expectAccessible, unique } from "./fixtures";

/**
 * Moving in from another tool: a promptfoo config uploaded in the import dialog is detected as
 * promptfoo, previewed (per test: what was mapped, what was not carried over and why — a
 * javascript assertion), imported, and its tests are listed as cases; a Langfuse dataset export
 * keeps each item's id and trace on the case page; "Export for promptfoo" downloads a config
 * with the same tests. The dialog's report also at 390 px.
 */

const PROMPTFOO = `description: Support bot
prompts:
  - "You are a support bot. Answer: {{question}}"
providers:
  - openai:gpt-4o-mini
  - anthropic:messages:claude-3-5-haiku-latest
defaultTest:
  assert:
    - type: icontains
      value: order
tests:
  - description: Where is my order
    vars:
      question: Where is order 42?
    assert:
      - type: llm-rubric
        value: Says the order status politely
  - description: Refund policy
    vars:
      question: Can I get a refund for order 7?
    assert:
      - type: javascript
        value: output.length < 500
`;

const LANGFUSE = JSON.stringify({
  data: [
    {
      id: "item-langfuse-1",
      datasetId: "ds-1",
      input: "What are your opening hours?",
      expectedOutput: "We are open 9 to 5 on weekdays.",
      metadata: { tags: ["hours"] },
      sourceTraceId: "trace-abc-123",
      status: "ACTIVE",
    },
  ],
});

test("a promptfoo config and a Langfuse dataset are previewed, imported and exported back", async ({ page, request }) => {
  const workspaceId = await createWorkspace(page, unique("Imports"));
  const token = await createApiKey(page, workspaceId, "admin");
  const suite = await createFakeSuite(request, token, {
    agent: { name: "Support agent", system_prompt: "Help." },
    suite: { name: "Moved in" },
  });
  await page.goto(`/w/${workspaceId}/suites/${suite.id}`);

  const dialog = page.getByRole("dialog", { name: "Import test cases" });
  /** Opens the import dialog, uploads `file` and checks the format it is detected as. */
  const uploadToImport = async (file: { name: string; mimeType: string; text: string }, format: string) => {
    await page.getByRole("button", { name: "More actions" }).click();
    await page.getByRole("menuitem", { name: "Import cases…" }).click();
    await expect(dialog).toBeVisible();
    await dialog
      .getByLabel("Upload a file (.yaml, .yml, .json, .jsonl or .zip)")
      .setInputFiles({ name: file.name, mimeType: file.mimeType, buffer: Buffer.from(file.text) });
    await expect(dialog.getByLabel("Format", { exact: true })).toHaveValue(format);
  };
  const casesTable = page.getByRole("table", { name: "Test cases" });

  await test.step("promptfoo: detected, previewed with what is not carried over, imported", async () => {
    await uploadToImport({ name: "promptfooconfig.yaml", mimeType: "application/yaml", text: PROMPTFOO }, "promptfoo");
    await expect(dialog.getByText("Detected from promptfooconfig.yaml.")).toBeVisible();
    await dialog.getByRole("button", { name: "Preview" }).click();
    const report = dialog.getByRole("region", { name: "Import report" });
    await expect(report.getByTestId("import-summary")).toContainText("Preview: 2 test cases would be created.");
    await expect(report.getByText(/anthropic:messages:claude-3-5-haiku-latest/)).toBeVisible();
    const refund = report.getByRole("listitem").filter({ hasText: "Refund policy" }).first();
    await expect(refund.getByText(/Not carried over: .*javascript/)).toBeVisible();
    // Nothing is written by a preview.
    await expect(page.getByText("No test cases yet")).toBeVisible();
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(report).toBeVisible();
    const overflow = await dialog.evaluate((d) => d.scrollWidth - d.clientWidth);
    expect(overflow, "the dialog does not scroll sideways at 390 px").toBeLessThanOrEqual(1);
    await expectAccessible(page, "import preview");
    await page.setViewportSize({ width: 1440, height: 900 });

    await dialog.getByRole("button", { name: "Import", exact: true }).click();
    await expect(report.getByTestId("import-summary")).toContainText("Imported 2 test cases.");
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(dialog).toBeHidden();
    await expect(casesTable.getByRole("link", { name: "Where is my order", exact: true })).toBeVisible();
    await expect(casesTable.getByRole("link", { name: "Refund policy", exact: true })).toBeVisible();
  });

  await test.step("the imported case carries the rendered prompt and the merged assertions", async () => {
    await casesTable.getByRole("link", { name: "Where is my order", exact: true }).click();
    await expect(page.getByLabel("Initial message")).toHaveValue("You are a support bot. Answer: Where is order 42?");
    await expect(page.getByTestId("case-source")).toHaveText("Imported from promptfoo.");
    await page.goBack();
  });

  await test.step("Langfuse: the item's id and trace stay on the case", async () => {
    await uploadToImport({ name: "dataset-items.json", mimeType: "application/json", text: LANGFUSE }, "langfuse");
    await dialog.getByRole("button", { name: "Import", exact: true }).click();
    await expect(dialog.getByTestId("import-summary")).toContainText("Imported 1 test case.");
    await dialog.getByRole("button", { name: "Done" }).click();
    await casesTable.getByRole("link", { name: /opening hours/ }).click();
    await expect(page.getByTestId("case-source")).toHaveText("Imported from Langfuse (item item-langfuse-1, trace trace-abc-123).");
    await page.goBack();
  });

  await test.step("Export for promptfoo downloads a config with the same tests", async () => {
    await page.getByRole("button", { name: "More actions" }).click();
    const downloading = page.waitForEvent("download");
    await page.getByRole("menuitem", { name: "Export for promptfoo" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/promptfooconfig\.yaml$/);
    const config = parseYaml(await (await download.createReadStream()).toArray().then((c) => Buffer.concat(c).toString("utf8")));
    const descriptions = (config.tests as { description: string }[]).map((t) => t.description);
    expect(descriptions).toEqual(expect.arrayContaining(["Where is my order", "Refund policy"]));
  });
});
