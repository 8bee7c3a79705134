import Link from "next/link";
import { pageContext } from "@/lib/auth/context";
import { loadSuiteTrashPage } from "@/lib/suites/loaders";
import { buttonClass } from "@/components/ui/button";
import { ListPage } from "@/components/ui/list-page";
import { TrashTable } from "@/components/suites/trash-table";
import type { WorkspacePageProps } from "@/lib/pages/props";

export default async function SuiteTrashPage({ params, searchParams }: WorkspacePageProps) {
  const { workspaceId } = await params;
  const sp = await searchParams;
  const ctx = await pageContext(workspaceId);
  const data = await loadSuiteTrashPage(ctx, sp);
  const base = `/w/${workspaceId}/suites`;
  return (
    <ListPage
      header={{
        title: "Trash",
        description: "Deleted suites keep their test cases. Restore a suite to use it again.",
        actions: (
          <Link href={base} className={buttonClass("secondary")}>
            Back to suites
          </Link>
        ),
      }}
      empty={data.suites.length === 0 ? { title: "The trash is empty" } : null}
      pagination={{ base: `${base}/trash`, cursor: data.cursor, nextCursor: data.nextCursor }}
    >
      <TrashTable workspaceId={workspaceId} suites={data.suites} canEdit={data.canEdit} />
    </ListPage>
  );
}
