-- A case result's tenant key (testCaseId, workspaceId) → TestCase (id, workspaceId) is checked with
-- `WHERE "id" = $1 AND "workspaceId" = $2`. Before a freshly imported suite had statistics, the
-- planner answered that through the index on workspaceId alone, reading every case of the
-- workspace for each case result a run start inserted (133 µs a row for a 1,000-case suite, against
-- 5–15 µs for each of its other four checks). An index on (workspaceId, id) serves the same workspace-wide
-- reads and finds the one case.
-- DropIndex
DROP INDEX "TestCase_workspaceId_idx";

-- CreateIndex
CREATE INDEX "TestCase_workspaceId_id_idx" ON "TestCase"("workspaceId", "id");

