-- CreateIndex
CREATE INDEX "Run_workspaceId_status_createdAt_idx" ON "Run"("workspaceId", "status", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Run_workspaceId_triggeredBy_createdAt_idx" ON "Run"("workspaceId", "triggeredBy", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Run_metadata_idx" ON "Run" USING GIN ("metadata" jsonb_path_ops);

