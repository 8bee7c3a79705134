import { ListPage } from "@/components/ui/list-page";
import { suiteCrumbs } from "./suite-crumbs";

/**
 * The layout a suite's experiment lists share (A/B comparisons, matrix runs): the header with
 * the launch button for editors, the empty state worded for editors or viewers, then the list
 * with its cursor pagination under the suite's section.
 */
export function SuiteExperimentsPage({
  workspaceId,
  page,
  section,
  title,
  description,
  launch,
  empty,
  children,
}: {
  workspaceId: string;
  page: { suite: { id: string; name: string; deleted?: boolean }; canEdit: boolean; cursor?: string | null; nextCursor?: string | null };
  section: "comparisons" | "matrices";
  title: string;
  description: string;
  /** The button that starts a new experiment; shown to editors only. */
  launch: React.ReactNode;
  /** Set when the list has nothing at all: the empty state's title and its text for editors and for viewers. */
  empty: { title: string; editors: string; viewers: string } | null;
  children: React.ReactNode;
}) {
  return (
    <ListPage
      header={{
        title,
        description,
        breadcrumbs: suiteCrumbs(workspaceId, page.suite, section),
        actions: page.canEdit ? launch : undefined,
      }}
      empty={empty && !page.cursor ? { title: empty.title, description: page.canEdit ? empty.editors : empty.viewers } : null}
      pagination={{ base: `/w/${workspaceId}/suites/${page.suite.id}/${section}`, cursor: page.cursor, nextCursor: page.nextCursor }}
    >
      {children}
    </ListPage>
  );
}
