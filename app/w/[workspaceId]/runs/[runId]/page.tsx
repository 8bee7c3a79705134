import { headers } from "next/headers";
import { orNotFound, pageContext } from "@/lib/auth/context";
import { acceptedAgeMs } from "@/lib/runs/live-answers";
import { loadRunPage } from "@/lib/runs/loaders";
import { RunView } from "@/components/runs/run-view";
import { loadDemoRunGuide } from "@/lib/demo/loaders";
import { DemoRunGuide } from "@/components/demo/demo-run-guide";
import type { WorkspacePageProps } from "@/lib/pages/props";
import { loadJudgeStatus } from "@/lib/review/suite-loaders";

export const metadata = { title: "Run" };

export default async function RunPage({ params, searchParams }: WorkspacePageProps<{ runId: string }>) {
  const { workspaceId, runId } = await params;
  const sp = await searchParams;
  const ctx = await pageContext(workspaceId);
  // A live run's page is shared by its viewers for a moment, unless the browser asks afresh (a reload).
  const page = await orNotFound(loadRunPage(ctx, runId, sp, acceptedAgeMs(await headers())));
  const [demoGuide, judgeStatus] = await Promise.all([loadDemoRunGuide(ctx, runId), loadJudgeStatus(ctx, page.suite.id)]);
  return (
    <RunView
      workspaceId={workspaceId}
      {...page}
      judgeStatus={judgeStatus}
      guide={demoGuide && <DemoRunGuide workspaceId={workspaceId} initialRun={page.run} guide={demoGuide} />}
    />
  );
}
