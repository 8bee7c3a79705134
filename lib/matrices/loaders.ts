import "server-only";
import { redirect } from "next/navigation";
import { hasRole, type WorkspaceContext } from "@/lib/auth/roles";
import { ValidationError } from "@/lib/errors";
import { getSuite, getSuiteInfo } from "@/lib/suites/service";
import { scopedLoader } from "@/lib/tenant-scope";
import { getMatrix, listMatrices, matrixTable } from "./service";

/** Page loaders of the matrix pages: one call per page, scoped by the member's workspace. */

type SearchParams = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** Rows per page of the suite's matrix list. */
export const MATRIX_PAGE_SIZE = 20;

/** The matrix page: the matrix with its combination statistics, the case × combination table and the suite. */
async function loadMatrixPageUnscoped(ctx: WorkspaceContext, matrixId: string) {
  const [matrix, table] = await Promise.all([getMatrix(ctx, matrixId), matrixTable(ctx, matrixId)]);
  const suite = await getSuiteInfo(ctx, matrix.suite_id);
  return { matrix, table, suite, canEdit: hasRole(ctx.role, "editor") };
}

/** The polling payload of the matrix page (same data as the page, without the suite). */
async function loadMatrixDataUnscoped(ctx: WorkspaceContext, matrixId: string) {
  const [matrix, table] = await Promise.all([getMatrix(ctx, matrixId), matrixTable(ctx, matrixId)]);
  return { matrix, table };
}

/** A suite's matrices, newest first (`?cursor=`); a stale or hand-edited cursor goes back to the first page. */
async function loadSuiteMatricesPageUnscoped(ctx: WorkspaceContext, suiteId: string, searchParams: SearchParams) {
  const cursor = one(searchParams.cursor);
  const [suite, page] = await Promise.all([getSuite(ctx, suiteId), listMatrices(ctx, suiteId, { cursor, limit: MATRIX_PAGE_SIZE })]).catch(
    (err: unknown) => {
      if (err instanceof ValidationError && cursor) redirect(`/w/${ctx.workspaceId}/suites/${suiteId}/matrices`);
      throw err;
    },
  );
  return { suite, matrices: page.data, nextCursor: page.next_cursor, cursor: cursor ?? null, canEdit: hasRole(ctx.role, "editor") };
}

// Each page loader runs its queries in the workspace's row-level scope (lib/tenant-scope.ts).
export const loadMatrixPage = scopedLoader(loadMatrixPageUnscoped);
export const loadMatrixData = scopedLoader(loadMatrixDataUnscoped);
export const loadSuiteMatricesPage = scopedLoader(loadSuiteMatricesPageUnscoped);
