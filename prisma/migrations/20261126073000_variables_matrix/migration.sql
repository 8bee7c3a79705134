-- Issue 9: test-level variable configuration (spec 004 TestVariablesConfig), the variables each
-- case result resolved with their sources, model prices for matrix cost estimates, suite presets
-- and matrix runs (one run per combination of variable values).
ALTER TABLE "ModelConfig" ADD COLUMN "inputPricePerMtok" DOUBLE PRECISION,
ADD COLUMN "outputPricePerMtok" DOUBLE PRECISION;

ALTER TABLE "TestCase" ADD COLUMN "variables" JSONB;

ALTER TABLE "CaseResult" ADD COLUMN "resolvedVariables" JSONB;

ALTER TABLE "Run" ADD COLUMN "matrixId" UUID,
ADD COLUMN "combinationIndex" INTEGER;
CREATE INDEX "Run_matrixId_idx" ON "Run"("matrixId");

CREATE TABLE "SuitePreset" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "suiteId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "values" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "SuitePreset_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "SuitePreset_suiteId_name_key" ON "SuitePreset"("suiteId", "name");
CREATE INDEX "SuitePreset_workspaceId_idx" ON "SuitePreset"("workspaceId");

CREATE TABLE "Matrix" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "suiteId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "status" "RunStatus" NOT NULL DEFAULT 'pending',
    "axes" JSONB NOT NULL,
    "combinations" JSONB NOT NULL DEFAULT '[]',
    "repetitions" INTEGER NOT NULL DEFAULT 1,
    "concurrency" INTEGER NOT NULL DEFAULT 8,
    "options" JSONB NOT NULL DEFAULT '{}',
    "createdByUserId" UUID,
    "createdByKeyId" UUID,
    "cancelRequestedAt" TIMESTAMPTZ(3),
    "startedAt" TIMESTAMPTZ(3),
    "completedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Matrix_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "Matrix_suiteId_createdAt_idx" ON "Matrix"("suiteId", "createdAt" DESC);
CREATE INDEX "Matrix_workspaceId_idx" ON "Matrix"("workspaceId");

ALTER TABLE "SuitePreset" ADD CONSTRAINT "SuitePreset_suiteId_fkey" FOREIGN KEY ("suiteId") REFERENCES "Suite"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "Matrix" ADD CONSTRAINT "Matrix_suiteId_fkey" FOREIGN KEY ("suiteId") REFERENCES "Suite"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "Run" ADD CONSTRAINT "Run_matrixId_fkey" FOREIGN KEY ("matrixId") REFERENCES "Matrix"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "SuitePreset" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "SuitePreset" FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "SuitePreset"
    USING (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid)
    WITH CHECK (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid);

ALTER TABLE "Matrix" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "Matrix" FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "Matrix"
    USING (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid)
    WITH CHECK (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid);
