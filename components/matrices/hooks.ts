import { useQuery } from "@tanstack/react-query";
import { apiGet, LIVE_INTERVAL_MS } from "@/lib/runs/hooks";
import type { MatrixDto, MatrixTableDto } from "@/lib/matrices/dto";
import { isActiveMatrix, matrixDataUrl } from "./format";

/**
 * Client data of the matrix page: the session JSON route /w/{workspaceId}/matrices/{id}/data
 * (signed-in user, same services as the API), polled every two seconds while the matrix is
 * pending or running.
 */

export type MatrixPageData = { matrix: MatrixDto; table: MatrixTableDto };

export const matrixKeys = {
  all: (w: string, id: string) => ["matrices", w, id] as const,
};

export function useMatrixData(workspaceId: string, id: string, initial: MatrixPageData) {
  return useQuery({
    queryKey: matrixKeys.all(workspaceId, id),
    queryFn: ({ signal }) => apiGet<MatrixPageData>(matrixDataUrl(workspaceId, id), signal),
    initialData: initial,
    staleTime: 0,
    refetchInterval: (q) => (isActiveMatrix(q.state.data?.matrix.status) ? 2 * LIVE_INTERVAL_MS : false),
  });
}
