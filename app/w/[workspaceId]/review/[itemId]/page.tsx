import { orNotFound, pageContext } from "@/lib/auth/context";
import { hasRole } from "@/lib/auth/roles";
import { loadReviewItem, loadReviewMemberOptions } from "@/lib/review/loaders";
import { PageHeader } from "@/components/ui/page-header";
import { Section } from "@/components/ui/card";
import { pageHref } from "@/components/ui/pagination";
import { Transcript, authorshipOf, type TranscriptEntry } from "@/components/runs/transcript";
import { JsonBlock } from "@/components/runs/json-block";
import { LabelPanel } from "@/components/review/label-panel";
import { ResolveForm } from "@/components/review/resolve-form";
import { AssigneeSelect } from "@/components/review/assignee-select";
import { itemHref, queueParams, reviewBase, ReviewStatusBadge, SOURCE_LABELS } from "@/components/review/format";
import type { WorkspacePageProps } from "@/lib/pages/props";

export const metadata = { title: "Review item" };

/** The case's expected tool calls, as its snapshot has them (none: nothing to show). */
function ExpectedToolCalls({ snapshot }: { snapshot: Record<string, unknown> }) {
  const calls = snapshot.expected_tool_calls;
  if (!Array.isArray(calls) || calls.length === 0) return null;
  return (
    <Section title="Expected tool calls">
      <JsonBlock value={calls} />
    </Section>
  );
}

export default async function ReviewItemPage({ params, searchParams }: WorkspacePageProps<{ itemId: string }>) {
  const { workspaceId, itemId } = await params;
  const sp = await searchParams;
  const ctx = await pageContext(workspaceId);
  const [{ item, around, filters }, members] = await Promise.all([
    orNotFound(loadReviewItem(ctx, itemId, sp)),
    loadReviewMemberOptions(ctx),
  ]);
  const canLabel = hasRole(ctx.role, "editor");
  const snapshot = (item.case.test_case ?? {}) as Record<string, unknown>;
  const queueHref = pageHref(reviewBase(workspaceId), queueParams(filters));
  return (
    <div className="space-y-4">
      <PageHeader
        title={item.case_name}
        breadcrumbs={[{ label: "Review", href: queueHref }, { label: item.case_name }]}
        description={
          <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <ReviewStatusBadge status={item.status} />
            <span>{item.suite_name}</span>·
            <a href={`/w/${workspaceId}/runs/${item.run_id}`} className="text-indigo-700 hover:underline">
              Run #{item.run_number}
            </a>
            · Trial {item.trial + 1} · {SOURCE_LABELS[item.source] ?? item.source} · {item.label_count}/{item.required_reviews} labels
          </span>
        }
      />
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,28rem)]">
        <div className="min-w-0 space-y-4">
          <Section title="Transcript">
            <Transcript messages={item.case.transcript as TranscriptEntry[]} authorship={authorshipOf(snapshot)} />
            {item.case.response_truncated && <p className="mt-2 text-xs text-slate-500">The response was truncated when stored.</p>}
          </Section>
          <ExpectedToolCalls snapshot={snapshot} />
        </div>
        <div className="min-w-0 lg:sticky lg:top-4 lg:self-start">
          <LabelPanel
            key={item.id}
            workspaceId={workspaceId}
            item={item}
            userId={ctx.userId}
            canLabel={canLabel}
            previousHref={around.previous ? itemHref(workspaceId, around.previous, filters) : null}
            nextHref={around.next ? itemHref(workspaceId, around.next, filters) : null}
            progress={around.position > 0 ? `${around.position} of ${around.total}` : null}
          >
            {hasRole(ctx.role, "admin") && item.status === "conflict" && <ResolveForm workspaceId={workspaceId} itemId={item.id} />}
            {canLabel && item.status === "open" && (
              <AssigneeSelect workspaceId={workspaceId} itemId={item.id} assigneeId={item.assignee_id} members={members} />
            )}
          </LabelPanel>
        </div>
      </div>
    </div>
  );
}
