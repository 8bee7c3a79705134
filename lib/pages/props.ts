/**
 * Props of the workspace pages under app/w/[workspaceId]: Next passes route params and the query
 * string as promises. `P` adds the page's own route params; `S` narrows the query string.
 */
export type SearchParams = Record<string, string | string[] | undefined>;

type NoParams = Record<never, string>;

export type WorkspaceParams<P extends Record<string, string> = NoParams> = {
  params: Promise<{ workspaceId: string } & P>;
};

export type WorkspacePageProps<P extends Record<string, string> = NoParams, S = SearchParams> = WorkspaceParams<P> & {
  searchParams: Promise<S>;
};
