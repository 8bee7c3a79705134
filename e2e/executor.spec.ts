import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { apiPost, createApiKey, openWorkspace, unique, createFakeModelConfig } from "./fixtures";

/**
 * A live run whose executor is gone says so: with `npm start`'s executor process frozen
 * (SIGSTOP: alive but no longer beating), the run page shows "Waiting for the executor"; once it
 * goes on (SIGCONT) the notice disappears and the run completes. (The kill -9 and restart of the
 * executor is covered end to end by `npm run test:crash`.)
 */

function executorPid(): number {
  const record = JSON.parse(readFileSync(path.join(process.env.E2E_DATA_DIR!, "launcher-start.json"), "utf8")) as {
    children: { pid: number }[];
  };
  expect(record.children).toHaveLength(2);
  return record.children[1]!.pid;
}

test(
  "a live run says it is waiting for the executor while none is executing runs, and goes on when one is back",
  // Alone (the solo project in playwright.config.ts): freezing the executor stalls every spec's runs.
  { tag: "@solo" },
  async ({ page }) => {
    test.setTimeout(90_000);
    const workspaceId = await openWorkspace(page);
    const token = await createApiKey(page, workspaceId, "executor e2e");
    const config = await createFakeModelConfig(page.request, token, "Fake");
    const agent = await apiPost(page.request, token, "/api/v1/agents", {
      name: unique("Exec bot"),
      kind: "chat",
      model_config_id: config.id,
    });
    const suite = await apiPost(page.request, token, "/api/v1/suites", { agent_id: agent.id, name: unique("Executor") });
    for (const q of ["one", "two", "three"]) {
      await apiPost(page.request, token, `/api/v1/suites/${suite.id}/test-cases`, { name: q, initial_message: q });
    }

    const pid = executorPid();
    process.kill(pid, "SIGSTOP");
    try {
      const run = await apiPost(page.request, token, `/api/v1/suites/${suite.id}/runs`, {});
      await page.goto(`/w/${workspaceId}/runs/${run.id}`);
      const notice = page.getByTestId("executor-notice");
      await expect(notice).toContainText("Waiting for the executor: no process is executing runs", { timeout: 30_000 });
      const health = (await (await page.request.get("/api/health")).json()) as { executor: { state: string } };
      expect(health.executor.state).toBe("down");
    } finally {
      process.kill(pid, "SIGCONT");
    }
    await expect(page.getByTestId("run-done-count")).toHaveText("3 of 3 cases done", { timeout: 30_000 });
    await expect(page.getByTestId("executor-notice")).toHaveCount(0);
    expect(((await (await page.request.get("/api/health")).json()) as { executor: { state: string } }).executor.state).toBe("up");
  },
);
