import http from "node:http";
import { createHmac } from "node:crypto";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import {
  apiPost,
  createApiKey,
  createWorkspace,
  expectAccessible,
  unique,
  runToCompletion,
  createFakeSuite,
  addFakeRules,
} from "./fixtures";

/**
 * Regression alerts and webhooks end to end: an admin adds a webhook pointing at a receiver this
 * test runs on loopback; a passing run, then a failing run of the same cases raises an alert; it
 * shows in the bell and on the suite page; a member acknowledges it on the Alerts page; the
 * receiver got the signed alert.raised event and the delivery log shows its 2xx.
 */

const SECRET = "e2e-webhook-secret-0123456789";

type Received = { headers: http.IncomingHttpHeaders; body: string };

async function startReceiver() {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("thanks");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/assay-hook`;
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function openAlertCount(page: Page): Promise<number> {
  const label = (await page.getByTestId("alert-bell").getAttribute("aria-label")) ?? "";
  return Number(/(\d+) unacknowledged/.exec(label)?.[1] ?? 0);
}

test("a failing run raises an alert in the bell, a member acknowledges it, and the webhook delivery log shows a 2xx", async ({ page }) => {
  const receiver = await startReceiver();
  try {
    // A workspace of its own: the bell counts the open alerts of the whole workspace.
    const workspaceId = await createWorkspace(page, unique("Alerts team"));
    const token = await createApiKey(page, workspaceId, "alerts e2e");
    const marker = `ALERTSPEC${Date.now().toString(36)}`;

    // An admin adds the webhook in the settings: alerts and completed runs.
    await page.goto(`/w/${workspaceId}/settings/webhooks`);
    await page.getByLabel("Payload URL").fill(receiver.url);
    await page.getByLabel(/^Secret/).fill(SECRET);
    await page.getByRole("checkbox", { name: /Run completed/ }).check();
    await expect(page.getByRole("checkbox", { name: /Regression alert raised/ })).toBeChecked();
    await page.getByLabel("Description").fill(`e2e ${marker}`);
    await page.getByRole("button", { name: "Add webhook" }).click();
    const hook = page.getByRole("listitem", { name: `Webhook ${receiver.url}` });
    await expect(hook).toBeVisible();
    await expect(hook).toContainText("Enabled");

    // A suite of two cases whose check needs the fake model's default reply.
    const suite = await createFakeSuite(page.request, token, {
      agent: { name: "Alerts bot", system_prompt: `You help customers. (${marker})` },
      suite: { name: "Alerting suite" },
    });
    const suiteName = suite.name;
    for (const name of ["Greets politely", "Answers the question"]) {
      await apiPost(page.request, token, `/api/v1/suites/${suite.id}/test-cases`, {
        name,
        initial_message: `${name}?`,
        checks: [{ type: "contains_phrases", phrases: ["Fake reply"] }],
      });
    }

    await page.goto(`/w/${workspaceId}/suites`);
    const before = await openAlertCount(page);

    // First run passes (100 %); then the agent regresses and the second run fails every case (0 %).
    await runToCompletion(page.request, token, suite.id);
    await addFakeRules(page.request, [
      { match: { anyContains: marker, endpoint: "chat" }, reply: { content: "Sorry, I cannot help with that." } },
    ]);
    const failingRunId = await runToCompletion(page.request, token, suite.id);
    await addFakeRules(page.request, []);

    // The alert is raised when the run's "finished" event is handled, a moment after the run
    // completes: wait for it through the API, then the bell (rendered with the page) counts it.
    await expect
      .poll(
        async () => {
          const res = await page.request.get(`/api/v1/alerts?suite_id=${suite.id}&acknowledged=false`, {
            headers: { authorization: `Bearer ${token}` },
          });
          return ((await res.json()) as { data: unknown[] }).data.length;
        },
        { timeout: 30_000 },
      )
      .toBe(1);
    // The bell counts it; the suite page shows it.
    await page.goto(`/w/${workspaceId}/suites/${suite.id}`);
    await expect.poll(() => openAlertCount(page)).toBe(before + 1);
    const banner = page.getByTestId("suite-alert-banner");
    await expect(banner).toContainText("100% → 0% (−100.0 points)");
    await expect(banner).toContainText("2 flipped cases");

    // The bell leads to the open alerts; the alert lists the flipped cases, linked to their results.
    await page.getByTestId("alert-bell").click();
    await page.waitForURL(new RegExp(`/w/${workspaceId}/alerts$`));
    const alert = page.getByRole("article", { name: `Regression in ${suiteName}` });
    await expect(alert).toContainText("−100.0 points");
    await expectAccessible(page, "alerts page");
    const flipped = alert.getByRole("list", { name: "Flipped cases" });
    await expect(flipped.getByRole("link")).toHaveText(["Greets politely", "Answers the question"]);
    await expect(flipped.getByRole("link", { name: "Greets politely" })).toHaveAttribute(
      "href",
      new RegExp(`/w/${workspaceId}/runs/${failingRunId}/cases/[0-9a-f-]{36}$`),
    );

    // Acknowledged: who and when; it leaves the open list and the bell.
    await alert.getByRole("button", { name: /^Acknowledge/ }).click();
    await expect(alert).toHaveCount(0); // the open list no longer has it
    await page.goto(`/w/${workspaceId}/alerts?suite=${suite.id}&status=acknowledged`);
    const acknowledged = page.getByRole("article", { name: `Regression in ${suiteName}` });
    await expect(acknowledged.getByTestId("alert-acknowledged")).toContainText("Acknowledged by Ada Admin"); // the first-run admin (e2e/first-run.setup.ts)
    await expect(acknowledged.getByTestId("alert-acknowledged")).toContainText("UTC");
    expect(await openAlertCount(page)).toBe(before);
    await page.goto(`/w/${workspaceId}/suites/${suite.id}`);
    await expect(page.getByTestId("suite-alert-banner")).toHaveCount(0);

    // The receiver got the signed alert.raised event…
    await expect.poll(() => receiver.received.filter((r) => r.headers["x-assay-event"] === "alert.raised").length).toBeGreaterThan(0);
    const got = receiver.received.find((r) => r.headers["x-assay-event"] === "alert.raised")!;
    const timestamp = got.headers["x-assay-timestamp"] as string;
    expect(got.headers["x-assay-signature"]).toBe(`v1=${createHmac("sha256", SECRET).update(`${timestamp}.${got.body}`).digest("hex")}`);
    const payload = JSON.parse(got.body) as { event: string; text: string; alert: { run_id: string; drop_points: number } };
    expect(payload).toMatchObject({ event: "alert.raised", alert: { run_id: failingRunId, drop_points: 100 } });
    expect(payload.text).toContain(suiteName);

    // …and the delivery log shows its 2xx.
    await page.goto(`/w/${workspaceId}/settings/webhooks`);
    await page
      .getByRole("listitem", { name: `Webhook ${receiver.url}` })
      .getByRole("link", { name: "Deliveries" })
      .click();
    await page.waitForURL(/webhook=/);
    const row = page.getByTestId("delivery-row").filter({ hasText: "alert.raised" }).first();
    await expect(row).toContainText("succeeded");
    await expect(row.getByTestId("delivery-status-code")).toHaveText("200");
    await expect(row).toContainText("thanks");
    await expectAccessible(page, "webhooks settings with a delivery log");
  } finally {
    await receiver.close();
  }
});
