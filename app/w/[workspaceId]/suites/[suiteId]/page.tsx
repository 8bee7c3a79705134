import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { pageContext } from "@/lib/auth/context";
import { hasRole } from "@/lib/auth/roles";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { getSuite } from "@/lib/suites/service";
import { listSuiteTags, listTestCaseIds, listTestCases, type TestCaseDto } from "@/lib/test-cases/service";
import { testCaseListQuery } from "@/lib/test-cases/schemas";
import { EmptyState, PageHeader } from "@/components/ui/card";
import { buttonClass } from "@/components/ui/button";
import { CaseFilters } from "@/components/test-cases/case-filters";
import { CaseStatusTabs } from "@/components/test-cases/case-status-tabs";
import { CaseTable } from "@/components/test-cases/case-table";
import { CaseNotice } from "@/components/test-cases/case-notice";
import { hasFilters, listHref, parseListParams, type ListFilters } from "@/components/test-cases/list-url";
import type { CaseRow } from "@/components/test-cases/types";
import { ImportDialog } from "@/components/suites/import-export-dialog";
import { ExportButtons } from "@/components/suites/import-export-buttons";
import { StartRunButton } from "@/components/runs/start-run-button";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";

const PAGE_SIZE = 50;
const dateFormat = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" });

function listQuery(f: ListFilters, cursor?: string, limit = PAGE_SIZE) {
  return testCaseListQuery.parse({ tag: f.tags, tag_match: f.match, status: f.status, difficulty: f.difficulty, q: f.q, cursor, limit });
}

function toRow(c: TestCaseDto): CaseRow {
  return {
    id: c.id,
    name: c.name,
    status: c.status,
    difficulty: c.difficulty,
    tags: c.tags,
    multi_turn: c.persona !== null,
    updated_at: c.updated_at,
    updated_label: dateFormat.format(new Date(c.updated_at)),
  };
}

export default async function SuitePage({
  params,
  searchParams,
}: {
  params: Promise<{ workspaceId: string; suiteId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { workspaceId, suiteId } = await params;
  const sp = await searchParams;
  const ctx = await pageContext(workspaceId);
  const canEdit = hasRole(ctx.role, "editor");
  const base = `/w/${workspaceId}/suites/${suiteId}`;
  const { filters, page } = parseListParams(sp);
  const filtered = hasFilters(filters);

  const [suite, list, suiteTags] = await Promise.all([
    getSuite(ctx, suiteId),
    listTestCases(ctx, suiteId, listQuery(filters, page.cursor)),
    listSuiteTags(ctx, suiteId),
  ]).catch((err: unknown) => {
    if (err instanceof NotFoundError) notFound();
    if (err instanceof ValidationError && page.cursor) redirect(listHref(base, filters));
    throw err;
  });
  const orderedIds =
    canEdit && !filtered ? (!page.cursor && !list.next_cursor ? list.data.map((c) => c.id) : await listTestCaseIds(ctx, suiteId)) : null;
  const rows = list.data.map(toRow);
  const notice = typeof sp.notice === "string" ? sp.notice : undefined;
  const deleted = typeof sp.deleted === "string" ? sp.deleted : undefined;

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
        actions={
          <>
            <Link href={`${base}/runs`} className={buttonClass("secondary")}>
              Runs &amp; trends
            </Link>
            <Link href={`${base}/settings`} className={buttonClass("secondary")}>
              Settings
            </Link>
            <ExportButtons workspaceId={workspaceId} suiteId={suiteId} />
            {canEdit && <ImportDialog workspaceId={workspaceId} suiteId={suiteId} />}
            {canEdit && (
              <Link href={`${base}/cases/new`} className={buttonClass("secondary")}>
                New test case
              </Link>
            )}
            {canEdit && <StartRunButton workspaceId={workspaceId} suiteId={suiteId} tags={suiteTags} />}
          </>
        }
      />
      <CaseNotice workspaceId={workspaceId} base={base} notice={notice} deletedId={deleted} canEdit={canEdit} />
      {list.counts.total === 0 && !filtered ? (
        <EmptyState
          title="No test cases yet"
          description={canEdit ? "Create the first test case in a form, or import a YAML or JSON file of cases." : "Editors can add test cases to this suite."}
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
          <CaseStatusTabs base={base} filters={filters} counts={list.counts} />
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
            <CaseTable workspaceId={workspaceId} suiteId={suiteId} rows={rows} canEdit={canEdit} suiteTags={suiteTags} orderedIds={orderedIds} />
          )}
          {(page.cursor || list.next_cursor) && (
            <nav aria-label="Pagination" className="flex items-center justify-between text-sm">
              {page.cursor ? (
                <Link
                  href={listHref(base, filters, { cursor: page.prev[page.prev.length - 1], prev: page.prev.slice(0, -1) })}
                  className={buttonClass("secondary", "sm")}
                >
                  ← Previous page
                </Link>
              ) : (
                <span />
              )}
              {list.next_cursor && (
                <Link
                  href={listHref(base, filters, { cursor: list.next_cursor, prev: [...page.prev, page.cursor ?? ""] })}
                  className={buttonClass("secondary", "sm")}
                >
                  Next page →
                </Link>
              )}
            </nav>
          )}
        </>
      )}
    </div>
  );
}
