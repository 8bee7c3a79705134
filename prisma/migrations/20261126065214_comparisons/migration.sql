-- CreateEnum
CREATE TYPE "ComparisonStatus" AS ENUM ('pending', 'running', 'completed', 'cancelled', 'failed');

-- CreateEnum
CREATE TYPE "ComparisonSource" AS ENUM ('executed', 'runs', 'imported');

-- CreateEnum
CREATE TYPE "ComparisonOrdering" AS ENUM ('sequential', 'randomized', 'concurrent');

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "armIndex" INTEGER,
ADD COLUMN     "comparisonId" UUID;

-- AlterTable
ALTER TABLE "CaseResult" ADD COLUMN     "agentStats" JSONB,
ADD COLUMN     "repetition" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "Comparison" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "suiteId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "notes" TEXT NOT NULL DEFAULT '',
    "source" "ComparisonSource" NOT NULL DEFAULT 'executed',
    "status" "ComparisonStatus" NOT NULL DEFAULT 'pending',
    "ordering" "ComparisonOrdering" NOT NULL DEFAULT 'sequential',
    "seed" INTEGER NOT NULL DEFAULT 0,
    "resetWindowMs" INTEGER NOT NULL DEFAULT 100,
    "repetitions" INTEGER NOT NULL DEFAULT 1,
    "concurrency" INTEGER NOT NULL DEFAULT 8,
    "retryPolicy" JSONB NOT NULL DEFAULT '{}',
    "options" JSONB NOT NULL DEFAULT '{}',
    "environment" JSONB NOT NULL DEFAULT '{}',
    "summary" JSONB,
    "totalPairs" INTEGER NOT NULL DEFAULT 0,
    "completedPairs" INTEGER NOT NULL DEFAULT 0,
    "sessionId" TEXT,
    "errorMessage" TEXT,
    "createdByUserId" UUID,
    "createdByKeyId" UUID,
    "cancelRequestedAt" TIMESTAMPTZ(3),
    "startedAt" TIMESTAMPTZ(3),
    "completedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Comparison_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ComparisonArm" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "comparisonId" UUID NOT NULL,
    "index" INTEGER NOT NULL,
    "role" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "config" JSONB NOT NULL DEFAULT '{}',
    "resolved" JSONB NOT NULL DEFAULT '{}',
    "runId" UUID,

    CONSTRAINT "ComparisonArm_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ComparisonPair" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "comparisonId" UUID NOT NULL,
    "index" INTEGER NOT NULL,
    "testCaseId" UUID,
    "testCaseName" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "repetition" INTEGER NOT NULL DEFAULT 0,
    "order" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "executions" JSONB NOT NULL DEFAULT '[]',
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "tokenOverhead" INTEGER,
    "tokenOverheadPct" DOUBLE PRECISION,
    "latencyDiffMs" DOUBLE PRECISION,
    "latencyImprovementPct" DOUBLE PRECISION,
    "responseLengthRatio" DOUBLE PRECISION,
    "bothSuccessful" BOOLEAN,
    "verdictChange" TEXT,
    "completedAt" TIMESTAMPTZ(3),

    CONSTRAINT "ComparisonPair_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Comparison_suiteId_createdAt_idx" ON "Comparison"("suiteId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Comparison_workspaceId_createdAt_idx" ON "Comparison"("workspaceId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Comparison_status_idx" ON "Comparison"("status");

-- CreateIndex
CREATE INDEX "ComparisonArm_runId_idx" ON "ComparisonArm"("runId");

-- CreateIndex
CREATE UNIQUE INDEX "ComparisonArm_comparisonId_index_key" ON "ComparisonArm"("comparisonId", "index");

-- CreateIndex
CREATE INDEX "ComparisonPair_comparisonId_verdictChange_idx" ON "ComparisonPair"("comparisonId", "verdictChange");

-- CreateIndex
CREATE INDEX "ComparisonPair_comparisonId_latencyDiffMs_idx" ON "ComparisonPair"("comparisonId", "latencyDiffMs");

-- CreateIndex
CREATE INDEX "ComparisonPair_comparisonId_tokenOverhead_idx" ON "ComparisonPair"("comparisonId", "tokenOverhead");

-- CreateIndex
CREATE UNIQUE INDEX "ComparisonPair_comparisonId_index_key" ON "ComparisonPair"("comparisonId", "index");

-- CreateIndex
CREATE INDEX "Run_comparisonId_idx" ON "Run"("comparisonId");

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_comparisonId_fkey" FOREIGN KEY ("comparisonId") REFERENCES "Comparison"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Comparison" ADD CONSTRAINT "Comparison_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Comparison" ADD CONSTRAINT "Comparison_suiteId_fkey" FOREIGN KEY ("suiteId") REFERENCES "Suite"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ComparisonArm" ADD CONSTRAINT "ComparisonArm_comparisonId_fkey" FOREIGN KEY ("comparisonId") REFERENCES "Comparison"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ComparisonArm" ADD CONSTRAINT "ComparisonArm_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ComparisonPair" ADD CONSTRAINT "ComparisonPair_comparisonId_fkey" FOREIGN KEY ("comparisonId") REFERENCES "Comparison"("id") ON DELETE CASCADE ON UPDATE CASCADE;


ALTER TABLE "Comparison" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "Comparison" FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "Comparison"
    USING (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid)
    WITH CHECK (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid);

ALTER TABLE "ComparisonArm" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "ComparisonArm" FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "ComparisonArm"
    USING (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid)
    WITH CHECK (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid);

ALTER TABLE "ComparisonPair" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "ComparisonPair" FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "ComparisonPair"
    USING (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid)
    WITH CHECK (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid);
