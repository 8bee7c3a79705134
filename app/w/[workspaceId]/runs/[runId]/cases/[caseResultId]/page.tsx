import { orNotFound, pageContext } from "@/lib/auth/context";
import { loadCaseResultPage } from "@/lib/runs/loaders";
import { CaseView } from "@/components/runs/case-view";
import type { WorkspaceParams } from "@/lib/pages/props";

export const metadata = { title: "Case result" };

export default async function CaseResultPage({ params }: WorkspaceParams<{ runId: string; caseResultId: string }>) {
  const { workspaceId, runId, caseResultId } = await params;
  const ctx = await pageContext(workspaceId);
  const page = await orNotFound(loadCaseResultPage(ctx, runId, caseResultId));
  return (
    <CaseView
      workspaceId={workspaceId}
      initial={page.detail}
      suite={page.suite}
      runNumber={page.runNumber}
      trials={page.trials}
      history={page.history}
    />
  );
}
