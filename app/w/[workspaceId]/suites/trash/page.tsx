import Link from "next/link";
import { pageContext } from "@/lib/auth/context";
import { loadSuitesPage } from "@/lib/suites/loaders";
import { buttonClass } from "@/components/ui/button";
import { EmptyState, PageHeader } from "@/components/ui/card";
import { TrashTable } from "@/components/suites/trash-table";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function SuiteTrashPage({ params, searchParams }: { params: Promise<{ workspaceId: string }>; searchParams: SearchParams }) {
  const { workspaceId } = await params;
  const { cursor } = await searchParams;
  const ctx = await pageContext(workspaceId);
  const data = await loadSuitesPage(ctx, { deleted: true, cursor: typeof cursor === "string" ? cursor : undefined });
  const base = `/w/${workspaceId}/suites`;
  return (
    <div>
      <PageHeader
        title="Trash"
        description="Deleted suites keep their test cases. Restore a suite to use it again."
        actions={
          <Link href={base} className={buttonClass("secondary")}>
            Back to suites
          </Link>
        }
      />
      {data.suites.length === 0 ? (
        <EmptyState title="The trash is empty" />
      ) : (
        <TrashTable workspaceId={workspaceId} suites={data.suites} canEdit={data.canEdit} />
      )}
      {data.nextCursor && (
        <nav aria-label="Pagination" className="mt-4 flex justify-end">
          <Link href={`${base}/trash?cursor=${data.nextCursor}`} className={buttonClass("secondary", "sm")}>
            Next page
          </Link>
        </nav>
      )}
    </div>
  );
}
