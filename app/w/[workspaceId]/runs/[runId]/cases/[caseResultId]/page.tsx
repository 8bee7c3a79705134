import { notFound } from "next/navigation";
import { pageContext } from "@/lib/auth/context";
import { getCaseResult, getRun } from "@/lib/runs/service";
import { CaseView } from "@/components/runs/case-view";
import { orNotFound, suiteInfo } from "../../load";

export const metadata = { title: "Case result" };

export default async function CaseResultPage({ params }: { params: Promise<{ workspaceId: string; runId: string; caseResultId: string }> }) {
  const { workspaceId, runId, caseResultId } = await params;
  const ctx = await pageContext(workspaceId);
  const [run, detail] = await Promise.all([orNotFound(getRun(ctx, runId)), orNotFound(getCaseResult(ctx, caseResultId))]);
  if (detail.run_id !== run.id) notFound();
  const suite = await suiteInfo(ctx, run.suite_id);
  return <CaseView workspaceId={workspaceId} initial={detail} suite={suite} />;
}
