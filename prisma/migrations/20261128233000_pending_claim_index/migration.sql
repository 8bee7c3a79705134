-- The claim takes a run's first pending cases in position order. Through the (runId, status)
-- index it had to read and sort every pending case of the run, and through the unique
-- (runId, position, variant) index it had to step over every case already done: either way a
-- claim cost grew with the run (a 100,000-case run spent 4 ms of database CPU per case). This
-- partial index holds only pending cases, in claim order, so a claim reads just what it takes.
CREATE INDEX "CaseResult_pending_claim_idx" ON "CaseResult" ("runId", "position", "variant") WHERE "status" = 'pending';
