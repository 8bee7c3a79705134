-- Two parts, both for contracts other tools and spec 002 rely on.
--
-- 1. Spec 003 session document fields an imported session carries and an export writes back:
--    TestSession.llms_source_path (null when unknown) and ABTestResult.context_tokens per pair
--    (0 when unknown, as for an executed comparison).
--
-- 2. Tenant consistency in the database (spec 002): a child row belongs to the workspace of its
--    parent. Row-level security checks a row against the declared workspace only, and a
--    connection that declared none is not filtered, so until now nothing but service code kept a
--    case from pointing at another workspace suite. Each parent gets a unique key on
--    (id, workspaceId), and every relation between two tables that carry workspaceId gets a
--    composite foreign key (parentId, workspaceId) referencing it, beside the foreign key Prisma
--    keeps on the id alone (Prisma cannot express these: ON DELETE SET NULL must clear the
--    reference column only, never workspaceId). Their delete actions are the same as Prisma ones.
--    They are added NOT VALID and then validated, so existing rows are checked without blocking
--    writes for the whole check. A database holding a mismatched row stops here: fix or delete
--    that row, then apply again.

-- AlterTable
ALTER TABLE "Comparison" ADD COLUMN "llmsSourcePath" TEXT;

-- AlterTable
ALTER TABLE "ComparisonPair" ADD COLUMN "contextTokens" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE UNIQUE INDEX "ModelConfig_id_workspaceId_key" ON "ModelConfig"("id", "workspaceId");

-- CreateIndex
CREATE UNIQUE INDEX "Agent_id_workspaceId_key" ON "Agent"("id", "workspaceId");

-- CreateIndex
CREATE UNIQUE INDEX "Suite_id_workspaceId_key" ON "Suite"("id", "workspaceId");

-- CreateIndex
CREATE UNIQUE INDEX "TestCase_id_workspaceId_key" ON "TestCase"("id", "workspaceId");

-- CreateIndex
CREATE UNIQUE INDEX "Run_id_workspaceId_key" ON "Run"("id", "workspaceId");

-- CreateIndex
CREATE UNIQUE INDEX "CaseResult_id_workspaceId_key" ON "CaseResult"("id", "workspaceId");

-- CreateIndex
CREATE UNIQUE INDEX "Comparison_id_workspaceId_key" ON "Comparison"("id", "workspaceId");

-- CreateIndex
CREATE UNIQUE INDEX "Webhook_id_workspaceId_key" ON "Webhook"("id", "workspaceId");

-- CreateIndex
CREATE UNIQUE INDEX "Matrix_id_workspaceId_key" ON "Matrix"("id", "workspaceId");

-- CreateIndex
CREATE UNIQUE INDEX "StoredFile_id_workspaceId_key" ON "StoredFile"("id", "workspaceId");

-- Composite foreign keys: a child and its parent share their workspace.
ALTER TABLE "Agent" ADD CONSTRAINT "Agent_modelConfigId_workspaceId_fkey" FOREIGN KEY ("modelConfigId", "workspaceId") REFERENCES "ModelConfig"("id", "workspaceId") ON DELETE SET NULL ("modelConfigId") NOT VALID;
ALTER TABLE "Suite" ADD CONSTRAINT "Suite_agentId_workspaceId_fkey" FOREIGN KEY ("agentId", "workspaceId") REFERENCES "Agent"("id", "workspaceId") ON DELETE CASCADE NOT VALID;
ALTER TABLE "Suite" ADD CONSTRAINT "Suite_llmJudgeModelConfigId_workspaceId_fkey" FOREIGN KEY ("llmJudgeModelConfigId", "workspaceId") REFERENCES "ModelConfig"("id", "workspaceId") ON DELETE SET NULL ("llmJudgeModelConfigId") NOT VALID;
ALTER TABLE "Suite" ADD CONSTRAINT "Suite_simulatorModelConfigId_workspaceId_fkey" FOREIGN KEY ("simulatorModelConfigId", "workspaceId") REFERENCES "ModelConfig"("id", "workspaceId") ON DELETE SET NULL ("simulatorModelConfigId") NOT VALID;
ALTER TABLE "TestCase" ADD CONSTRAINT "TestCase_suiteId_workspaceId_fkey" FOREIGN KEY ("suiteId", "workspaceId") REFERENCES "Suite"("id", "workspaceId") ON DELETE CASCADE NOT VALID;
ALTER TABLE "Run" ADD CONSTRAINT "Run_suiteId_workspaceId_fkey" FOREIGN KEY ("suiteId", "workspaceId") REFERENCES "Suite"("id", "workspaceId") ON DELETE CASCADE NOT VALID;
ALTER TABLE "Run" ADD CONSTRAINT "Run_comparisonId_workspaceId_fkey" FOREIGN KEY ("comparisonId", "workspaceId") REFERENCES "Comparison"("id", "workspaceId") ON DELETE CASCADE NOT VALID;
ALTER TABLE "Run" ADD CONSTRAINT "Run_matrixId_workspaceId_fkey" FOREIGN KEY ("matrixId", "workspaceId") REFERENCES "Matrix"("id", "workspaceId") ON DELETE CASCADE NOT VALID;
ALTER TABLE "CaseResult" ADD CONSTRAINT "CaseResult_runId_workspaceId_fkey" FOREIGN KEY ("runId", "workspaceId") REFERENCES "Run"("id", "workspaceId") ON DELETE CASCADE NOT VALID;
ALTER TABLE "CaseResult" ADD CONSTRAINT "CaseResult_testCaseId_workspaceId_fkey" FOREIGN KEY ("testCaseId", "workspaceId") REFERENCES "TestCase"("id", "workspaceId") ON DELETE SET NULL ("testCaseId") NOT VALID;
ALTER TABLE "LlmCall" ADD CONSTRAINT "LlmCall_runId_workspaceId_fkey" FOREIGN KEY ("runId", "workspaceId") REFERENCES "Run"("id", "workspaceId") ON DELETE CASCADE NOT VALID;
ALTER TABLE "LlmCall" ADD CONSTRAINT "LlmCall_caseResultId_workspaceId_fkey" FOREIGN KEY ("caseResultId", "workspaceId") REFERENCES "CaseResult"("id", "workspaceId") ON DELETE CASCADE NOT VALID;
ALTER TABLE "SuiteRunCounter" ADD CONSTRAINT "SuiteRunCounter_suiteId_workspaceId_fkey" FOREIGN KEY ("suiteId", "workspaceId") REFERENCES "Suite"("id", "workspaceId") ON DELETE CASCADE NOT VALID;
ALTER TABLE "RegressionAlert" ADD CONSTRAINT "RegressionAlert_suiteId_workspaceId_fkey" FOREIGN KEY ("suiteId", "workspaceId") REFERENCES "Suite"("id", "workspaceId") ON DELETE CASCADE NOT VALID;
ALTER TABLE "RegressionAlert" ADD CONSTRAINT "RegressionAlert_runId_workspaceId_fkey" FOREIGN KEY ("runId", "workspaceId") REFERENCES "Run"("id", "workspaceId") ON DELETE CASCADE NOT VALID;
ALTER TABLE "Comparison" ADD CONSTRAINT "Comparison_suiteId_workspaceId_fkey" FOREIGN KEY ("suiteId", "workspaceId") REFERENCES "Suite"("id", "workspaceId") ON DELETE CASCADE NOT VALID;
ALTER TABLE "ComparisonArm" ADD CONSTRAINT "ComparisonArm_comparisonId_workspaceId_fkey" FOREIGN KEY ("comparisonId", "workspaceId") REFERENCES "Comparison"("id", "workspaceId") ON DELETE CASCADE NOT VALID;
ALTER TABLE "ComparisonArm" ADD CONSTRAINT "ComparisonArm_runId_workspaceId_fkey" FOREIGN KEY ("runId", "workspaceId") REFERENCES "Run"("id", "workspaceId") ON DELETE SET NULL ("runId") NOT VALID;
ALTER TABLE "ComparisonPair" ADD CONSTRAINT "ComparisonPair_comparisonId_workspaceId_fkey" FOREIGN KEY ("comparisonId", "workspaceId") REFERENCES "Comparison"("id", "workspaceId") ON DELETE CASCADE NOT VALID;
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_webhookId_workspaceId_fkey" FOREIGN KEY ("webhookId", "workspaceId") REFERENCES "Webhook"("id", "workspaceId") ON DELETE CASCADE NOT VALID;
ALTER TABLE "SuitePreset" ADD CONSTRAINT "SuitePreset_suiteId_workspaceId_fkey" FOREIGN KEY ("suiteId", "workspaceId") REFERENCES "Suite"("id", "workspaceId") ON DELETE CASCADE NOT VALID;
ALTER TABLE "Matrix" ADD CONSTRAINT "Matrix_suiteId_workspaceId_fkey" FOREIGN KEY ("suiteId", "workspaceId") REFERENCES "Suite"("id", "workspaceId") ON DELETE CASCADE NOT VALID;
ALTER TABLE "UrlFileCache" ADD CONSTRAINT "UrlFileCache_fileId_workspaceId_fkey" FOREIGN KEY ("fileId", "workspaceId") REFERENCES "StoredFile"("id", "workspaceId") ON DELETE CASCADE NOT VALID;

ALTER TABLE "Agent" VALIDATE CONSTRAINT "Agent_modelConfigId_workspaceId_fkey";
ALTER TABLE "Suite" VALIDATE CONSTRAINT "Suite_agentId_workspaceId_fkey";
ALTER TABLE "Suite" VALIDATE CONSTRAINT "Suite_llmJudgeModelConfigId_workspaceId_fkey";
ALTER TABLE "Suite" VALIDATE CONSTRAINT "Suite_simulatorModelConfigId_workspaceId_fkey";
ALTER TABLE "TestCase" VALIDATE CONSTRAINT "TestCase_suiteId_workspaceId_fkey";
ALTER TABLE "Run" VALIDATE CONSTRAINT "Run_suiteId_workspaceId_fkey";
ALTER TABLE "Run" VALIDATE CONSTRAINT "Run_comparisonId_workspaceId_fkey";
ALTER TABLE "Run" VALIDATE CONSTRAINT "Run_matrixId_workspaceId_fkey";
ALTER TABLE "CaseResult" VALIDATE CONSTRAINT "CaseResult_runId_workspaceId_fkey";
ALTER TABLE "CaseResult" VALIDATE CONSTRAINT "CaseResult_testCaseId_workspaceId_fkey";
ALTER TABLE "LlmCall" VALIDATE CONSTRAINT "LlmCall_runId_workspaceId_fkey";
ALTER TABLE "LlmCall" VALIDATE CONSTRAINT "LlmCall_caseResultId_workspaceId_fkey";
ALTER TABLE "SuiteRunCounter" VALIDATE CONSTRAINT "SuiteRunCounter_suiteId_workspaceId_fkey";
ALTER TABLE "RegressionAlert" VALIDATE CONSTRAINT "RegressionAlert_suiteId_workspaceId_fkey";
ALTER TABLE "RegressionAlert" VALIDATE CONSTRAINT "RegressionAlert_runId_workspaceId_fkey";
ALTER TABLE "Comparison" VALIDATE CONSTRAINT "Comparison_suiteId_workspaceId_fkey";
ALTER TABLE "ComparisonArm" VALIDATE CONSTRAINT "ComparisonArm_comparisonId_workspaceId_fkey";
ALTER TABLE "ComparisonArm" VALIDATE CONSTRAINT "ComparisonArm_runId_workspaceId_fkey";
ALTER TABLE "ComparisonPair" VALIDATE CONSTRAINT "ComparisonPair_comparisonId_workspaceId_fkey";
ALTER TABLE "WebhookDelivery" VALIDATE CONSTRAINT "WebhookDelivery_webhookId_workspaceId_fkey";
ALTER TABLE "SuitePreset" VALIDATE CONSTRAINT "SuitePreset_suiteId_workspaceId_fkey";
ALTER TABLE "Matrix" VALIDATE CONSTRAINT "Matrix_suiteId_workspaceId_fkey";
ALTER TABLE "UrlFileCache" VALIDATE CONSTRAINT "UrlFileCache_fileId_workspaceId_fkey";
