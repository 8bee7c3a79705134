-- Issue 12, goal 4: history pages that cost the same with 20 runs or 2,000.
--
-- The trend charts, the run history table, the suite header and the suites list sparkline read
-- the newest runs of one suite in (createdAt, id) order and stop after their window. Their
-- queries reach the suite through its workspace (lib/runs/analytics.ts) and filter Run by
-- suiteId only, so the planner walks one of these two indexes in order and never scans the
-- whole workspace by time (Run_workspaceId_createdAt_idx) past other suites.
--
-- 1. Every run of a suite, newest first, with the id tie-break of the keyset cursor. INCLUDE
--    status and workspace: the active-run count and the status filters read no table row.
-- 2. Completed runs of a suite (replaces Run_suite_completed_idx, same predicate, now with the
--    id tie-break): the sparkline (pass rates of the last completed runs), the completed-run
--    count and the tag window walk it in order and stop after their window.
-- Prisma cannot express INCLUDE or a partial index: schema.prisma declares the key columns of
-- the first only, and a later migration that changes these must keep them by hand.
-- The case counters are deliberately not INCLUDEd: the executor updates them once per finished
-- case, and an indexed column would make every such update a non-HOT update with new entries in
-- every index of Run. The sparkline reads at most 20 rows per suite from the table instead.

-- DropIndex
DROP INDEX "Run_suiteId_createdAt_idx";
DROP INDEX "Run_suite_completed_idx";

-- CreateIndex
CREATE INDEX "Run_suiteId_createdAt_id_idx" ON "Run"("suiteId", "createdAt" DESC, "id" DESC)
    INCLUDE ("workspaceId", "status");
CREATE INDEX "Run_suite_completed_idx" ON "Run"("suiteId", "createdAt" DESC, "id" DESC)
    INCLUDE ("workspaceId")
    WHERE "status" = 'completed';
