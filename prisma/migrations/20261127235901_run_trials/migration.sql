-- AlterTable
ALTER TABLE "Suite" ADD COLUMN     "defaultTrials" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "rerunOfId" UUID,
ADD COLUMN     "trials" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "SuitePreset" ADD COLUMN     "trials" INTEGER;

-- CreateIndex
CREATE INDEX "Run_rerunOfId_idx" ON "Run"("rerunOfId");

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_rerunOfId_fkey" FOREIGN KEY ("rerunOfId") REFERENCES "Run"("id") ON DELETE SET NULL ON UPDATE CASCADE;


-- Trials are 1–20 wherever they are stored.
ALTER TABLE "Suite" ADD CONSTRAINT "Suite_defaultTrials_range" CHECK ("defaultTrials" BETWEEN 1 AND 20);
ALTER TABLE "Run" ADD CONSTRAINT "Run_trials_range" CHECK ("trials" BETWEEN 1 AND 20);
ALTER TABLE "SuitePreset" ADD CONSTRAINT "SuitePreset_trials_range" CHECK ("trials" IS NULL OR "trials" BETWEEN 1 AND 20);

-- Runs that already repeated their cases (comparison arms, matrix combinations) record how often.
UPDATE "Run" r SET "trials" = c."repetitions" FROM "Comparison" c WHERE r."comparisonId" = c."id" AND c."repetitions" BETWEEN 1 AND 20;
UPDATE "Run" r SET "trials" = m."repetitions" FROM "Matrix" m WHERE r."matrixId" = m."id" AND m."repetitions" BETWEEN 1 AND 20;

-- A re-run and the run it re-runs live in the same workspace (the tenant keys of migration tenant_keys_and_session_fields).
ALTER TABLE "Run" ADD CONSTRAINT "Run_rerunOfId_workspaceId_fkey" FOREIGN KEY ("rerunOfId", "workspaceId") REFERENCES "Run"("id", "workspaceId") ON DELETE SET NULL ("rerunOfId");
