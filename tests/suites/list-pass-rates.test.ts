import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { listSuites, SPARKLINE_RUNS } from "@/lib/suites/service";
import { withWorkspaceScope } from "@/lib/tenant-scope";
import { installQueryCounter } from "../../scripts/bench/query-counter";
import { makeWorkspace, makeAgent, runRowData } from "../helpers/factories";

// The suites list shows each suite's last pass rate and a sparkline of its last
// completed runs, from the same statement as the case counts (one statement for the whole page).

const statements = installQueryCounter();

type RunStatus = "pending" | "running" | "completed" | "failed" | "cancelled";
const base = Date.parse("2026-03-01T10:00:00.000Z");

async function makeSuite(ctx: WorkspaceContext, agentId: string, name: string) {
  return db.suite.create({ data: { workspaceId: ctx.workspaceId, agentId, name } });
}

/** A run with only its counters (the list reads nothing else). */
async function makeRun(
  ctx: WorkspaceContext,
  suiteId: string,
  minute: number,
  counts: { passed?: number; failed?: number; errors?: number; skipped?: number },
  status: RunStatus = "completed",
) {
  await db.run.create({
    data: { ...runRowData(ctx, suiteId, status, { ...counts, error: counts.errors }), createdAt: new Date(base + minute * 60_000) },
  });
}

describe("listSuites: last pass rate and sparkline", () => {
  it("returns none for a suite without runs, one point for one run, the last 20 completed runs oldest → newest", async () => {
    const { ctx, workspace } = await makeWorkspace("viewer");
    const agent = await makeAgent(workspace.id);
    const empty = await makeSuite(ctx, agent.id, "a empty");
    const single = await makeSuite(ctx, agent.id, "b single");
    const many = await makeSuite(ctx, agent.id, "c many");

    await makeRun(ctx, single.id, 1, { passed: 3, failed: 1, skipped: 2 }); // skipped cases do not count: 75 %
    // Runs that did not complete are left out, and so is a completed run that executed no case.
    await makeRun(ctx, single.id, 2, { passed: 1 }, "running");
    await makeRun(ctx, single.id, 3, { failed: 2 }, "cancelled");
    await makeRun(ctx, single.id, 4, { failed: 2 }, "failed");
    await makeRun(ctx, single.id, 5, {}, "pending");
    await makeRun(ctx, single.id, 6, { skipped: 4 });
    // 25 completed runs inserted newest first (order comes from createdAt): run i passes i of 25.
    for (let i = 25; i >= 1; i--) await makeRun(ctx, many.id, i, { passed: i, failed: 25 - i });
    await makeRun(ctx, many.id, 30, { passed: 1, errors: 2 }, "cancelled");
    await makeRun(ctx, many.id, 31, { passed: 1 }, "running");

    const { data } = await listSuites(ctx);
    const byId = new Map(data.map((s) => [s.id, s]));
    expect(byId.get(empty.id)).toMatchObject({ last_pass_rate: null, recent_pass_rates: [] });
    expect(byId.get(single.id)).toMatchObject({ last_pass_rate: 75, recent_pass_rates: [75] });
    const rates = Array.from({ length: SPARKLINE_RUNS }, (_, k) => Math.round(((k + 6) / 25) * 1000) / 10);
    expect(byId.get(many.id)).toMatchObject({ last_pass_rate: 100, recent_pass_rates: rates });
    expect(rates[0]).toBe(24); // runs 6..25: the oldest five fell out of the window
  });

  it("keeps pass rates per suite and per workspace", async () => {
    const a = await makeWorkspace("viewer");
    const b = await makeWorkspace("viewer");
    const agentA = await makeAgent(a.workspace.id);
    const agentB = await makeAgent(b.workspace.id);
    const suiteA = await makeSuite(a.ctx, agentA.id, "shared name");
    const otherA = await makeSuite(a.ctx, agentA.id, "other");
    const suiteB = await makeSuite(b.ctx, agentB.id, "shared name");
    await makeRun(a.ctx, suiteA.id, 1, { passed: 1, failed: 1 });
    await makeRun(a.ctx, otherA.id, 1, { passed: 2, errors: 2, failed: 4 });
    await makeRun(b.ctx, suiteB.id, 2, { passed: 3 });

    const listA = await listSuites(a.ctx);
    expect(listA.data.map((s) => [s.name, s.recent_pass_rates])).toEqual([
      ["other", [25]],
      ["shared name", [50]],
    ]);
    const listB = await listSuites(b.ctx);
    expect(listB.data.map((s) => [s.name, s.last_pass_rate])).toEqual([["shared name", 100]]);
  });

  it("reads case counts, last pass rates and sparklines of a whole page in one statement", async () => {
    const { ctx, workspace } = await makeWorkspace("viewer");
    const agent = await makeAgent(workspace.id);
    for (let s = 0; s < 12; s++) {
      const suite = await makeSuite(ctx, agent.id, `suite ${String(s).padStart(2, "0")}`);
      for (let r = 0; r < s; r++) await makeRun(ctx, suite.id, r, { passed: r, failed: 1 });
    }
    const count = async (fn: () => Promise<unknown>) => {
      const before = statements().statements;
      await fn();
      return statements().statements - before;
    };
    // The suites, their agents' names (Prisma reads the relation apart), then one statement for
    // everything per suite: three, whether the page holds 3 suites or 12.
    expect(await count(() => listSuites(ctx))).toBe(3);
    expect(await count(() => listSuites(ctx, { limit: 3 }))).toBe(3);
    const { data } = await listSuites(ctx);
    expect(data).toHaveLength(12);
    expect(data[11]!.recent_pass_rates).toHaveLength(11);

    // In a page's row-level scope each statement runs in a transaction that declares the
    // workspace (BEGIN, set_config, statement, COMMIT): still three statements of the list's own.
    const scoped = await count(() => withWorkspaceScope(ctx.workspaceId, () => listSuites(ctx)));
    expect(scoped).toBeLessThanOrEqual(3 * 4);
    const again = await withWorkspaceScope(ctx.workspaceId, () => listSuites(ctx));
    expect(again.data.map((s) => s.recent_pass_rates)).toEqual(data.map((s) => s.recent_pass_rates));
  });
});
