/**
 * Page data for the demo's guide notes (./guide.ts): on a run of the demo suite, and on the demo
 * suite's page. Null for anything that is not the demo (another suite, a comparison arm or matrix
 * run, a deleted suite), or when the agent's prompt did not change between the runs concerned.
 */
import "server-only";
import { db } from "@/lib/db";
import { hasRole, type WorkspaceContext } from "@/lib/auth/roles";
import { scopedLoader } from "@/lib/tenant-scope";
import { isUuid } from "@/lib/ids";
import { changed, promptChange, type DemoGuide } from "./guide";
import { DEMO_AGENT_NAME, DEMO_SUITE_NAME } from "./seed";

const demoSuite = (ctx: WorkspaceContext) => ({
  workspaceId: ctx.workspaceId,
  name: DEMO_SUITE_NAME,
  deletedAt: null,
  agent: { name: DEMO_AGENT_NAME },
});
/** Ordinary runs of the suite (comparison arms and matrix runs are experiments, not its history). */
const plainRuns = (ctx: WorkspaceContext, suiteId: string) => ({
  workspaceId: ctx.workspaceId,
  suiteId,
  comparisonId: null,
  matrixId: null,
});

function snapshotPrompt(snapshot: unknown): string {
  const prompt = (snapshot as { system_prompt?: unknown } | null)?.system_prompt;
  return typeof prompt === "string" ? prompt : "";
}

async function loadDemoRunGuideUnscoped(ctx: WorkspaceContext, runId: string): Promise<DemoGuide | null> {
  if (!isUuid(runId)) return null;
  const run = await db.run.findFirst({
    where: { id: runId, workspaceId: ctx.workspaceId, comparisonId: null, matrixId: null, suite: demoSuite(ctx) },
    select: { suiteId: true, createdAt: true, agentSnapshot: true, suite: { select: { agent: { select: { systemPrompt: true } } } } },
  });
  if (!run) return null;
  const canRun = hasRole(ctx.role, "editor");
  const used = snapshotPrompt(run.agentSnapshot);
  const edit = promptChange(used, run.suite.agent.systemPrompt ?? "");
  if (changed(edit)) {
    const next = await db.run.findFirst({
      where: { ...plainRuns(ctx, run.suiteId), createdAt: { gt: run.createdAt } },
      orderBy: { createdAt: "asc" },
      select: { id: true },
    });
    return { step: "before-edit", suiteId: run.suiteId, change: edit, nextRunId: next?.id ?? null, previousRunId: null, canRun };
  }
  const previous = await db.run.findFirst({
    where: { ...plainRuns(ctx, run.suiteId), createdAt: { lt: run.createdAt } },
    orderBy: { createdAt: "desc" },
    select: { id: true, agentSnapshot: true },
  });
  const since = previous ? promptChange(snapshotPrompt(previous.agentSnapshot), used) : null;
  if (!previous || !since || !changed(since)) return null;
  return { step: "after-edit", suiteId: run.suiteId, change: since, nextRunId: null, previousRunId: previous.id, canRun };
}

/** On the demo suite's page: the note to run again, when the prompt changed after the latest run. */
async function loadDemoSuiteGuideUnscoped(ctx: WorkspaceContext, suiteId: string): Promise<DemoGuide | null> {
  if (!isUuid(suiteId)) return null;
  const suite = await db.suite.findFirst({
    where: { id: suiteId, ...demoSuite(ctx) },
    select: { agent: { select: { systemPrompt: true } } },
  });
  if (!suite) return null;
  const latest = await db.run.findFirst({
    where: plainRuns(ctx, suiteId),
    orderBy: { createdAt: "desc" },
    select: { agentSnapshot: true },
  });
  if (!latest) return null;
  const edit = promptChange(snapshotPrompt(latest.agentSnapshot), suite.agent.systemPrompt ?? "");
  if (!changed(edit)) return null;
  return { step: "before-edit", suiteId, change: edit, nextRunId: null, previousRunId: null, canRun: hasRole(ctx.role, "editor") };
}

export const loadDemoRunGuide = scopedLoader(loadDemoRunGuideUnscoped);
export const loadDemoSuiteGuide = scopedLoader(loadDemoSuiteGuideUnscoped);
