/**
 * The changes of a run since the suite's previous completed ordinary run: which cases flipped
 * verdict (pass→fail, fail→pass) and why, for the run page, the API and the report.
 */
import "server-only";
import { LRUCache } from "lru-cache";
import { NotFoundError } from "@/lib/errors";
import { type WorkspaceContext } from "@/lib/auth/roles";
import { isUuid } from "@/lib/ids";
import { causeOf, hashChanged } from "@/lib/runs/changes";
import { type RunChanges } from "@/lib/runs/dto";
import { scopedPoolRead } from "@/lib/runs/case-results";
import type pg from "pg";

/**
 * The changes of a run stay right while its status, counters and previous run are unchanged: a
 * run's verdicts change only together with its counters (lib/runs/result-writer.ts updates both
 * in one statement; finalize and cancel change the status). So the last answer is kept per run
 * (the 500 most recently asked) under that key, and a repeated ask about a finished run costs
 * one indexed read. A live run's counters move with nearly every case, so its key rarely
 * matches: the run page's many viewers share answers through ./live-answers.ts instead.
 */
const CHANGES_CACHE_RUNS = 500;
const changesCache = new LRUCache<string, { key: string; value: RunChanges }>({ max: CHANGES_CACHE_RUNS });

type VerdictChangeRow = { id: string; test_case_id: string; name: string; before: string; after: string; case_changed: boolean };
type ChangesHead = {
  id: string;
  status: string;
  done: number;
  agent_hash: string | null;
  eval_hash: string | null;
  previous_id: string | null;
  previous_number: number | null;
  previous_agent_hash: string | null;
  previous_eval_hash: string | null;
};

/**
 * Cases whose verdict changed since the suite's previous completed ordinary run (experiments are
 * not the suite's history, lib/runs/history.ts):
 * pass→fail (regressions) and fail→pass (fixes), matched by test case id. One SQL query.
 */
export async function changesSincePreviousRun(ctx: WorkspaceContext, runId: string): Promise<RunChanges> {
  if (!isUuid(runId)) throw new NotFoundError("Run");
  return scopedPoolRead(ctx.workspaceId, (client) => changesOn(client, ctx, runId));
}

/** changesSincePreviousRun on a client inside `scopedPoolRead` (the run page's loader reads several things in one). */
export async function changesOn(client: pg.PoolClient, ctx: WorkspaceContext, runId: string): Promise<RunChanges> {
  return (await changesAndRunStatusOn(client, ctx, runId)).changes;
}

/** changesOn with the run's status, read in the same statement (whether the answer may be shared, ./live-reads.ts). */
export async function changesAndRunStatusOn(
  client: pg.PoolClient,
  ctx: WorkspaceContext,
  runId: string,
): Promise<{ changes: RunChanges; runStatus: string }> {
  if (!isUuid(runId)) throw new NotFoundError("Run");
  const [run] = (
    await client.query<ChangesHead>({
      name: "assay_changes_head",
      text: `
        SELECT r."id", r."status"::text AS status,
               (r."passedCases" + r."failedCases" + r."errorCases" + r."skippedCases")::int AS done,
               r."agentHash" AS agent_hash, r."evalHash" AS eval_hash,
               p."id" AS previous_id, p."number" AS previous_number,
               p."agentHash" AS previous_agent_hash, p."evalHash" AS previous_eval_hash
        FROM "Run" r
        LEFT JOIN LATERAL (
          SELECT p."id", p."number", p."agentHash", p."evalHash" FROM "Run" p
          WHERE p."suiteId" = r."suiteId" AND p."workspaceId" = $2::uuid AND p."status" = 'completed' AND p."createdAt" < r."createdAt"
            AND p."comparisonId" IS NULL AND p."matrixId" IS NULL
          ORDER BY p."createdAt" DESC, p."id" DESC LIMIT 1
        ) p ON true
        WHERE r."id" = $1::uuid AND r."workspaceId" = $2::uuid`,
      values: [runId, ctx.workspaceId],
    })
  ).rows;
  if (!run) throw new NotFoundError("Run");
  if (!run.previous_id) {
    return {
      changes: {
        previous_run_id: null,
        previous_run_number: null,
        agent_changed: false,
        evaluation_changed: false,
        regressions: [],
        fixes: [],
      },
      runStatus: run.status,
    };
  }
  // The run was found in the caller's workspace above; the key names it too.
  const key = `${ctx.workspaceId}:${run.status}:${run.done}:${run.previous_id}`;
  const cached = changesCache.get(run.id);
  if (cached?.key === key) {
    return { changes: cached.value, runStatus: run.status };
  }
  // One pass over both runs' rows grouped by test case (an index scan on runId, then a hash
  // aggregate): a join of the two runs let the planner pick a nested loop comparing every row
  // with every row when the table's statistics were stale (1,000 × 1,000 rows, 1.5 s per poll
  // under load), and the live run page asks for this every few seconds.
  const rows = (
    await client.query<VerdictChangeRow>({
      name: "assay_changes_rows",
      text: `
        SELECT t.id, t."testCaseId" AS test_case_id, t.name, t.before, t.after,
               (t.hash_before IS NOT NULL AND t.hash_after IS NOT NULL AND t.hash_before <> t.hash_after) AS case_changed
        FROM (
          SELECT c."testCaseId",
                 min(c."position") FILTER (WHERE c."runId" = $1::uuid) AS position,
                 (array_agg(c."id" ORDER BY c."position") FILTER (WHERE c."runId" = $1::uuid))[1] AS id,
                 (array_agg(c."name" ORDER BY c."position") FILTER (WHERE c."runId" = $1::uuid))[1] AS name,
                 (array_agg(c."status"::text ORDER BY c."position") FILTER (WHERE c."runId" = $2::uuid))[1] AS before,
                 (array_agg(c."status"::text ORDER BY c."position") FILTER (WHERE c."runId" = $1::uuid))[1] AS after,
                 (array_agg(c."caseHash" ORDER BY c."position") FILTER (WHERE c."runId" = $2::uuid))[1] AS hash_before,
                 (array_agg(c."caseHash" ORDER BY c."position") FILTER (WHERE c."runId" = $1::uuid))[1] AS hash_after
          FROM "CaseResult" c
          WHERE c."runId" IN ($1::uuid, $2::uuid) AND c."workspaceId" = $3::uuid AND c."variant" = 'baseline' AND c."testCaseId" IS NOT NULL
          GROUP BY c."testCaseId"
        ) t
        WHERE (t.before = 'passed' AND t.after IN ('failed', 'error')) OR (t.before IN ('failed', 'error') AND t.after = 'passed')
        ORDER BY t.position`,
      values: [run.id, run.previous_id, ctx.workspaceId],
    })
  ).rows;
  const delta = {
    agent_changed: hashChanged(run.previous_agent_hash, run.agent_hash),
    evaluation_changed: hashChanged(run.previous_eval_hash, run.eval_hash),
  };
  const change = ({ id, test_case_id, name, before, after, case_changed }: VerdictChangeRow) => ({
    id,
    test_case_id,
    name,
    before,
    after,
    case_changed,
    cause: causeOf(case_changed, delta),
  });
  const value: RunChanges = {
    previous_run_id: run.previous_id,
    previous_run_number: run.previous_number,
    ...delta,
    regressions: rows.filter((r) => r.before === "passed").map(change),
    fixes: rows.filter((r) => r.after === "passed").map(change),
  };
  changesCache.set(run.id, { key, value });
  return { changes: value, runStatus: run.status };
}
