import { readFile } from "node:fs/promises";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { apiPost, createApiKey, openWorkspace, createFakeSuite, addFakeRules } from "./fixtures";

/**
 * A run end to end in the browser: start a run from the suite's runs page → watch the progress move to
 * completed without reloading → open the failing case → see the transcript, the failure reason
 * and the judge's reasoning (and the exact judge request) → download exports.
 * The agent and judge talk to the fake OpenAI server, scripted over HTTP: every reply for this
 * spec's marker is delayed so progress is visible, and the judge fails one outcome.
 */

const JUDGE_REASONING = "The agent never explained the refund policy; it only echoed the question.";

/** A chat agent with a mocked tool, a suite judged by the same fake endpoint, and three cases (one fails). */
async function createSuite(request: APIRequestContext, token: string, marker: string) {
  const suite = await createFakeSuite(request, token, {
    agent: {
      name: "Runs bot",
      system_prompt: `You help customers. (${marker})`,
      tools: [
        {
          name: "lookup_order",
          description: "Look up an order by id",
          parameters: { type: "object", properties: { order_id: { type: "string" } } },
          mock_response: { status: "shipped", eta: "tomorrow" },
        },
      ],
    },
    suite: { name: "Support runs" },
  });
  const cases = [
    {
      name: "Polite greeting",
      tags: ["smoke"],
      initial_message: "Hello there",
      checks: [{ type: "contains_phrases", phrases: ["Fake reply"] }],
    },
    {
      name: "Order status",
      tags: ["smoke"],
      initial_message: "Please lookup_order for order 42",
      expected_tool_calls: [{ tool: "lookup_order" }],
    },
    {
      name: "Refund policy",
      tags: ["refunds"],
      initial_message: `Can I get a refund? ${marker}-FAIL`,
      expected_outcomes: { "Explains the refund policy": true },
    },
  ];
  for (const c of cases) await apiPost(request, token, `/api/v1/suites/${suite.id}/test-cases`, c);
  return { suiteId: suite.id, suiteName: suite.name };
}

async function scriptFakeServer(request: APIRequestContext, marker: string) {
  const rules = [
    // The judge fails the refund case's outcome (first matching rule wins).
    {
      match: { schemaName: "outcome_verdicts", anyContains: `${marker}-FAIL` },
      reply: { json: { o1: { reasoning: JUDGE_REASONING, evidence_turns: [1], verdict: "fail" } }, delayMs: 400 },
    },
    // Every other call of this spec: the fake's default answer, slowed down so progress is visible.
    { match: { anyContains: marker, endpoint: "chat" }, reply: { delayMs: 400 } },
  ];
  await addFakeRules(request, rules);
}

test("start a run, watch it complete live, inspect the failing case and export the report", async ({ page }) => {
  const workspaceId = await openWorkspace(page);
  const token = await createApiKey(page, workspaceId, "runs e2e");
  const marker = `RUNSPEC${Date.now().toString(36)}`;
  const { suiteId, suiteName } = await createSuite(page.request, token, marker);
  await scriptFakeServer(page.request, marker);

  // Start from the suite's runs page. A selection that matches no case is refused inline.
  await page.goto(`/w/${workspaceId}/suites/${suiteId}/runs`);
  await page.getByRole("button", { name: "Run suite" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Run suite" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("checkbox", { name: "red-team" }).check();
  await dialog.getByRole("button", { name: "Start run" }).click();
  await expect(dialog.getByText("No test cases match this selection")).toBeVisible();
  await dialog.getByRole("checkbox", { name: "red-team" }).uncheck();
  await dialog.getByLabel("Concurrency").fill("0");
  await dialog.getByRole("button", { name: "Start run" }).click();
  await expect(dialog.getByText("Use a whole number from 1 to 64")).toBeVisible();
  await dialog.getByLabel("Concurrency").fill("1");
  // The page's polls of the run: answers no cache keeps and Next does not compress (lib/runs/live-answers.ts).
  const runPoll = page.waitForResponse((r) => /\/api\/w\/[0-9a-f-]{36}\/runs\/[0-9a-f-]{36}$/.test(r.url()));
  await dialog.getByRole("button", { name: "Start run" }).click();

  await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
  const runId = /\/runs\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
  await expect(page.getByRole("heading", { level: 1 })).toContainText(suiteName);
  // A marker on window proves the page is never reloaded while the run progresses.
  await page.evaluate(() => ((window as unknown as { __runMarker: boolean }).__runMarker = true));

  const done = page.getByTestId("run-done-count");
  const seen = new Set<string>();
  await expect
    .poll(
      async () => {
        const text = (await done.textContent()) ?? "";
        seen.add(text);
        return text;
      },
      { timeout: 30_000, intervals: [100] },
    )
    .toBe("3 of 3 cases done");
  expect(seen.size, `progress values seen: ${[...seen].join(" | ")}`).toBeGreaterThan(1);
  const pollHeaders = (await runPoll).headers();
  expect(pollHeaders["cache-control"]).toBe("private, no-store, no-transform");
  expect(pollHeaders["content-encoding"]).toBeUndefined();
  await expect(page.getByRole("heading", { level: 1 }).getByText("Completed")).toBeVisible();
  await expect(page.getByRole("progressbar", { name: "Run progress" })).toHaveAttribute("aria-valuenow", "3");
  await expect(page.getByTestId("run-stat-passed")).toHaveText("2");
  await expect(page.getByTestId("run-stat-failed")).toHaveText("1");
  await expect(page.getByTestId("run-stat-pass-rate")).toHaveText("66.7%");
  await expect(page.getByRole("heading", { name: "Summary" })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __runMarker?: boolean }).__runMarker)).toBe(true);
  await expect(page.getByText("No earlier completed run of this suite to compare with.")).toBeVisible();

  // The table filters by status and by tag.
  const table = page.getByRole("table");
  await expect(table.getByRole("row")).toHaveCount(4);
  await page.getByLabel("Tag", { exact: true }).selectOption("smoke");
  await expect(table.getByRole("row")).toHaveCount(3);
  await page.getByLabel("Tag", { exact: true }).selectOption("");
  await page.getByRole("button", { name: /^Failed \d+$/ }).click();
  await expect(table.getByRole("row")).toHaveCount(2);
  const failing = table.getByRole("row").filter({ hasText: "Refund policy" });
  await expect(failing).toContainText("Failed");
  await failing.getByRole("link", { name: "Refund policy" }).click();

  // The case view: status with the reason, the transcript as a chat, the judge's verdict.
  // The case link carries the table's filter (the case view's previous/next walk that list).
  await page.waitForURL(new RegExp(`/runs/${runId}/cases/[0-9a-f-]{36}\\?status=failed$`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Refund policy");
  await expect(page.getByTestId("case-reason")).toContainText("Why it failed");
  await expect(page.getByTestId("case-reason")).toContainText(/1 of 1 outcomes? not met/);
  const transcript = page.getByRole("list", { name: "Transcript" });
  await expect(transcript.getByRole("group", { name: "Authored question" })).toHaveText(
    `Authored questionCan I get a refund? ${marker}-FAIL`,
  );
  await expect(transcript.getByText(/^Fake reply: Can I get a refund\?/)).toBeVisible();
  const outcome = page.getByRole("listitem", { name: "Outcome Explains the refund policy" });
  await expect(outcome).toContainText("Not met");
  await expect(outcome).toContainText(JUDGE_REASONING);
  await outcome.getByRole("link", { name: "turn 1" }).click();
  await expect(page).toHaveURL(/#turn-1$/);

  // "Why did the judge say that?": the judge call's exact request and raw response.
  const calls = page.getByRole("list", { name: "LLM calls" });
  const judgeCall = calls.getByRole("listitem").filter({ hasText: "judge" });
  await judgeCall.getByText("judge").first().click();
  await expect(judgeCall.getByLabel(/^Request of call/)).toContainText("outcome_verdicts");
  await expect(judgeCall.getByLabel(/^Response of call/)).toContainText(JUDGE_REASONING);

  // The passing tool case shows its tool call with arguments and the mocked response.
  await page.getByRole("link", { name: "← Back to the run" }).click();
  await expect(page.getByTestId("run-done-count")).toHaveText("3 of 3 cases done");
  await page.getByRole("button", { name: /^All \d+$/ }).click();
  await page.getByRole("table").getByRole("link", { name: "Order status" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Order status");
  await page.getByText("Tool call: lookup_order").click();
  await expect(page.getByLabel("Mocked response of lookup_order")).toContainText('"status": "shipped"');
  await expect(page.getByRole("region", { name: "Matched" })).toContainText("lookup_order");

  // Exports download as files.
  await page.goto(`/w/${workspaceId}/runs/${runId}`);
  const exports = page.getByRole("group", { name: "Export run" });
  const [json] = await Promise.all([page.waitForEvent("download"), exports.getByRole("link", { name: "JSON" }).click()]);
  // Named after the suite and the run's number (the suite's first run).
  expect(json.suggestedFilename()).toMatch(/^assay-[a-z0-9-]+-run-1\.json$/);
  const report = JSON.parse(await readFile((await json.path())!, "utf8")) as {
    suite_name: string;
    results: { test_name: string; passed: boolean }[];
  };
  expect(report.suite_name).toBe(suiteName);
  expect(report.results.map((r) => [r.test_name, r.passed])).toEqual([
    ["Polite greeting", true],
    ["Order status", true],
    ["Refund policy", false],
  ]);
  const [junit] = await Promise.all([page.waitForEvent("download"), exports.getByRole("link", { name: "JUnit XML" }).click()]);
  expect(junit.suggestedFilename()).toMatch(/\.xml$/);
  const xml = await readFile((await junit.path())!, "utf8");
  expect(xml).toMatch(/<testcase [^>]*name="Refund policy"[^>]*><failure message="1 of 1 outcomes? not met"/);
  expect(xml).toContain('failures="1"');
});
