import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { makePdf } from "../tests/files/fixtures";
import { apiPost, createApiKey, expectAccessible, openWorkspace, createFakeSuite } from "./fixtures";

/**
 * The execution model's file inputs in the browser: upload a PDF in the case form (progress, then a row typed
 * pdf from the sniffed content), preview what the agent will see, have bad input refused at the
 * file's fields, save, run the case and read the processed file with its markdown on the case view.
 * The fake OpenAI agent echoes the last user message, so its reply shows the file reached it.
 */

const PAGES = ["Alpha page one", "Bravo page two", "Charlie page three"];

test("upload a PDF in the case form, preview its markdown, run the case and see the processed file", async ({ page }) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "assay-e2e-files-"));
  const pdfName = `invoice-${Date.now().toString(36)}.pdf`;
  const pdfPath = path.join(dir, pdfName);
  writeFileSync(pdfPath, await makePdf(PAGES));
  const notPdfPath = path.join(dir, "notes.txt");
  writeFileSync(notPdfPath, "Plain notes, not a PDF.\n");

  try {
    const workspaceId = await openWorkspace(page);
    const token = await createApiKey(page, workspaceId, "files e2e");
    const request = page.request;
    const suite = await createFakeSuite(request, token, {
      agent: { name: "Files bot", system_prompt: "You answer questions about the documents customers send." },
      suite: { name: "Files suite" },
      model: "gpt-files",
    });
    const testCase = await apiPost(request, token, `/api/v1/suites/${suite.id}/test-cases`, {
      name: "Reads the attached invoice",
      initial_message: "What does page two of the attached invoice say?",
      checks: [{ type: "contains_phrases", phrases: ["Bravo page two"] }],
    });

    const caseUrl = `/w/${workspaceId}/suites/${suite.id}/cases/${testCase.id}`;
    await page.goto(caseUrl);
    const files = page.getByRole("region", { name: "Files", exact: true });
    await expect(files.getByText("No files.")).toBeVisible();

    // Upload: the progress finishes and the file becomes row 1, typed pdf from its sniffed content.
    await files.getByLabel("Upload files").setInputFiles(pdfPath);
    const row = files.getByRole("group", { name: `File 1: ${pdfName}` });
    await expect(row).toBeVisible();
    await expect(files.getByRole("list", { name: "Uploads" })).toHaveCount(0);
    await expect(row.getByRole("combobox", { name: "Type" })).toHaveValue("pdf");
    await row.getByLabel("Description", { exact: true }).fill("The customer's March invoice");

    // Preview: what the agent will see (the markdown with the page text, processing time, metadata).
    await row.getByRole("button", { name: "Preview file 1" }).click();
    const preview = row.getByRole("region", { name: "What the agent will see of file 1" });
    await expect(preview).toBeVisible({ timeout: 20_000 });
    await expect(preview.getByLabel("Extracted markdown of file 1")).toContainText("Bravo page two");
    await expect(preview).toContainText("Processing time");
    await expectAccessible(page, "case form with a file row and its preview");

    // Bad pages are refused at the field; a declared type that does not match the content, by the server.
    await row.getByLabel("Pages", { exact: true }).fill("2, zero");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByTestId("error-files.0.pages")).toContainText("positive whole numbers");
    await row.getByLabel("Pages", { exact: true }).fill("");
    await row.getByRole("combobox", { name: "Type" }).selectOption("word");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByTestId("error-files.0.type")).toBeVisible();
    await row.getByRole("combobox", { name: "Type" }).selectOption("pdf");

    // An upload that fails shows its error at the upload, and the case keeps its one file.
    await page.route("**/api/w/*/files", (route) =>
      route.request().method() === "POST" ? route.fulfill({ status: 413, body: "" }) : route.fallback(),
    );
    await files.getByLabel("Upload files").setInputFiles(notPdfPath);
    await expect(files.getByTestId("upload-error")).toContainText("larger than 25 MB");
    await files.getByRole("button", { name: "Dismiss notes.txt" }).click();
    await page.unroute("**/api/w/*/files");
    await expect(files.getByRole("group")).toHaveCount(1);

    await page.getByRole("button", { name: "Save changes" }).click();
    await page.waitForURL(/notice=saved/);

    // Reopened, the case still references the uploaded file (its name comes from the file store).
    await page.goto(caseUrl);
    const saved = page.getByRole("region", { name: "Files", exact: true }).getByRole("group", { name: `File 1: ${pdfName}` });
    await expect(saved).toBeVisible();
    await expect(saved.getByLabel("Description", { exact: true })).toHaveValue("The customer's March invoice");

    await page.getByRole("button", { name: "Run this case" }).click();
    const dialog = page.getByRole("dialog", { name: "Run this case" });
    await dialog.getByRole("button", { name: "Start run" }).click();

    // The case view: the processed file with its markdown (collapsed until opened) and the agent's reply.
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}\/cases\/[0-9a-f-]{36}$/);
    const passed = "Every check, tool call expectation, outcome and metric passed.";
    const verdict = page.getByTestId("case-reason").or(page.getByText(passed));
    await expect(verdict).toBeVisible({ timeout: 30_000 });
    await expect(verdict, "the case passes: the agent's reply quotes page two").toHaveText(passed);
    const processed = page.getByRole("list", { name: "Processed files" }).getByTestId("processed-file");
    await expect(processed).toHaveCount(1);
    await expect(processed).toContainText(pdfName);
    await expect(processed).toContainText("pdf");
    await expect(processed).toContainText("Processing time");
    const markdown = processed.getByLabel(`Extracted markdown of ${pdfName}`);
    await expect(markdown).toBeHidden();
    await processed.getByText(/Extracted markdown \(/).click();
    await expect(markdown).toContainText("Alpha page one");
    await expect(markdown).toContainText("Charlie page three");
    await expect(page.getByText(/^Fake reply:[\s\S]*Bravo page two/).first()).toBeVisible();
    await expectAccessible(page, "case view with a processed file");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
