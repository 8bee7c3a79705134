-- Spec 003 session document fields an imported session carries and an export writes back:
-- TestSession.llms_source_path (null when unknown) and ABTestResult.context_tokens per pair
-- (0 when unknown, as for an executed comparison).

-- AlterTable
ALTER TABLE "Comparison" ADD COLUMN "llmsSourcePath" TEXT;

-- AlterTable
ALTER TABLE "ComparisonPair" ADD COLUMN "contextTokens" INTEGER NOT NULL DEFAULT 0;
