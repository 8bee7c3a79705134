-- Issue 12: case results are read in (position, variant) order everywhere (reports, the run
-- page, keyset pages, claims). The unique key now has that column order, so a keyset page is an
-- ordered index scan that stops at its limit instead of reading the rest of the run and sorting.

-- DropIndex
DROP INDEX "CaseResult_runId_variant_position_key";

-- CreateIndex
CREATE UNIQUE INDEX "CaseResult_runId_position_variant_key" ON "CaseResult"("runId", "position", "variant");

