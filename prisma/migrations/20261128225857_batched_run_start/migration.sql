-- A large run is written in batches: its first case results with the run, the rest right after,
-- while the executor already runs the first. preparedAt is set once every case result is written
-- (runs written before this migration, and every run written in one go, have it at creation).
ALTER TABLE "Run" ADD COLUMN     "preparedAt" TIMESTAMPTZ(3) DEFAULT CURRENT_TIMESTAMP;

-- Recovery looks for runs still being written (few, short-lived) every two seconds.
CREATE INDEX "Run_preparing_idx" ON "Run" ("id") WHERE "preparedAt" IS NULL;
