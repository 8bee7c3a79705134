-- The hand-off (a result write claiming the run's next cases) and a claim take a run's first
-- pending cases in position order. Before CaseResult had statistics (a fresh install's first
-- runs), a connection's cached plan could take the (runId, status) index and sort every pending
-- case of the run on each result write: a third of a 1,000-case run's writes did, 0.7 ms each.
-- With position and variant in it, that index gives a run's cases of one status in claim order
-- too, so no plan sorts them. Everything that read (runId, status) reads its prefix.
-- DropIndex
DROP INDEX "CaseResult_runId_status_idx";

-- CreateIndex
CREATE INDEX "CaseResult_runId_status_position_variant_idx" ON "CaseResult"("runId", "status", "position", "variant");

