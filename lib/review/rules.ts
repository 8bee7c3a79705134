/**
 * A suite's review rules, applied when one of its ordinary runs finishes (the "review rules"
 * subscriber of lib/run-finished-subscribers.ts): queue its failed results, a seeded sample of
 * its passed ones, and every judged trial of its flaky cases. The sample is seeded by the run's
 * id and recorded on the run (`Run.reviewSample`), so applying the rules again — a replayed
 * "run finished" event — picks the same results, and items already queued are left as they are.
 */
import "server-only";
import { db } from "@/lib/db";
import { logger } from "@/lib/logger";
import { FLAKY_FLIP_RATE, FLAKY_HISTORY_MIN, FLAKY_HISTORY_WINDOW } from "@/lib/runs/alerts";
import { historyFlipRates } from "@/lib/runs/trial-reads";
import { reviewRulesOf } from "./rules-config";
import { queueResults } from "./service";

type Row = { id: string; test_case_id: string | null; status: string; sample_rank: number };

/** The results each rule selects, by source: failed ones, the passed sample, the flaky cases' judged trials. */
async function selectResults(run: { id: string; workspaceId: string }, rules: ReturnType<typeof reviewRulesOf>) {
  // One read of the run's judged results, each with its rank in the run's seeded order (md5 of run id and result id).
  const rows = await db.$queryRaw<Row[]>`
    SELECT c."id"::text AS id, c."testCaseId"::text AS test_case_id, c."status"::text AS status,
           (row_number() OVER (PARTITION BY c."status" ORDER BY md5(${run.id} || c."id"::text)))::int AS sample_rank
    FROM "CaseResult" c
    WHERE c."runId" = ${run.id}::uuid AND c."workspaceId" = ${run.workspaceId}::uuid AND c."status" IN ('passed', 'failed')`;
  const passed = rows.filter((r) => r.status === "passed");
  const sampleSize = Math.round((passed.length * rules.passed_sample_percent) / 100);
  const failed = rules.failed ? rows.filter((r) => r.status === "failed") : [];
  const sampled = passed.filter((r) => r.sample_rank <= sampleSize);

  let flaky: Row[] = [];
  if (rules.flaky) {
    const byCase = Map.groupBy(
      rows.filter((r) => r.test_case_id),
      (r) => r.test_case_id!,
    );
    const mixed = new Set([...byCase].filter(([, trials]) => new Set(trials.map((t) => t.status)).size > 1).map(([id]) => id));
    const rates = await historyFlipRates(
      run.workspaceId,
      [...byCase.keys()].filter((id) => !mixed.has(id)),
      { window: FLAKY_HISTORY_WINDOW, exceptRunId: run.id, minResults: FLAKY_HISTORY_MIN },
    );
    const flakyCases = new Set([...mixed, ...[...rates].filter(([, rate]) => rate >= FLAKY_FLIP_RATE).map(([id]) => id)]);
    flaky = rows.filter((r) => r.test_case_id && flakyCases.has(r.test_case_id));
  }
  return { failed, sampled, flaky, sampleSize };
}

/** Applies the suite's review rules to a finished run; returns how many items were created. */
export async function applyReviewRules(runId: string, workspaceId: string): Promise<number> {
  const run = await db.run.findFirst({
    where: { id: runId, workspaceId },
    select: { id: true, workspaceId: true, comparisonId: true, matrixId: true, suite: { select: { reviewRules: true } } },
  });
  // Comparison arms and matrix combinations are experiments: reviewed by hand only.
  if (!run || run.comparisonId || run.matrixId) return 0;
  const rules = reviewRulesOf(run.suite.reviewRules);
  if (!rules.failed && !rules.flaky && rules.passed_sample_percent === 0) return 0;
  const { failed, sampled, flaky, sampleSize } = await selectResults(run, rules);
  const created = await db.$transaction(async (tx) => {
    const queue = (rows: Row[], source: "failed" | "sampled" | "flaky") =>
      queueResults(tx, { workspaceId, runId, caseResultIds: rows.map((r) => r.id), source, createdById: null });
    // A failed trial of a flaky case is queued as failed: the first rule that picks a result names it.
    const n = (await queue(failed, "failed")) + (await queue(flaky, "flaky")) + (await queue(sampled, "sampled"));
    await tx.run.update({
      where: { id: runId },
      data: {
        reviewSample: {
          seed: runId,
          method: "md5(run id || result id) order, first round(passed × percent / 100) passed results",
          failed: rules.failed,
          flaky: rules.flaky,
          passed_sample_percent: rules.passed_sample_percent,
          sampled: sampleSize,
        },
      },
    });
    return n;
  });
  if (created > 0)
    logger.info({ runId, created, failed: failed.length, sampled: sampled.length, flaky: flaky.length }, "review rules queued results");
  return created;
}
