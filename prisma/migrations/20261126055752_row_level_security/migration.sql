-- Item 15 of issue 7: row-level security on every tenant table, as defence in depth.
--
-- A connection that declared its workspace (app.workspace_id, set transaction-local with
-- set_config by lib/db.ts for every query of an API request or server action, see
-- lib/tenant-scope.ts) can only see and write rows of that workspace, whatever its queries
-- forget. A connection that declared none (the executor, the scheduler, sign-in, API-key lookup,
-- invitations by token, headless init, the demo seed, migrations, test fixtures) is not
-- filtered. So this guards against a missing workspaceId filter in request code and is not a
-- boundary against SQL the app itself runs. After a transaction-local set_config the setting
-- reads as an empty string (not NULL) for the rest of the session, hence nullif.
--
-- FORCE applies the policies to the owner of the tables too (an install whose app role owns
-- them). Superusers and BYPASSRLS roles are never filtered, so the app connects as a role with
-- neither (the embedded launcher creates assay_app, see README, Database roles).
-- User, AuthRateLimit and _prisma_migrations carry no workspace and stay unfiltered.
-- (No apostrophes or semicolons in these comments: the statement splitter of prisma migrate
-- deploy reads them as a string start or a statement end.)

-- The workspace itself: a scoped request sees only its own workspace row.
ALTER TABLE "Workspace" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "Workspace" FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "Workspace"
    USING (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "id" = nullif(current_setting('app.workspace_id', true), '')::uuid)
    WITH CHECK (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "id" = nullif(current_setting('app.workspace_id', true), '')::uuid);

ALTER TABLE "Membership" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "Membership" FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "Membership"
    USING (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid)
    WITH CHECK (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid);

ALTER TABLE "Invitation" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "Invitation" FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "Invitation"
    USING (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid)
    WITH CHECK (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid);

ALTER TABLE "ApiKey" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "ApiKey" FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "ApiKey"
    USING (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid)
    WITH CHECK (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid);

ALTER TABLE "ModelConfig" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "ModelConfig" FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "ModelConfig"
    USING (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid)
    WITH CHECK (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid);

ALTER TABLE "Agent" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "Agent" FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "Agent"
    USING (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid)
    WITH CHECK (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid);

ALTER TABLE "Suite" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "Suite" FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "Suite"
    USING (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid)
    WITH CHECK (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid);

ALTER TABLE "TestCase" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "TestCase" FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "TestCase"
    USING (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid)
    WITH CHECK (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid);

ALTER TABLE "Run" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "Run" FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "Run"
    USING (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid)
    WITH CHECK (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid);

ALTER TABLE "CaseResult" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "CaseResult" FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "CaseResult"
    USING (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid)
    WITH CHECK (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid);

ALTER TABLE "LlmCall" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "LlmCall" FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "LlmCall"
    USING (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid)
    WITH CHECK (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid);

ALTER TABLE "RegressionAlert" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "RegressionAlert" FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "RegressionAlert"
    USING (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid)
    WITH CHECK (nullif(current_setting('app.workspace_id', true), '') IS NULL OR "workspaceId" = nullif(current_setting('app.workspace_id', true), '')::uuid);
