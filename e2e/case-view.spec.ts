import { expect, test, type APIRequestContext } from "@playwright/test";
import { apiPost, createApiKey, expectAccessible, openWorkspace, createFakeSuite, addFakeRules } from "./fixtures";

/**
 * The case view's wording of a multi-turn case with an attached file: one meaning of "turn" (a
 * user message and the agent's reply) in the header, the transcript and the judge's evidence; the
 * system prompt shown apart; the authored first message and the simulated user told apart; the
 * attached CSV as a collapsed attachment that opens to a rendered table. The simulated user and
 * the judge are scripted on the fake OpenAI server; the agent is its default echo.
 */

const SYSTEM_PROMPT = "You are a sales analyst. Answer from the attached figures.";
const OPENING = "Which region sold the most in Q1?";
const FOLLOW_UP = "And which one sold the least?";
const CSV = "Region,Q1\nNorth,120\nSouth,80\n";

async function createMultiTurnCase(request: APIRequestContext, token: string, marker: string) {
  const suite = await createFakeSuite(request, token, {
    agent: { name: "Sales bot", system_prompt: SYSTEM_PROMPT },
    suite: { name: "Case view suite" },
  });
  const upload = await request.post("/api/v1/files", {
    headers: { authorization: `Bearer ${token}` },
    multipart: { file: { name: "sales.csv", mimeType: "text/csv", buffer: Buffer.from(CSV) } },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const file = (await upload.json()) as { id: string };
  await apiPost(request, token, `/api/v1/suites/${suite.id}/test-cases`, {
    name: "Regional sales",
    initial_message: `${OPENING} (${marker})`,
    persona: { type: "manager", description: `A sales manager (${marker})`, instructions: "Ask short follow-up questions." },
    max_turns: 2,
    files: [{ path: `file:${file.id}`, type: "csv" }],
    expected_outcomes: { "Names the region that sold the least": true },
  });
  return suite.id;
}

async function scriptFakeServer(request: APIRequestContext, marker: string) {
  const rules = [
    {
      match: { schemaName: "simulator_turn", anyContains: marker },
      reply: { json: { message: FOLLOW_UP, should_end: false, end_reason: null } },
    },
    {
      match: { schemaName: "outcome_verdicts", anyContains: marker },
      reply: { json: { o1: { reasoning: "The agent answers the follow-up in turn 2.", evidence_turns: [2], verdict: "pass" } } },
    },
  ];
  await addFakeRules(request, rules);
}

/** Runs every case of the suite and answers the id of its (only) case result once the run completed. */
async function runToCompletion(request: APIRequestContext, token: string, suiteId: string) {
  const headers = { authorization: `Bearer ${token}` };
  const run = await apiPost(request, token, `/api/v1/suites/${suiteId}/runs`, {});
  await expect
    .poll(async () => ((await (await request.get(`/api/v1/runs/${run.id}`, { headers })).json()) as { status: string }).status, {
      timeout: 30_000,
      intervals: [200],
    })
    .toBe("completed");
  const results = (await (await request.get(`/api/v1/runs/${run.id}/results`, { headers })).json()) as { data: { id: string }[] };
  expect(results.data).toHaveLength(1);
  return { runId: run.id, resultId: results.data[0]!.id };
}

test("a multi-turn case result reads right: turns, authorship, evidence links and the attached file", async ({ page }, testInfo) => {
  const workspaceId = await openWorkspace(page);
  const token = await createApiKey(page, workspaceId, "case view e2e");
  const marker = `CASEVIEW${Date.now().toString(36)}`;
  const suiteId = await createMultiTurnCase(page.request, token, marker);
  await scriptFakeServer(page.request, marker);
  const { runId, resultId } = await runToCompletion(page.request, token, suiteId);

  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.goto(`/w/${workspaceId}/runs/${runId}/cases/${resultId}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Regional sales");

  // One meaning of "turn": the header's count is the number of turn groups in the transcript.
  const transcript = page.getByRole("list", { name: "Transcript" });
  const turns = transcript.getByRole("listitem", { name: /^Turn \d+$/ });
  await expect(page.getByTestId("case-stat-turns")).toHaveText("2");
  await expect(turns).toHaveCount(2);

  // The system prompt is shown apart, collapsed, and is not a turn.
  await expect(page.getByText("System prompt · the agent's instructions, not a turn")).toBeVisible();
  await expect(page.getByText(SYSTEM_PROMPT, { exact: true })).toBeHidden();
  await expect(transcript.getByText(SYSTEM_PROMPT)).toHaveCount(0);

  // Turn 1 opens with the authored first message, turn 2 with the simulated user.
  const turn1 = transcript.getByRole("listitem", { name: "Turn 1" });
  const turn2 = transcript.getByRole("listitem", { name: "Turn 2" });
  const opening = turn1.getByRole("group", { name: "Authored first message" });
  await expect(opening).toContainText(OPENING);
  await expect(turn1.getByRole("group", { name: "Agent" })).toContainText("Fake reply:");
  await expect(turn2.getByRole("group", { name: "Simulated user" })).toHaveText(/And which one sold the least\?/);
  await expect(turn2.getByRole("group", { name: "Agent" })).toContainText(`Fake reply: ${FOLLOW_UP}`);
  await expect(transcript.getByRole("group", { name: "Simulated user" })).toHaveCount(1);

  // The file is a collapsed attachment, not markdown pipes in the bubble; opened, it is a table.
  const attachment = opening.getByRole("group", { name: /^Attachment: sales\.csv/ });
  await expect(attachment).toContainText("csv");
  await expect(attachment).not.toHaveAttribute("open");
  await expect(opening).not.toContainText("| Region |");
  await expect(opening).not.toContainText("Attached file 1 of 1");
  await attachment.getByText("Attachment: sales.csv").click();
  const table = attachment.getByRole("table");
  await expect(table).toBeVisible();
  await expect(table.getByRole("columnheader", { name: "Region" })).toBeVisible();
  await expect(table.getByRole("row", { name: "North 120" })).toBeVisible();

  // The judge's evidence "turn 2" lands on turn 2 of the transcript.
  const outcome = page.getByRole("listitem", { name: "Outcome Names the region that sold the least" });
  const evidence = outcome.getByRole("link", { name: "turn 2" });
  await expect(evidence).toHaveAttribute("href", `#${await turn2.getAttribute("id")}`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await evidence.click();
  await expect(page).toHaveURL(/#turn-2$/);
  await expect(turn2).toBeInViewport();
  expect(await turn2.evaluate((el) => el.matches(":target"))).toBe(true);

  await page.screenshot({ path: testInfo.outputPath("case-view-1440.png"), fullPage: true });
  await page.screenshot({ path: "/tmp/turns-1440-view.png" });
  await page.screenshot({ path: "/tmp/turns-1440.png", fullPage: true });
  await expectAccessible(page, "case view of a multi-turn case with an attachment");

  // Narrow: the same page at 390 px wide (a screenshot to look at); the opened table is still shown.
  await page.setViewportSize({ width: 390, height: 844 });
  await turn1.scrollIntoViewIfNeeded();
  await expect(table).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("case-view-390.png"), fullPage: true });
});
