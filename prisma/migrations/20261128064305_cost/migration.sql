-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "costBreakdown" JSONB,
ADD COLUMN     "costUsd" DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "CaseResult" ADD COLUMN     "costBreakdown" JSONB,
ADD COLUMN     "costUsd" DOUBLE PRECISION;


-- Costs are never negative (hand-added: Prisma cannot express CHECK constraints).
ALTER TABLE "Run" ADD CONSTRAINT "Run_costUsd_check" CHECK ("costUsd" IS NULL OR "costUsd" >= 0);
ALTER TABLE "CaseResult" ADD CONSTRAINT "CaseResult_costUsd_check" CHECK ("costUsd" IS NULL OR "costUsd" >= 0);
