-- CreateEnum
CREATE TYPE "RunStatus" AS ENUM ('pending', 'running', 'completed', 'failed', 'cancelled');

-- CreateEnum
CREATE TYPE "RunTrigger" AS ENUM ('manual', 'schedule', 'api');

-- CreateEnum
CREATE TYPE "CaseResultStatus" AS ENUM ('pending', 'running', 'passed', 'failed', 'skipped', 'error');

-- CreateEnum
CREATE TYPE "Variant" AS ENUM ('baseline', 'variant');

-- AlterTable
ALTER TABLE "Suite" ADD COLUMN     "metrics" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "simulatorModelConfigId" UUID;

-- CreateTable
CREATE TABLE "Run" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "suiteId" UUID NOT NULL,
    "status" "RunStatus" NOT NULL DEFAULT 'pending',
    "triggeredBy" "RunTrigger" NOT NULL,
    "triggeredByUserId" UUID,
    "triggeredByKeyId" UUID,
    "options" JSONB NOT NULL DEFAULT '{}',
    "concurrency" INTEGER NOT NULL DEFAULT 8,
    "resolvedVariables" JSONB NOT NULL DEFAULT '{"values":{},"sources":{}}',
    "agentSnapshot" JSONB NOT NULL,
    "evalSnapshot" JSONB NOT NULL DEFAULT '{}',
    "variantSnapshot" JSONB,
    "totalCases" INTEGER NOT NULL DEFAULT 0,
    "passedCases" INTEGER NOT NULL DEFAULT 0,
    "failedCases" INTEGER NOT NULL DEFAULT 0,
    "skippedCases" INTEGER NOT NULL DEFAULT 0,
    "errorCases" INTEGER NOT NULL DEFAULT 0,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "summary" JSONB,
    "errorMessage" TEXT,
    "cancelRequestedAt" TIMESTAMPTZ(3),
    "leaseOwner" TEXT,
    "leaseExpiresAt" TIMESTAMPTZ(3),
    "startedAt" TIMESTAMPTZ(3),
    "completedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CaseResult" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "runId" UUID NOT NULL,
    "testCaseId" UUID,
    "variant" "Variant" NOT NULL DEFAULT 'baseline',
    "position" INTEGER NOT NULL,
    "status" "CaseResultStatus" NOT NULL DEFAULT 'pending',
    "caseSnapshot" JSON NOT NULL,
    "name" TEXT NOT NULL,
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "transcript" JSONB NOT NULL DEFAULT '[]',
    "actualResponse" TEXT,
    "responseTruncated" BOOLEAN NOT NULL DEFAULT false,
    "checkResults" JSONB NOT NULL DEFAULT '[]',
    "toolCallResults" JSONB,
    "outcomeResults" JSONB NOT NULL DEFAULT '[]',
    "metricResults" JSONB NOT NULL DEFAULT '[]',
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "latencyMs" INTEGER,
    "durationMs" INTEGER,
    "retryCount" INTEGER NOT NULL DEFAULT 0,
    "turns" INTEGER NOT NULL DEFAULT 0,
    "errorMessage" TEXT,
    "errorType" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "leaseOwner" TEXT,
    "leaseExpiresAt" TIMESTAMPTZ(3),
    "startedAt" TIMESTAMPTZ(3),
    "completedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CaseResult_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LlmCall" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "runId" UUID NOT NULL,
    "caseResultId" UUID,
    "purpose" TEXT NOT NULL,
    "model" TEXT,
    "request" JSONB NOT NULL,
    "response" TEXT,
    "error" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 1,
    "latencyMs" INTEGER,
    "cached" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LlmCall_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RegressionAlert" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "suiteId" UUID NOT NULL,
    "runId" UUID NOT NULL,
    "previousRunId" UUID,
    "passRate" DOUBLE PRECISION NOT NULL,
    "previousRate" DOUBLE PRECISION NOT NULL,
    "dropPercent" DOUBLE PRECISION NOT NULL,
    "acknowledgedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RegressionAlert_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Run_suiteId_createdAt_idx" ON "Run"("suiteId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Run_workspaceId_createdAt_idx" ON "Run"("workspaceId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Run_status_leaseExpiresAt_idx" ON "Run"("status", "leaseExpiresAt");

-- CreateIndex
CREATE INDEX "CaseResult_runId_status_idx" ON "CaseResult"("runId", "status");

-- CreateIndex
CREATE INDEX "CaseResult_testCaseId_createdAt_idx" ON "CaseResult"("testCaseId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "CaseResult_workspaceId_idx" ON "CaseResult"("workspaceId");

-- CreateIndex
CREATE INDEX "CaseResult_tags_idx" ON "CaseResult" USING GIN ("tags");

-- CreateIndex
CREATE UNIQUE INDEX "CaseResult_runId_variant_position_key" ON "CaseResult"("runId", "variant", "position");

-- CreateIndex
CREATE INDEX "LlmCall_caseResultId_createdAt_idx" ON "LlmCall"("caseResultId", "createdAt");

-- CreateIndex
CREATE INDEX "LlmCall_runId_idx" ON "LlmCall"("runId");

-- CreateIndex
CREATE INDEX "LlmCall_workspaceId_idx" ON "LlmCall"("workspaceId");

-- CreateIndex
CREATE INDEX "RegressionAlert_workspaceId_createdAt_idx" ON "RegressionAlert"("workspaceId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "RegressionAlert_suiteId_createdAt_idx" ON "RegressionAlert"("suiteId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Suite_simulatorModelConfigId_idx" ON "Suite"("simulatorModelConfigId");

-- AddForeignKey
ALTER TABLE "Suite" ADD CONSTRAINT "Suite_simulatorModelConfigId_fkey" FOREIGN KEY ("simulatorModelConfigId") REFERENCES "ModelConfig"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_suiteId_fkey" FOREIGN KEY ("suiteId") REFERENCES "Suite"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CaseResult" ADD CONSTRAINT "CaseResult_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CaseResult" ADD CONSTRAINT "CaseResult_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CaseResult" ADD CONSTRAINT "CaseResult_testCaseId_fkey" FOREIGN KEY ("testCaseId") REFERENCES "TestCase"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LlmCall" ADD CONSTRAINT "LlmCall_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LlmCall" ADD CONSTRAINT "LlmCall_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LlmCall" ADD CONSTRAINT "LlmCall_caseResultId_fkey" FOREIGN KEY ("caseResultId") REFERENCES "CaseResult"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RegressionAlert" ADD CONSTRAINT "RegressionAlert_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RegressionAlert" ADD CONSTRAINT "RegressionAlert_suiteId_fkey" FOREIGN KEY ("suiteId") REFERENCES "Suite"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RegressionAlert" ADD CONSTRAINT "RegressionAlert_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Hand-written: lease recovery scans only running cases.
CREATE INDEX "CaseResult_running_lease_idx" ON "CaseResult"("leaseExpiresAt") WHERE "status" = 'running';
-- Pass rate by tag and per-suite trends aggregate completed runs only.
CREATE INDEX "Run_suite_completed_idx" ON "Run"("suiteId", "createdAt" DESC) WHERE "status" = 'completed';
