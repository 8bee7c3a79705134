// The comparison routes as a test calls them (real handlers through tests/helpers/api.ts), and
// the wait for a comparison to finish, shared by the comparison API tests.
import { expect } from "vitest";
import * as suiteComparisons from "@/app/api/v1/suites/[id]/comparisons/route";
import * as comparisonImport from "@/app/api/v1/suites/[id]/comparisons/import/route";
import * as comparisonRoute from "@/app/api/v1/comparisons/[id]/route";
import * as pairsRoute from "@/app/api/v1/comparisons/[id]/pairs/route";
import * as cancelRoute from "@/app/api/v1/comparisons/[id]/cancel/route";
import * as reportRoute from "@/app/api/v1/comparisons/[id]/report/route";
import { call } from "../helpers/api";
import { waitFor } from "../helpers/factories";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are arbitrary JSON; asserting on them is the test
export type Json = any;
export const FINISHED = ["completed", "cancelled", "failed"];

export const comparisonsApi = {
  create: (token: string, suiteId: string, body: unknown) =>
    call(suiteComparisons.POST, { method: "POST", token, body, params: { id: suiteId }, url: `/api/v1/suites/${suiteId}/comparisons` }),
  list: (token: string, suiteId: string, query = "") =>
    call(suiteComparisons.GET, { token, params: { id: suiteId }, url: `/api/v1/suites/${suiteId}/comparisons${query}` }),
  import: (token: string, suiteId: string, body: unknown) =>
    call(comparisonImport.POST, {
      method: "POST",
      token,
      body,
      params: { id: suiteId },
      url: `/api/v1/suites/${suiteId}/comparisons/import`,
    }),
  get: (token: string, id: string) => call(comparisonRoute.GET, { token, params: { id }, url: `/api/v1/comparisons/${id}` }),
  pairs: (token: string, id: string, query = "") =>
    call(pairsRoute.GET, { token, params: { id }, url: `/api/v1/comparisons/${id}/pairs${query}` }),
  cancel: (token: string, id: string) =>
    call(cancelRoute.POST, { method: "POST", token, params: { id }, url: `/api/v1/comparisons/${id}/cancel` }),
  report: (token: string, id: string, query = "") =>
    call(reportRoute.GET, { token, params: { id }, url: `/api/v1/comparisons/${id}/report${query}` }),
};

/** The comparison once it completed, was cancelled or failed (its GET body). */
export async function untilFinished(token: string, id: string, timeoutMs = 20_000): Promise<Json> {
  const res = await waitFor(
    () => comparisonsApi.get(token, id),
    (r) => r.status !== 200 || FINISHED.includes(r.json.status),
    timeoutMs,
  );
  expect(res.status).toBe(200);
  return res.json;
}
