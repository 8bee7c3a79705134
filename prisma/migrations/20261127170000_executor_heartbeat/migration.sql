-- Executor liveness: every process that executes runs beats its row every couple of seconds, so
-- the health route and the run page can tell a live executor from one that died or is being
-- restarted. Not tenant data (no workspace), so no row-level security.

-- CreateTable
CREATE TABLE "ExecutorHeartbeat" (
    "owner" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "startedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "beatAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ExecutorHeartbeat_pkey" PRIMARY KEY ("owner")
);

-- CreateIndex
CREATE INDEX "ExecutorHeartbeat_beatAt_idx" ON "ExecutorHeartbeat"("beatAt" DESC);
