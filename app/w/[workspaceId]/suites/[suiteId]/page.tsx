import Link from "next/link";
import { orNotFound, pageContext } from "@/lib/auth/context";
import { loadSuitePage } from "@/lib/test-cases/loaders";
import { listHref } from "@/lib/test-cases/list-url";
import { EmptyState } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { PrevNextPagination } from "@/components/ui/pagination";
import { buttonClass } from "@/components/ui/button";
import { CaseFilters } from "@/components/test-cases/case-filters";
import { CaseStatusTabs } from "@/components/test-cases/case-status-tabs";
import { CaseTable } from "@/components/test-cases/case-table";
import { CaseNotice } from "@/components/test-cases/case-notice";
import { loadSuiteAlertBanner } from "@/lib/alerts/loaders";
import { SuiteAlertBanner } from "@/components/alerts/suite-alert-banner";
import { loadDemoSuiteGuide } from "@/lib/demo/loaders";
import { DemoSuiteGuide } from "@/components/demo/demo-suite-guide";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";
import { SuiteToolbar } from "@/components/suites/suite-toolbar";
import type { SuiteLaunch } from "@/components/runs/start-run-button";
import { ScheduleStatusLine } from "@/components/suites/schedule-status";
import type { WorkspacePageProps } from "@/lib/pages/props";
import { loadSuiteCalibration } from "@/lib/review/loaders";
import { CalibrationCard } from "@/components/review/calibration-card";

export default async function SuitePage({ params, searchParams }: WorkspacePageProps<{ suiteId: string }>) {
  const { workspaceId, suiteId } = await params;
  const sp = await searchParams;
  const ctx = await pageContext(workspaceId);
  const {
    suite,
    rows,
    counts,
    nextCursor,
    suiteTags,
    orderedIds,
    filters,
    page,
    filtered,
    canEdit,
    notice,
    deletedId,
    schedule,
    runVariables,
  } = await orNotFound(loadSuitePage(ctx, suiteId, sp));
  const base = `/w/${workspaceId}/suites/${suiteId}`;
  const launch: SuiteLaunch = { workspaceId, suiteId, tags: suiteTags, variables: runVariables, defaultTrials: suite.default_trials };
  const openAlert = await loadSuiteAlertBanner(ctx, suiteId);
  const demoGuide = await loadDemoSuiteGuide(ctx, suiteId);
  const calibration = await loadSuiteCalibration(ctx, suiteId);

  return (
    <div className="space-y-4">
      <Breadcrumbs items={[{ label: "Suites", href: `/w/${workspaceId}/suites` }, { label: suite.name }]} />
      <PageHeader
        title={suite.name}
        description={
          <>
            Agent: <span className="font-medium text-slate-800">{suite.agent_name}</span>
            {suite.description ? ` · ${suite.description}` : ""}
          </>
        }
        actions={<SuiteToolbar suite={launch} canEdit={canEdit} />}
      />
      <ScheduleStatusLine workspaceId={workspaceId} status={schedule} />
      <CaseNotice workspaceId={workspaceId} base={base} notice={notice} deletedId={deletedId} canEdit={canEdit} />
      {openAlert && <SuiteAlertBanner workspaceId={workspaceId} alert={openAlert.alert} open={openAlert.open} />}
      {demoGuide && <DemoSuiteGuide workspaceId={workspaceId} guide={demoGuide} />}
      <CalibrationCard workspaceId={workspaceId} suiteId={suiteId} calibration={calibration} />
      {counts.total === 0 && !filtered ? (
        <EmptyState
          title="No test cases yet"
          description={
            canEdit
              ? "Create the first test case in a form, or import a YAML or JSON file of cases."
              : "Editors can add test cases to this suite."
          }
          action={
            canEdit ? (
              <Link href={`${base}/cases/new`} className={buttonClass("primary")}>
                New test case
              </Link>
            ) : undefined
          }
        />
      ) : (
        <>
          <CaseFilters base={base} filters={filters} suiteTags={suiteTags} />
          <CaseStatusTabs base={base} filters={filters} counts={counts} />
          {rows.length === 0 ? (
            <EmptyState
              title="No test cases match these filters"
              action={
                <Link href={base} className={buttonClass("secondary")}>
                  Clear filters
                </Link>
              }
            />
          ) : (
            <CaseTable
              suite={launch}
              rows={rows}
              canEdit={canEdit}
              orderedIds={orderedIds}
              verdictSort={{
                href: listHref(base, { ...filters, sort: filters.sort ? undefined : "verdict" }),
                active: filters.sort === "verdict",
              }}
            />
          )}
          <PrevNextPagination
            prev={
              page.cursor
                ? { href: listHref(base, filters, { cursor: page.prev[page.prev.length - 1], prev: page.prev.slice(0, -1) }) }
                : null
            }
            next={nextCursor ? { href: listHref(base, filters, { cursor: nextCursor, prev: [...page.prev, page.cursor ?? ""] }) } : null}
          />
        </>
      )}
    </div>
  );
}
