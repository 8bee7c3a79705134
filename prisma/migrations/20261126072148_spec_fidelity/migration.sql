-- Spec 002 names user_context and expected_outcomes JSONB. jsonb keeps its own key order, so the
-- authored order of the expected outcome labels moves to expectedOutcomeLabels, filled here from
-- the json columns (which still hold the authored order) before their type changes.
ALTER TABLE "TestCase" ADD COLUMN     "evaluations" JSONB,
ADD COLUMN     "expectedOutcomeLabels" TEXT[] DEFAULT ARRAY[]::TEXT[];

UPDATE "TestCase" SET "expectedOutcomeLabels" = ARRAY(SELECT json_object_keys("expectedOutcomes"))
WHERE "expectedOutcomes" IS NOT NULL AND json_typeof("expectedOutcomes") = 'object';

ALTER TABLE "TestCase" ALTER COLUMN "userContext" SET DATA TYPE JSONB,
ALTER COLUMN "expectedOutcomes" SET DATA TYPE JSONB;
