import { EmptyState } from "./card";
import { PageHeader, type PageHeaderProps } from "./page-header";
import { Pagination, type PaginationProps } from "./pagination";

type EmptyStateProps = React.ComponentProps<typeof EmptyState>;

/**
 * The layout of a list page: header, then either the empty state or the list (table, filters…)
 * followed by its cursor pagination.
 */
export function ListPage({
  header,
  empty,
  pagination,
  children,
}: {
  header: PageHeaderProps;
  /** Shown instead of the list when set (the list has nothing to show at all). */
  empty?: EmptyStateProps | null;
  pagination?: PaginationProps;
  children: React.ReactNode;
}) {
  return (
    <div>
      <PageHeader {...header} />
      {empty ? (
        <EmptyState {...empty} />
      ) : (
        <div className="space-y-4">
          {children}
          {pagination && <Pagination {...pagination} />}
        </div>
      )}
    </div>
  );
}
