import { db } from "@/lib/db";
import type { WorkspaceContext } from "@/lib/auth/roles";

const DAY = 24 * 3_600_000;

type RunStatus = "pending" | "running" | "completed" | "failed" | "cancelled";

/** A run `daysAgo` old (relative to `now`) with two case results and three LLM calls. */
export async function makeRun(
  ctx: WorkspaceContext,
  suiteId: string,
  now: Date,
  daysAgo: number,
  opts: { status?: RunStatus; comparisonId?: string; armIndex?: number } = {},
) {
  const createdAt = new Date(now.getTime() - daysAgo * DAY);
  const run = await db.run.create({
    data: {
      workspaceId: ctx.workspaceId,
      suiteId,
      triggeredBy: "manual",
      status: opts.status ?? "completed",
      agentSnapshot: {},
      createdAt,
      completedAt: opts.status === "pending" || opts.status === "running" ? null : createdAt,
      comparisonId: opts.comparisonId ?? null,
      armIndex: opts.armIndex ?? null,
      totalCases: 2,
    },
  });
  for (let i = 0; i < 2; i++) {
    const result = await db.caseResult.create({
      data: {
        workspaceId: ctx.workspaceId,
        runId: run.id,
        position: i,
        caseSnapshot: { name: `case ${i}` },
        name: `case ${i}`,
        status: "passed",
        actualResponse: "x".repeat(2000),
      },
    });
    if (i === 0) {
      await db.llmCall.createMany({
        data: [0, 1, 2].map(() => ({
          workspaceId: ctx.workspaceId,
          runId: run.id,
          caseResultId: result.id,
          purpose: "agent",
          request: { messages: [{ role: "user", content: "y".repeat(500) }] },
        })),
      });
    }
  }
  return run;
}

/** An executed comparison with two arm runs `daysAgo` old and one pair. */
export async function makeComparison(ctx: WorkspaceContext, suiteId: string, now: Date, daysAgo: number, starred: boolean) {
  const comparison = await db.comparison.create({
    data: { workspaceId: ctx.workspaceId, suiteId, name: `cmp-${Math.random()}`, status: "completed", starred },
  });
  const runs = [];
  for (const index of [0, 1]) {
    const run = await makeRun(ctx, suiteId, now, daysAgo, { comparisonId: comparison.id, armIndex: index });
    await db.comparisonArm.create({
      data: {
        workspaceId: ctx.workspaceId,
        comparisonId: comparison.id,
        index,
        role: index ? "variant" : "baseline",
        label: `arm ${index}`,
        runId: run.id,
      },
    });
    runs.push(run);
  }
  await db.comparisonPair.create({
    data: { workspaceId: ctx.workspaceId, comparisonId: comparison.id, index: 0, testCaseName: "case 0", question: "q" },
  });
  return { comparison, runs };
}
