import { db } from "@/lib/db";
import type { WorkspaceContext } from "@/lib/auth/roles";

/** A chat agent (pointing at `baseUrl`) with a suite holding `count` active single-turn cases. */
export async function makeSuiteWithCases(
  ctx: WorkspaceContext,
  count: number,
  opts: { baseUrl?: string; tags?: (i: number) => string[]; caseData?: (i: number) => Record<string, unknown> } = {},
) {
  const modelConfig = await db.modelConfig.create({
    data: {
      workspaceId: ctx.workspaceId,
      name: `mc-${Math.random()}`,
      baseUrl: opts.baseUrl ?? "http://127.0.0.1:9/v1",
      model: "fake-model",
    },
  });
  const agent = await db.agent.create({
    data: {
      workspaceId: ctx.workspaceId,
      name: `agent-${Math.random()}`,
      kind: "chat",
      systemPrompt: "You are a helpful assistant.",
      modelConfigId: modelConfig.id,
      tools: [],
    },
  });
  const suite = await db.suite.create({
    data: { workspaceId: ctx.workspaceId, agentId: agent.id, name: `suite-${Math.random()}`, llmJudgeModelConfigId: modelConfig.id },
  });
  await db.testCase.createMany({
    data: Array.from({ length: count }, (_, i) => ({
      workspaceId: ctx.workspaceId,
      suiteId: suite.id,
      name: `case ${i}`,
      initialMessage: `question ${i}`,
      sortOrder: i,
      tags: opts.tags?.(i) ?? [],
      ...(opts.caseData?.(i) ?? {}),
    })),
  });
  return { modelConfig, agent, suite };
}

export async function waitFor<T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() - start > timeoutMs) throw new Error(`waitFor timed out; last value: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A run report read to the end (reports are streamed: lib/runs/report.ts). */
export async function reportText(ctx: WorkspaceContext, runId: string, format: "json" | "markdown" | "csv" | "junit"): Promise<string> {
  const { buildRunReport } = await import("@/lib/runs/report");
  return new Response((await buildRunReport(ctx, runId, format)).body).text();
}
