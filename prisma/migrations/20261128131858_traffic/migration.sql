-- CreateEnum
CREATE TYPE "ApiKeyScope" AS ENUM ('full', 'ingest');

-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "scope" "ApiKeyScope" NOT NULL DEFAULT 'full';

-- AlterTable
ALTER TABLE "Agent" ADD COLUMN     "otelServiceName" TEXT;

-- AlterTable
ALTER TABLE "TestCase" ADD COLUMN     "source" JSONB;

-- AlterTable
ALTER TABLE "CleanupRecord" ADD COLUMN     "conversationsDeleted" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "TrafficSpan" (
    "workspaceId" UUID NOT NULL,
    "traceId" CHAR(32) NOT NULL,
    "spanId" CHAR(16) NOT NULL,
    "conversationKey" TEXT NOT NULL,
    "startTime" TIMESTAMPTZ(3) NOT NULL,
    "data" JSON NOT NULL,
    "receivedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TrafficSpan_pkey" PRIMARY KEY ("workspaceId","traceId","spanId")
);

-- CreateTable
CREATE TABLE "TrafficConversation" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "externalId" TEXT,
    "serviceName" TEXT,
    "messages" JSON NOT NULL DEFAULT '[]',
    "toolCalls" JSON NOT NULL DEFAULT '[]',
    "toolNames" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "userTurns" INTEGER NOT NULL DEFAULT 0,
    "userText" TEXT NOT NULL DEFAULT '',
    "model" TEXT,
    "inputTokens" INTEGER NOT NULL DEFAULT 0,
    "outputTokens" INTEGER NOT NULL DEFAULT 0,
    "latencyMs" INTEGER NOT NULL DEFAULT 0,
    "llmCalls" INTEGER NOT NULL DEFAULT 0,
    "spanCount" INTEGER NOT NULL DEFAULT 0,
    "hasError" BOOLEAN NOT NULL DEFAULT false,
    "errors" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "traceIds" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "startedAt" TIMESTAMPTZ(3) NOT NULL,
    "endedAt" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "TrafficConversation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TrafficPending" (
    "workspaceId" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TrafficPending_pkey" PRIMARY KEY ("workspaceId","key")
);

-- CreateIndex
CREATE INDEX "TrafficSpan_workspaceId_conversationKey_idx" ON "TrafficSpan"("workspaceId", "conversationKey");

-- CreateIndex
CREATE INDEX "TrafficConversation_workspaceId_startedAt_id_idx" ON "TrafficConversation"("workspaceId", "startedAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "TrafficConversation_workspaceId_serviceName_startedAt_id_idx" ON "TrafficConversation"("workspaceId", "serviceName", "startedAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "TrafficConversation_toolNames_idx" ON "TrafficConversation" USING GIN ("toolNames");

-- CreateIndex
CREATE INDEX "TrafficConversation_endedAt_idx" ON "TrafficConversation"("endedAt");

-- CreateIndex
CREATE UNIQUE INDEX "TrafficConversation_workspaceId_key_key" ON "TrafficConversation"("workspaceId", "key");

-- CreateIndex
CREATE UNIQUE INDEX "TrafficConversation_id_workspaceId_key" ON "TrafficConversation"("id", "workspaceId");

-- CreateIndex
CREATE UNIQUE INDEX "Agent_workspaceId_otelServiceName_key" ON "Agent"("workspaceId", "otelServiceName");

-- AddForeignKey
ALTER TABLE "TrafficPending" ADD CONSTRAINT "TrafficPending_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TrafficSpan" ADD CONSTRAINT "TrafficSpan_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TrafficConversation" ADD CONSTRAINT "TrafficConversation_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Text search in the user's messages (ILIKE '%…%') uses a trigram index, as case search does.
CREATE INDEX "TrafficConversation_userText_trgm_idx" ON "TrafficConversation" USING gin ("userText" gin_trgm_ops);

-- Row-level security as on every tenant table (migration row_level_security).
ALTER TABLE "TrafficSpan" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "TrafficSpan" FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "TrafficSpan"
    USING (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid)
    WITH CHECK (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid);
ALTER TABLE "TrafficPending" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "TrafficPending" FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "TrafficPending"
    USING (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid)
    WITH CHECK (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid);
ALTER TABLE "TrafficConversation" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "TrafficConversation" FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "TrafficConversation"
    USING (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid)
    WITH CHECK (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid);
