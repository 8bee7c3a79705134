-- CreateEnum
CREATE TYPE "ReviewItemStatus" AS ENUM ('open', 'agreed', 'conflict', 'resolved');

-- CreateEnum
CREATE TYPE "ReviewItemSource" AS ENUM ('manual', 'failed', 'sampled', 'flaky');

-- CreateEnum
CREATE TYPE "HumanVerdict" AS ENUM ('pass', 'fail');

-- AlterTable
ALTER TABLE "Suite" ADD COLUMN     "calibrationMinLabels" INTEGER NOT NULL DEFAULT 30,
ADD COLUMN     "calibrationTrustedKappa" DOUBLE PRECISION NOT NULL DEFAULT 0.6,
ADD COLUMN     "requiredReviews" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "reviewRules" JSONB NOT NULL DEFAULT '{"failed":false,"passed_sample_percent":0,"flaky":false}';

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "overturnedCases" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "reviewPassDelta" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "reviewSample" JSONB,
ADD COLUMN     "reviewedCases" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "CaseResult" ADD COLUMN     "humanVerdict" "HumanVerdict",
ADD COLUMN     "humanVerdictAt" TIMESTAMPTZ(3),
ADD COLUMN     "humanVerdictById" UUID;

-- CreateTable
CREATE TABLE "ReviewItem" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "suiteId" UUID NOT NULL,
    "runId" UUID NOT NULL,
    "caseResultId" UUID NOT NULL,
    "status" "ReviewItemStatus" NOT NULL DEFAULT 'open',
    "source" "ReviewItemSource" NOT NULL,
    "requiredReviews" INTEGER NOT NULL DEFAULT 1,
    "judgeFingerprint" TEXT NOT NULL,
    "judgeInfo" JSONB NOT NULL,
    "assigneeId" UUID,
    "createdById" UUID,
    "resolvedVerdict" "HumanVerdict",
    "resolvedComment" TEXT,
    "resolvedById" UUID,
    "resolvedAt" TIMESTAMPTZ(3),
    "closedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ReviewItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReviewLabel" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "itemId" UUID NOT NULL,
    "reviewerId" UUID,
    "reviewerKeyId" UUID,
    "verdict" "HumanVerdict" NOT NULL,
    "elements" JSONB NOT NULL DEFAULT '{}',
    "comment" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ReviewLabel_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ReviewItem_workspaceId_status_createdAt_id_idx" ON "ReviewItem"("workspaceId", "status", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "ReviewItem_suiteId_status_createdAt_id_idx" ON "ReviewItem"("suiteId", "status", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "ReviewItem_suiteId_judgeFingerprint_idx" ON "ReviewItem"("suiteId", "judgeFingerprint");

-- CreateIndex
CREATE INDEX "ReviewItem_runId_idx" ON "ReviewItem"("runId");

-- CreateIndex
CREATE INDEX "ReviewItem_assigneeId_status_idx" ON "ReviewItem"("assigneeId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "ReviewItem_caseResultId_key" ON "ReviewItem"("caseResultId");

-- CreateIndex
CREATE UNIQUE INDEX "ReviewItem_id_workspaceId_key" ON "ReviewItem"("id", "workspaceId");

-- CreateIndex
CREATE INDEX "ReviewLabel_workspaceId_idx" ON "ReviewLabel"("workspaceId");

-- CreateIndex
CREATE INDEX "ReviewLabel_reviewerId_idx" ON "ReviewLabel"("reviewerId");

-- CreateIndex
CREATE UNIQUE INDEX "ReviewLabel_itemId_reviewerId_key" ON "ReviewLabel"("itemId", "reviewerId");

-- CreateIndex
CREATE UNIQUE INDEX "ReviewLabel_itemId_reviewerKeyId_key" ON "ReviewLabel"("itemId", "reviewerKeyId");

-- AddForeignKey
ALTER TABLE "ReviewItem" ADD CONSTRAINT "ReviewItem_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewItem" ADD CONSTRAINT "ReviewItem_suiteId_fkey" FOREIGN KEY ("suiteId") REFERENCES "Suite"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewItem" ADD CONSTRAINT "ReviewItem_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewItem" ADD CONSTRAINT "ReviewItem_caseResultId_fkey" FOREIGN KEY ("caseResultId") REFERENCES "CaseResult"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewLabel" ADD CONSTRAINT "ReviewLabel_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewLabel" ADD CONSTRAINT "ReviewLabel_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "ReviewItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewLabel" ADD CONSTRAINT "ReviewLabel_reviewerId_fkey" FOREIGN KEY ("reviewerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Ranges the API validates, held by the database too.
ALTER TABLE "Suite" ADD CONSTRAINT "Suite_requiredReviews_range" CHECK ("requiredReviews" BETWEEN 1 AND 5);
ALTER TABLE "Suite" ADD CONSTRAINT "Suite_calibrationMinLabels_range" CHECK ("calibrationMinLabels" BETWEEN 1 AND 100000);
ALTER TABLE "Suite" ADD CONSTRAINT "Suite_calibrationTrustedKappa_range" CHECK ("calibrationTrustedKappa" BETWEEN -1 AND 1);
ALTER TABLE "ReviewItem" ADD CONSTRAINT "ReviewItem_requiredReviews_range" CHECK ("requiredReviews" BETWEEN 1 AND 5);

-- A label has exactly one reviewer: a member or an API key.
ALTER TABLE "ReviewLabel" ADD CONSTRAINT "ReviewLabel_one_reviewer" CHECK (("reviewerId" IS NULL) <> ("reviewerKeyId" IS NULL));

-- An item, its suite, run and case result, and its labels live in one workspace (the tenant keys of migration tenant_keys_and_session_fields).
ALTER TABLE "ReviewItem" ADD CONSTRAINT "ReviewItem_suiteId_workspaceId_fkey" FOREIGN KEY ("suiteId", "workspaceId") REFERENCES "Suite"("id", "workspaceId") ON DELETE CASCADE;
ALTER TABLE "ReviewItem" ADD CONSTRAINT "ReviewItem_runId_workspaceId_fkey" FOREIGN KEY ("runId", "workspaceId") REFERENCES "Run"("id", "workspaceId") ON DELETE CASCADE;
ALTER TABLE "ReviewItem" ADD CONSTRAINT "ReviewItem_caseResultId_workspaceId_fkey" FOREIGN KEY ("caseResultId", "workspaceId") REFERENCES "CaseResult"("id", "workspaceId") ON DELETE CASCADE;
ALTER TABLE "ReviewLabel" ADD CONSTRAINT "ReviewLabel_itemId_workspaceId_fkey" FOREIGN KEY ("itemId", "workspaceId") REFERENCES "ReviewItem"("id", "workspaceId") ON DELETE CASCADE;

-- Row-level security as on every tenant table (migration row_level_security).
ALTER TABLE "ReviewItem" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "ReviewItem" FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "ReviewItem"
    USING (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid)
    WITH CHECK (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid);

ALTER TABLE "ReviewLabel" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "ReviewLabel" FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "ReviewLabel"
    USING (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid)
    WITH CHECK (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid);
