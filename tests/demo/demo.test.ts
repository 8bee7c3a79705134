import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { seedDemo, DEMO_CASES } from "@/lib/demo/seed";
import { Executor } from "@/lib/runs/executor";
import { createCaseRunner } from "@/lib/runs/case-runner";
import { getRun, listCaseResults, startRun } from "@/lib/runs/service";
import { makeWorkspace } from "../helpers/factories";
import { waitFor } from "../runs/helpers";

let executor: Executor;
beforeAll(() => {
  executor = new Executor({ runner: createCaseRunner(), pollMs: 50 });
  executor.start();
});
afterAll(() => executor.stop(1000));

describe("demo suite on the built-in demo model", () => {
  it("seeds once and runs end to end without any API key or network", async () => {
    const { ctx } = await makeWorkspace("owner");
    const first = await seedDemo(ctx);
    expect(first.created).toBe(true);
    expect(await seedDemo(ctx)).toEqual({ suiteId: first.suiteId, created: false });
    expect(await db.testCase.count({ where: { suiteId: first.suiteId } })).toBe(DEMO_CASES.length);
    const config = await db.modelConfig.findFirstOrThrow({ where: { workspaceId: ctx.workspaceId } });
    expect(config.apiKeyEncrypted).toBeNull();

    const run = await startRun(ctx, first.suiteId, {}, "manual");
    const done = await waitFor(
      () => getRun(ctx, run.id),
      (r) => r.status === "completed",
      30_000,
    );
    expect(done.total_cases).toBe(DEMO_CASES.length);
    const { data } = await listCaseResults(ctx, run.id, { limit: 50 });
    const byName = Object.fromEntries(data.map((r) => [r.name, r]));
    // No case errors: every call was answered by the in-process demo model.
    expect(data.filter((r) => r.status === "error").map((r) => `${r.name}: ${r.error_message}`)).toEqual([]);
    expect(byName["Order status lookup"]).toMatchObject({ status: "passed", tool_call_results: { passed: true } });
    expect(byName["Refund policy question"]!.status).toBe("passed");
    expect(byName["Frustrated customer wants a refund"]!.turns).toBeGreaterThanOrEqual(1);
    expect(done.passed_cases).toBeGreaterThan(0);
  });
});
