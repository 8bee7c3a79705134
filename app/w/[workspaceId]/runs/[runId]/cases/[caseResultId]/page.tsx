import { orNotFound, pageContext } from "@/lib/auth/context";
import { hasRole } from "@/lib/auth/roles";
import { loadCaseResultPage } from "@/lib/runs/loaders";
import { CaseView } from "@/components/runs/case-view";
import type { WorkspacePageProps } from "@/lib/pages/props";
import { answerComparison } from "@/lib/runs/answer-diff";
import { loadCaseReview } from "@/lib/review/suite-loaders";

export const metadata = { title: "Case result" };

export default async function CaseResultPage({ params, searchParams }: WorkspacePageProps<{ runId: string; caseResultId: string }>) {
  const { workspaceId, runId, caseResultId } = await params;
  const sp = await searchParams;
  const ctx = await pageContext(workspaceId);
  // The run page's list (filters, search, order) rides along in the query: the case view walks it.
  const page = await orNotFound(loadCaseResultPage(ctx, runId, caseResultId, sp));
  const [review, comparison] = await Promise.all([
    loadCaseReview(ctx, caseResultId, page.detail.human_verdict_by_id),
    answerComparison(
      ctx,
      { runId, testCaseId: page.detail.test_case_id, trial: page.detail.trial },
      typeof sp.against === "string" ? sp.against : null,
    ),
  ]);
  return (
    <CaseView
      workspaceId={workspaceId}
      initial={page.detail}
      suite={page.suite}
      runNumber={page.runNumber}
      trials={page.trials}
      history={page.history}
      review={review}
      nav={{ list: page.list, neighbours: page.neighbours }}
      answerComparison={comparison}
      canDraft={hasRole(ctx.role, "editor")}
    />
  );
}
