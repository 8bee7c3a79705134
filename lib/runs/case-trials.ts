/**
 * The trials of one case in its run, for the case view's trial selector: every result of the
 * same run with the same test case (or, once the case was deleted, the same snapshot) and the
 * same arm, in trial order. One statement on a `scopedPoolRead` client, scoped by `workspaceId`.
 */
import "server-only";
import type pg from "pg";
import type { WorkspaceContext } from "@/lib/auth/roles";
import type { CaseResultStatus } from "./schemas";

export type CaseTrial = { id: string; trial: number; status: CaseResultStatus };

/** The trials of the case result `id`'s case in its run (the result itself among them). */
export async function caseTrialsOn(client: pg.PoolClient, ctx: WorkspaceContext, id: string): Promise<CaseTrial[]> {
  const { rows } = await client.query<CaseTrial>({
    name: "assay_case_trials",
    text: `
      SELECT s."id", s."repetition" AS trial, s."status"::text AS status
      FROM "CaseResult" c
      JOIN "CaseResult" s ON s."runId" = c."runId" AND s."workspaceId" = c."workspaceId" AND s."variant" = c."variant"
        AND coalesce(s."testCaseId"::text, s."caseSnapshot"->>'id') = coalesce(c."testCaseId"::text, c."caseSnapshot"->>'id')
      WHERE c."id" = $1::uuid AND c."workspaceId" = $2::uuid
      ORDER BY s."repetition"`,
    values: [id, ctx.workspaceId],
  });
  return rows;
}
