import { orNotFound, pageContext } from "@/lib/auth/context";
import { loadCaseResultPage } from "@/lib/runs/loaders";
import { CaseView } from "@/components/runs/case-view";
import type { WorkspacePageProps } from "@/lib/pages/props";
import { answerComparison } from "@/lib/runs/answer-diff";
import { loadCaseReview } from "@/lib/review/suite-loaders";

export const metadata = { title: "Case result" };

export default async function CaseResultPage({ params, searchParams }: WorkspacePageProps<{ runId: string; caseResultId: string }>) {
  const { workspaceId, runId, caseResultId } = await params;
  const { against } = await searchParams;
  const ctx = await pageContext(workspaceId);
  const page = await orNotFound(loadCaseResultPage(ctx, runId, caseResultId));
  const [review, comparison] = await Promise.all([
    loadCaseReview(ctx, caseResultId, page.detail.human_verdict_by_id),
    answerComparison(
      ctx,
      { runId, testCaseId: page.detail.test_case_id, trial: page.detail.trial },
      typeof against === "string" ? against : null,
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
      answerComparison={comparison}
    />
  );
}
