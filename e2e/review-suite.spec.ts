import { expect, test, type APIRequestContext } from "@playwright/test";
import {
  addFakeRules,
  addTestCases,
  apiPost,
  createApiKey,
  createFakeSuite,
  expectAccessible,
  lookAt,
  runToCompletion,
  workspaceWithKey,
} from "./fixtures";

/**
 * Human review as a QA lead meets it on the suite, run and case pages: the suite's review
 * settings are set in its form and persist; a run whose judge fails two of four cases queues
 * them by the "Queue failed results" rule; two rows are sent to review from the run page's bulk
 * bar (one new, one already queued); a scripted reviewer (an editor API key) labels two items,
 * one against the judge. Then the run page shows the reviewed pass rate and "Overturned", the
 * case view the human verdict, and the suite's calibration card and page the labelled count, the
 * confusion matrix and the disagreement — each figure checked against what was created. The
 * pages are looked at 1440 and 390 px wide.
 */

type Item = { id: string; case_name: string; source: string; status: string; case_result_id: string };

/** The judge's verdict per case: the fake judge answers by a token in the case's question. */
const CASES = [
  { name: "Refund policy", token: "REFUNDQ", judge: "fail" },
  { name: "Opening hours", token: "HOURSQ", judge: "fail" },
  { name: "Greeting", token: "GREETQ", judge: "pass" },
  { name: "Shipping times", token: "SHIPQ", judge: "pass" },
] as const;

async function reviewItems(request: APIRequestContext, token: string, runId: string): Promise<Item[]> {
  const res = await request.get(`/api/v1/review-items?run_id=${runId}&limit=50`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { data: Item[] }).data;
}

test("review settings, Send to review, a reviewer's labels, and the judge's calibration on the suite, run and case pages", async ({
  page,
}) => {
  test.setTimeout(180_000);
  // A workspace of its own: the queue, the nav's count and the calibration hold only what this test made.
  const { workspaceId, token } = await workspaceWithKey(page, "Review suite team", "review suite e2e");
  // The editor role is the one that may label.
  const reviewerToken = await createApiKey(page, workspaceId, "reviewer", "editor");
  const marker = `REVIEWSUITE${Date.now().toString(36)}`;

  const suite = await createFakeSuite(page.request, token, { agent: { name: "Review bot" }, suite: { name: "Review suite" } });
  await addTestCases(
    page.request,
    token,
    suite.id,
    CASES.map((c) => ({
      name: c.name,
      initial_message: `Question ${c.token} (${marker})`,
      expected_outcomes: { "Answers the question": true },
    })),
  );
  await addFakeRules(
    page.request,
    CASES.map((c) => ({
      match: { schemaName: "outcome_verdicts", anyContains: `${c.token} (${marker})` },
      reply: { json: { o1: { reasoning: `The judge says ${c.judge}.`, evidence_turns: [1], verdict: c.judge } } },
    })),
  );
  const suiteHref = `/w/${workspaceId}/suites/${suite.id}`;

  await test.step("the suite form sets the review settings, refuses a bad one at its field, and they persist", async () => {
    await page.goto(`${suiteHref}/settings`);
    const review = page.getByRole("region", { name: "Human review" });
    await expect(review.getByLabel("Queue failed results")).not.toBeChecked();
    await expect(review.getByLabel("Required reviews")).toHaveValue("1");
    await expect(review.getByLabel("Labels before calibration")).toHaveValue("30");
    await expect(review.getByLabel("Trusted when κ lower bound ≥")).toHaveValue("0.6");

    await review.getByLabel("Queue failed results").check();
    await review.getByLabel("Sample of passed results (%)").fill("150");
    await review.getByLabel("Required reviews").fill("1");
    await review.getByLabel("Labels before calibration").fill("5");
    await review.getByLabel("Trusted when κ lower bound ≥").fill("0.7");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(review.getByText("passed_sample_percent must be between 0 and 100")).toBeVisible();
    await expect(review.getByLabel("Sample of passed results (%)")).toHaveAttribute("aria-invalid", "true");

    await review.getByLabel("Sample of passed results (%)").fill("0");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
    await expectAccessible(page, "suite settings with the Human review section");
    await lookAt(page, "review-settings", [[review, "the Human review section"]]);

    await page.reload();
    await expect(review.getByLabel("Queue failed results")).toBeChecked();
    await expect(review.getByLabel("Queue flaky cases")).not.toBeChecked();
    await expect(review.getByLabel("Sample of passed results (%)")).toHaveValue("0");
    await expect(review.getByLabel("Labels before calibration")).toHaveValue("5");
    await expect(review.getByLabel("Trusted when κ lower bound ≥")).toHaveValue("0.7");
    const saved = await (await page.request.get(`/api/v1/suites/${suite.id}`, { headers: { authorization: `Bearer ${token}` } })).json();
    expect(saved).toMatchObject({
      review_rules: { failed: true, passed_sample_percent: 0, flaky: false },
      required_reviews: 1,
      calibration_min_labels: 5,
      calibration_trusted_kappa: 0.7,
    });
  });

  const runId = await runToCompletion(page.request, token, suite.id);
  // The "Queue failed results" rule queues the judge's two failures once the run finished.
  await expect
    .poll(async () => (await reviewItems(page.request, token, runId)).map((i) => `${i.case_name}:${i.source}`).sort(), {
      timeout: 15_000,
    })
    .toEqual(["Opening hours:failed", "Refund policy:failed"]);

  const runHref = `/w/${workspaceId}/runs/${runId}`;
  const results = page.getByRole("region", { name: "Case results" });
  const row = (name: string) => results.getByRole("row").filter({ hasText: name });

  await test.step("the run page's bulk bar sends two selected rows to review", async () => {
    await page.goto(runHref);
    await expect(row("Refund policy").getByText("In review")).toBeVisible();
    await expect(row("Greeting").getByText("In review")).toHaveCount(0);
    const bar = page.getByRole("group", { name: "Selected case results" });
    await expect(bar).toHaveCount(0);
    await page.getByLabel("Select Refund policy").check();
    await page.getByLabel("Select Greeting").check();
    await expect(bar).toContainText("2 selected");
    await expectAccessible(page, "run page with rows selected");
    await bar.getByRole("button", { name: "Send to review" }).click();
    const notice = results.getByRole("status").filter({ hasText: "sent to review" });
    await expect(notice).toContainText("1 sent to review, 1 already queued");
    await expect(notice.getByRole("link", { name: "Open the Review queue" })).toHaveAttribute(
      "href",
      `/w/${workspaceId}/review?run=${runId}`,
    );
    await expect(bar).toHaveCount(0);
    await expect(row("Greeting").getByText("In review")).toBeVisible();
    const items = await reviewItems(page.request, token, runId);
    expect(items.find((i) => i.case_name === "Greeting")).toMatchObject({ source: "manual", status: "open" });
  });

  await test.step("a reviewer labels two items through the API, one against the judge", async () => {
    const items = await reviewItems(page.request, token, runId);
    const refund = items.find((i) => i.case_name === "Refund policy")!;
    const greeting = items.find((i) => i.case_name === "Greeting")!;
    // The judge failed "Refund policy": the reviewer passes it (overturned); "Greeting" agrees with the judge.
    const labelled = await apiPost(page.request, reviewerToken, `/api/v1/review-items/${refund.id}/labels`, { verdict: "pass" });
    expect(labelled).toMatchObject({ status: "agreed", human_verdict: "pass", judge_verdict: "fail", overturned: true });
    await apiPost(page.request, reviewerToken, `/api/v1/review-items/${greeting.id}/labels`, { verdict: "pass" });
  });

  const items = await reviewItems(page.request, token, runId);
  const itemOf = (name: string) => items.find((i) => i.case_name === name)!;

  await test.step("the run page shows the reviewed pass rate, the human verdicts and Overturned", async () => {
    await page.goto(runHref);
    // The judge passed 2 of 4; with the overturned "Refund policy" people pass 3 of 4.
    await expect(page.getByTestId("run-stat-pass-rate")).toHaveText("50%");
    const reviewed = page.getByTestId("run-summary-reviewed-pass-rate");
    await expect(reviewed).toHaveText("75%");
    await expect(page.getByText("Reviewed pass rate (2 reviewed, 1 overturned)")).toBeVisible();
    await expect(row("Refund policy").getByText("Human: pass")).toBeVisible();
    await expect(row("Refund policy").getByText("Overturned")).toBeVisible();
    await expect(row("Greeting").getByText("Human: pass")).toBeVisible();
    await expect(row("Greeting").getByText("Overturned")).toHaveCount(0);
    await expect(row("Opening hours").getByText("In review")).toBeVisible();
    await expect(row("Shipping times").getByText(/Human:|In review|Overturned/)).toHaveCount(0);
    const judge = page.getByRole("link", { name: "Judge: uncalibrated" });
    await expect(judge).toHaveAttribute("href", `${suiteHref}/calibration`);
    await expectAccessible(page, "run page with human verdicts");
    await lookAt(page, "review-run-page", [[results, "the case results"]]);
  });

  await test.step("the case view shows the human verdict, and Send to review for a result not queued", async () => {
    await page.goto(`${runHref}/cases/${itemOf("Refund policy").case_result_id}`);
    const verdict = page.getByTestId("case-human-verdict");
    await expect(verdict).toContainText("Human: pass");
    await expect(verdict).toContainText("Overturned");
    await expect(verdict).toContainText("the judge said fail");
    await expect(page.getByRole("link", { name: "In review: agreed" })).toHaveAttribute(
      "href",
      `/w/${workspaceId}/review/${itemOf("Refund policy").id}`,
    );
    await expect(page.getByRole("button", { name: "Send to review" })).toHaveCount(0);
    await expectAccessible(page, "case view with a human verdict");
    await lookAt(page, "review-case-view", []);

    const shipping = (await (
      await page.request.get(`/api/v1/runs/${runId}/results`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as {
      data: { id: string; name: string }[];
    };
    await page.goto(`${runHref}/cases/${shipping.data.find((r) => r.name === "Shipping times")!.id}`);
    await expect(page.getByTestId("case-human-verdict")).toHaveCount(0);
    await page.getByRole("button", { name: "Send to review" }).click();
    await expect(page.getByRole("link", { name: "In review: open" })).toBeVisible();
    expect((await reviewItems(page.request, token, runId)).map((i) => i.case_name).sort()).toEqual([
      "Greeting",
      "Opening hours",
      "Refund policy",
      "Shipping times",
    ]);
  });

  await test.step("the suite page's calibration card counts the labels and fills the confusion matrix", async () => {
    await page.goto(suiteHref);
    const card = page.getByRole("region", { name: "Judge calibration" });
    await expect(card.getByText("Judge: uncalibrated")).toBeVisible(); // 2 labels of the 5 asked for
    await expect(card.getByTestId("calibration-n")).toHaveText("2 of 5");
    await expect(card.getByTestId("calibration-agreement")).toHaveText("50%");
    // The judge failed one result people passed, and failed no result people failed.
    await expect(card.getByTestId("calibration-precision")).toHaveText("0%");
    await expect(card.getByTestId("calibration-recall")).toHaveText("—");
    const matrix = card.getByRole("table", { name: "Judge verdicts against human verdicts" });
    await expect(matrix.getByRole("columnheader")).toHaveText(["Human pass", "Human fail"]);
    await expect(matrix.getByRole("row", { name: /^Judge pass/ }).getByRole("cell")).toHaveText(["1", "0"]);
    await expect(matrix.getByRole("row", { name: /^Judge fail/ }).getByRole("cell")).toHaveText(["1", "0"]);
    await expect(card.getByRole("link", { name: "Disagreements (1)" })).toHaveAttribute("href", `${suiteHref}/calibration#disagreements`);
    await expectAccessible(page, "suite page with the calibration card");
    await lookAt(page, "review-suite-card", [[card, "the calibration card"]]);
  });

  await test.step("the calibration page lists the disagreement and the judge's history", async () => {
    await page.getByRole("region", { name: "Judge calibration" }).getByRole("link", { name: "Disagreements (1)" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Judge calibration" })).toBeVisible();
    const history = page.getByRole("table", { name: "Judge calibration history" });
    await expect(history.getByRole("row")).toHaveCount(2); // header + the current judge
    await expect(history.getByRole("row").nth(1)).toContainText("Current");
    await expect(history.getByRole("row").nth(1).getByRole("cell").nth(3)).toHaveText("2");
    const overall = page.getByRole("region", { name: "Overall verdict" });
    await expect(overall.getByRole("row", { name: /^Judge fail/ }).getByRole("cell")).toHaveText(["1", "0"]);
    const disagreements = page.getByRole("table", { name: "Disagreements between the judge and human review" });
    await expect(disagreements.getByRole("row")).toHaveCount(2);
    const refund = disagreements.getByRole("row").nth(1);
    await expect(refund).toContainText("Judge: fail");
    await expect(refund).toContainText("Human: pass");
    await expect(refund.getByRole("link", { name: "Run #1" })).toHaveAttribute("href", runHref);
    await expect(refund.getByRole("link", { name: "Refund policy", exact: true })).toHaveAttribute(
      "href",
      `${runHref}/cases/${itemOf("Refund policy").case_result_id}`,
    );
    await expect(refund.getByRole("link", { name: "Review item of Refund policy" })).toHaveAttribute(
      "href",
      `/w/${workspaceId}/review/${itemOf("Refund policy").id}`,
    );
    await expectAccessible(page, "calibration page");
    await lookAt(page, "review-calibration-page", [[page.getByRole("main"), "the calibration page"]]);
  });
});
