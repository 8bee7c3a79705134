-- A suite history made of ordinary runs, with short run numbers and content hashes.
--
-- 1. Run numbers. Each suite counts its runs in SuiteRunCounter, and a BEFORE INSERT trigger on
--    Run gives every new run the next number (unique per suite, never reused after a deletion).
--    The counter row is locked by the inserting transaction until it commits, so two runs of a
--    suite never get one number. A separate table, not a Suite column: the scheduler holds the
--    Suite row locked while another connection creates the scheduled run.
-- 2. Content hashes, set by the same trigger from the snapshots (assay_agent_hash and
--    assay_eval_hash) and by the case result insert (assay_case_hash): a verdict that flipped
--    between two runs says whether the agent, the test or neither changed. Only what shapes the
--    execution and the verdict is hashed (no names, tags, ids or timestamps).
-- 3. Run metadata given by the API and the CLI (commit, branch, build URL).
-- 4. History indexes over ordinary runs: comparison arms and matrix combinations are experiments
--    and never part of a suite history (trend, latest run, sparkline, regression baseline).
--    Run_suite_completed_idx keeps its name with the narrower predicate.

-- AlterTable
ALTER TABLE "Run" ADD COLUMN "agentHash" TEXT,
ADD COLUMN "evalHash" TEXT,
ADD COLUMN "metadata" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN "number" INTEGER;

-- AlterTable
ALTER TABLE "CaseResult" ADD COLUMN "caseHash" TEXT;

-- AlterTable
ALTER TABLE "RegressionAlert" ADD COLUMN "delta" JSONB NOT NULL DEFAULT '{}';

-- CreateTable
CREATE TABLE "SuiteRunCounter" (
    "suiteId" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "lastNumber" INTEGER NOT NULL,

    CONSTRAINT "SuiteRunCounter_pkey" PRIMARY KEY ("suiteId")
);

-- CreateIndex
CREATE INDEX "SuiteRunCounter_workspaceId_idx" ON "SuiteRunCounter"("workspaceId");

-- AddForeignKey
ALTER TABLE "SuiteRunCounter" ADD CONSTRAINT "SuiteRunCounter_suiteId_fkey" FOREIGN KEY ("suiteId") REFERENCES "Suite"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SuiteRunCounter" ADD CONSTRAINT "SuiteRunCounter_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Row-level security, as on every tenant table.
ALTER TABLE "SuiteRunCounter" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "SuiteRunCounter" FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "SuiteRunCounter"
    USING (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid)
    WITH CHECK (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid);

-- The hashes. IMMUTABLE: the same snapshot always gives the same hash. Temperature and max tokens
-- are the effective ones (a comparison arm override, else the model configuration default), as
-- the field diff in lib/runs/changes.ts compares them.
CREATE FUNCTION assay_agent_hash(agent jsonb, variables jsonb) RETURNS text LANGUAGE sql IMMUTABLE AS $fn$
  SELECT md5(jsonb_build_object(
    'kind', agent -> 'kind',
    'system_prompt', agent -> 'system_prompt',
    'tools', agent -> 'tools',
    'model', CASE WHEN jsonb_typeof(agent -> 'model_config') = 'object' THEN jsonb_build_object(
        'base_url', agent -> 'model_config' -> 'base_url', 'model', agent -> 'model_config' -> 'model') END,
    'temperature', coalesce(nullif(agent -> 'overrides' -> 'temperature', 'null'), agent -> 'model_config' -> 'temperature'),
    'max_tokens', coalesce(nullif(agent -> 'overrides' -> 'max_tokens', 'null'), agent -> 'model_config' -> 'max_tokens'),
    'http', CASE WHEN jsonb_typeof(agent -> 'http') = 'object' THEN jsonb_build_object(
        'url', agent -> 'http' -> 'url', 'timeout_ms', agent -> 'http' -> 'timeout_ms', 'header_names', agent -> 'http' -> 'header_names') END,
    'variables', variables -> 'values')::text)
$fn$;

CREATE FUNCTION assay_eval_hash(evaluation jsonb) RETURNS text LANGUAGE sql IMMUTABLE AS $fn$
  SELECT md5(jsonb_build_object(
    'judge', CASE WHEN jsonb_typeof(evaluation -> 'judge_model_config') = 'object' THEN jsonb_build_object(
        'base_url', evaluation -> 'judge_model_config' -> 'base_url', 'model', evaluation -> 'judge_model_config' -> 'model') END,
    'simulator', CASE WHEN jsonb_typeof(evaluation -> 'simulator_model_config') = 'object' THEN jsonb_build_object(
        'base_url', evaluation -> 'simulator_model_config' -> 'base_url', 'model', evaluation -> 'simulator_model_config' -> 'model') END,
    'metrics', evaluation -> 'metrics',
    'max_turns_cap', evaluation -> 'max_turns_cap')::text)
$fn$;

CREATE FUNCTION assay_case_hash(snapshot jsonb) RETURNS text LANGUAGE sql IMMUTABLE AS $fn$
  SELECT md5((snapshot - 'id' - 'name' - 'description' - 'difficulty' - 'tags' - 'status')::text)
$fn$;

-- Numbers and hashes for every new run. The body is an E-string with the semicolons written as
-- the octal escape 073: prisma migrate deploy splits a script at every semicolon, dollar quotes
-- included, and would cut a plain plpgsql body apart.
CREATE FUNCTION assay_run_before_insert() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF NEW."number" IS NULL THEN
    INSERT INTO "SuiteRunCounter" ("suiteId", "workspaceId", "lastNumber") VALUES (NEW."suiteId", NEW."workspaceId", 1)
    ON CONFLICT ("suiteId") DO UPDATE SET "lastNumber" = "SuiteRunCounter"."lastNumber" + 1
    RETURNING "lastNumber" INTO NEW."number"\073
  END IF\073
  NEW."agentHash" := assay_agent_hash(NEW."agentSnapshot", NEW."resolvedVariables")\073
  NEW."evalHash" := assay_eval_hash(NEW."evalSnapshot")\073
  RETURN NEW\073
END';

CREATE TRIGGER "Run_before_insert" BEFORE INSERT ON "Run" FOR EACH ROW EXECUTE FUNCTION assay_run_before_insert();

-- Existing runs: numbered per suite in the order they were created, hashed from their snapshots.
UPDATE "Run" r SET "number" = n.rn
FROM (SELECT "id", row_number() OVER (PARTITION BY "suiteId" ORDER BY "createdAt", "id")::int AS rn FROM "Run") n
WHERE r."id" = n."id";
UPDATE "Run" SET "agentHash" = assay_agent_hash("agentSnapshot", "resolvedVariables"), "evalHash" = assay_eval_hash("evalSnapshot");
UPDATE "CaseResult" SET "caseHash" = assay_case_hash("caseSnapshot"::jsonb);
INSERT INTO "SuiteRunCounter" ("suiteId", "workspaceId", "lastNumber")
SELECT "suiteId", min("workspaceId"::text)::uuid, max("number") FROM "Run" GROUP BY "suiteId";

ALTER TABLE "Run" ALTER COLUMN "number" SET NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "Run_suiteId_number_key" ON "Run"("suiteId", "number");

-- History over ordinary runs (see 4 above).
DROP INDEX "Run_suite_completed_idx";
CREATE INDEX "Run_suite_completed_idx" ON "Run"("suiteId", "createdAt" DESC, "id" DESC)
    INCLUDE ("workspaceId")
    WHERE "status" = 'completed' AND "comparisonId" IS NULL AND "matrixId" IS NULL;
CREATE INDEX "Run_suite_history_idx" ON "Run"("suiteId", "createdAt" DESC, "id" DESC)
    INCLUDE ("workspaceId", "status")
    WHERE "comparisonId" IS NULL AND "matrixId" IS NULL;
