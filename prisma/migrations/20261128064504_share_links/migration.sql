-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN     "sharingEnabled" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "ShareLink" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "runId" UUID,
    "comparisonId" UUID,
    "tokenHash" TEXT NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "revokedAt" TIMESTAMPTZ(3),
    "createdById" UUID,
    "lastViewedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ShareLink_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ShareLink_tokenHash_key" ON "ShareLink"("tokenHash");

-- CreateIndex
CREATE INDEX "ShareLink_runId_idx" ON "ShareLink"("runId");

-- CreateIndex
CREATE INDEX "ShareLink_comparisonId_idx" ON "ShareLink"("comparisonId");

-- CreateIndex
CREATE INDEX "ShareLink_workspaceId_idx" ON "ShareLink"("workspaceId");

-- AddForeignKey
ALTER TABLE "ShareLink" ADD CONSTRAINT "ShareLink_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShareLink" ADD CONSTRAINT "ShareLink_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShareLink" ADD CONSTRAINT "ShareLink_comparisonId_fkey" FOREIGN KEY ("comparisonId") REFERENCES "Comparison"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- A link shares a run or a comparison (the service sets exactly one).
ALTER TABLE "ShareLink" ADD CONSTRAINT "ShareLink_has_target" CHECK (num_nonnulls("runId", "comparisonId") >= 1);

-- A link and what it shares live in one workspace (the tenant keys of migration tenant_keys_and_session_fields).
ALTER TABLE "ShareLink" ADD CONSTRAINT "ShareLink_runId_workspaceId_fkey" FOREIGN KEY ("runId", "workspaceId") REFERENCES "Run"("id", "workspaceId") ON DELETE CASCADE;
ALTER TABLE "ShareLink" ADD CONSTRAINT "ShareLink_comparisonId_workspaceId_fkey" FOREIGN KEY ("comparisonId", "workspaceId") REFERENCES "Comparison"("id", "workspaceId") ON DELETE CASCADE;

-- Row-level security as on every tenant table (migration row_level_security). The public share page looks a
-- token up outside any scope (as invitations by token are), then reads inside the link's workspace.
ALTER TABLE "ShareLink" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "ShareLink" FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "ShareLink"
    USING (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid)
    WITH CHECK (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid);
