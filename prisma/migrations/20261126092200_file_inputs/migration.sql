-- CreateEnum
CREATE TYPE "CaseStage" AS ENUM ('pending', 'processing_files', 'files_ready', 'files_failed', 'executing_agent', 'agent_complete', 'agent_failed', 'evaluating', 'complete', 'evaluation_failed');

-- AlterTable
ALTER TABLE "ModelConfig" ADD COLUMN     "supportsVision" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "TestCase" ADD COLUMN     "files" JSONB;

-- AlterTable
ALTER TABLE "CaseResult" ADD COLUMN     "processedFiles" JSONB,
ADD COLUMN     "stage" "CaseStage" NOT NULL DEFAULT 'pending';

-- CreateTable
CREATE TABLE "StoredFile" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "name" VARCHAR(255) NOT NULL,
    "sizeBytes" INTEGER NOT NULL,
    "contentType" TEXT NOT NULL,
    "kind" TEXT,
    "sha256" CHAR(64) NOT NULL,
    "storageKey" TEXT NOT NULL,
    "origin" TEXT NOT NULL DEFAULT 'upload',
    "createdById" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StoredFile_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FileBlob" (
    "key" TEXT NOT NULL,
    "workspaceId" UUID NOT NULL,
    "data" BYTEA NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FileBlob_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "UrlFileCache" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "fileId" UUID NOT NULL,
    "etag" TEXT,
    "lastModified" TEXT,
    "fetchedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UrlFileCache_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProcessedFileCache" (
    "workspaceId" UUID NOT NULL,
    "cacheKey" TEXT NOT NULL,
    "markdown" TEXT NOT NULL,
    "metadata" JSONB NOT NULL,
    "processingTimeMs" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ProcessedFileCache_pkey" PRIMARY KEY ("workspaceId","cacheKey")
);

-- CreateIndex
CREATE INDEX "StoredFile_workspaceId_createdAt_id_idx" ON "StoredFile"("workspaceId", "createdAt" DESC, "id");

-- CreateIndex
CREATE UNIQUE INDEX "StoredFile_workspaceId_sha256_key" ON "StoredFile"("workspaceId", "sha256");

-- CreateIndex
CREATE INDEX "FileBlob_workspaceId_idx" ON "FileBlob"("workspaceId");

-- CreateIndex
CREATE INDEX "UrlFileCache_fileId_idx" ON "UrlFileCache"("fileId");

-- CreateIndex
CREATE UNIQUE INDEX "UrlFileCache_workspaceId_url_key" ON "UrlFileCache"("workspaceId", "url");

-- CreateIndex
CREATE INDEX "TestCase_files_idx" ON "TestCase" USING GIN ("files" jsonb_path_ops);

-- AddForeignKey
ALTER TABLE "StoredFile" ADD CONSTRAINT "StoredFile_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FileBlob" ADD CONSTRAINT "FileBlob_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UrlFileCache" ADD CONSTRAINT "UrlFileCache_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UrlFileCache" ADD CONSTRAINT "UrlFileCache_fileId_fkey" FOREIGN KEY ("fileId") REFERENCES "StoredFile"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProcessedFileCache" ADD CONSTRAINT "ProcessedFileCache_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Row-level security: every new table with a workspaceId is tenant scoped like the others

ALTER TABLE "StoredFile" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "StoredFile" FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "StoredFile"
    USING (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid)
    WITH CHECK (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid);

ALTER TABLE "FileBlob" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "FileBlob" FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "FileBlob"
    USING (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid)
    WITH CHECK (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid);

ALTER TABLE "UrlFileCache" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "UrlFileCache" FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "UrlFileCache"
    USING (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid)
    WITH CHECK (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid);

ALTER TABLE "ProcessedFileCache" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "ProcessedFileCache" FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "ProcessedFileCache"
    USING (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid)
    WITH CHECK (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid);
