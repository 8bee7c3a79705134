// Tenant consistency enforced by PostgreSQL (the reference schema): a child row's workspace equals its
// parent's for every parent/child pair that carries workspaceId, through composite foreign keys
// on (parentId, workspaceId). Connected as the app role: a write that would put a row under
// another workspace's parent is refused by the database itself, whatever the service code does
// and whether or not the connection declared a workspace (row-level security checks only the
// row's own workspaceId).
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { appRoleUrl } from "../../scripts/app-role.mjs";

// Before lib/db is loaded: fixtures and tests connect as the app role, as production does.
const appUrl = appRoleUrl(process.env.DATABASE_URL!, inject("appRolePassword"));
process.env.DATABASE_URL = appUrl;
const { db } = await import("@/lib/db");

const uid = () => randomBytes(4).toString("hex");

/**
 * One workspace with a row of every table that has a parent in the same workspace. `slot` keeps
 * the two tenants' per-parent unique values apart (case result position, arm and pair index, run
 * number), so moving a row under the other tenant's parent meets the foreign key, not a unique key.
 */
async function makeTenant(slot: number) {
  const w = await db.workspace.create({ data: { name: `ws-${uid()}` } });
  const workspaceId = w.id;
  const modelConfig = await db.modelConfig.create({
    data: { workspaceId, name: `mc-${uid()}`, baseUrl: "http://127.0.0.1:9/v1", model: "m" },
  });
  const agent = await db.agent.create({ data: { workspaceId, name: `agent-${uid()}`, kind: "chat", modelConfigId: modelConfig.id } });
  const suite = await db.suite.create({
    data: {
      workspaceId,
      agentId: agent.id,
      name: `suite-${uid()}`,
      llmJudgeModelConfigId: modelConfig.id,
      simulatorModelConfigId: modelConfig.id,
    },
  });
  const testCase = await db.testCase.create({ data: { workspaceId, suiteId: suite.id, name: "case" } });
  const comparison = await db.comparison.create({ data: { workspaceId, suiteId: suite.id, name: "cmp" } });
  const matrix = await db.matrix.create({ data: { workspaceId, suiteId: suite.id, name: "matrix", axes: {} } });
  // Runs are numbered per suite from 1: the first `slot` numbers go to runs deleted at once.
  for (let i = 0; i < slot; i++) {
    const gone = await db.run.create({ data: { workspaceId, suiteId: suite.id, triggeredBy: "api", agentSnapshot: {} } });
    await db.run.delete({ where: { id: gone.id } });
  }
  const run = await db.run.create({ data: { workspaceId, suiteId: suite.id, triggeredBy: "api", agentSnapshot: {} } });
  const caseResult = await db.caseResult.create({
    data: { workspaceId, runId: run.id, testCaseId: testCase.id, position: slot, caseSnapshot: {}, name: "case" },
  });
  const llmCall = await db.llmCall.create({
    data: { workspaceId, runId: run.id, caseResultId: caseResult.id, purpose: "agent", request: {} },
  });
  const alert = await db.regressionAlert.create({
    data: { workspaceId, suiteId: suite.id, runId: run.id, passRate: 50, previousRate: 90, dropPercent: 40 },
  });
  const arm = await db.comparisonArm.create({
    data: { workspaceId, comparisonId: comparison.id, index: slot, role: "baseline", label: "A", runId: run.id },
  });
  const pair = await db.comparisonPair.create({
    data: { workspaceId, comparisonId: comparison.id, index: slot, testCaseName: "case", question: "q" },
  });
  const webhook = await db.webhook.create({ data: { workspaceId, url: "http://127.0.0.1:9/hook", secretEncrypted: "x" } });
  const delivery = await db.webhookDelivery.create({ data: { workspaceId, webhookId: webhook.id, event: "run.completed", payload: {} } });
  const preset = await db.suitePreset.create({ data: { workspaceId, suiteId: suite.id, name: `preset-${uid()}` } });
  const file = await db.storedFile.create({
    data: { workspaceId, name: "a.txt", sizeBytes: 1, contentType: "text/plain", sha256: "0".repeat(64), storageKey: `k-${uid()}` },
  });
  const urlFile = await db.urlFileCache.create({ data: { workspaceId, url: `http://127.0.0.1:9/${uid()}`, fileId: file.id } });
  // The item reviews a result of its own, so moving another item onto `caseResult` meets the foreign key, not the one-item-per-result key.
  const reviewed = await db.caseResult.create({
    data: { workspaceId, runId: run.id, testCaseId: testCase.id, position: slot + 10, caseSnapshot: {}, name: "reviewed" },
  });
  const reviewItem = await db.reviewItem.create({
    data: {
      workspaceId,
      suiteId: suite.id,
      runId: run.id,
      caseResultId: reviewed.id,
      source: "manual",
      judgeFingerprint: "f",
      judgeInfo: {},
    },
  });
  const reviewer = await db.user.create({ data: { email: `reviewer-${uid()}@example.test` } });
  const reviewLabel = await db.reviewLabel.create({
    data: { workspaceId, itemId: reviewItem.id, reviewerId: reviewer.id, verdict: "pass" },
  });
  const shareLink = await db.shareLink.create({
    data: { workspaceId, runId: run.id, tokenHash: `hash-${uid()}`, expiresAt: new Date(Date.now() + 86_400_000) },
  });
  // A suite without runs has no run counter yet (the run insert trigger creates it).
  const quietSuite = await db.suite.create({ data: { workspaceId, agentId: agent.id, name: `quiet-${uid()}` } });
  return {
    workspaceId,
    ids: {
      ModelConfig: modelConfig.id,
      Agent: agent.id,
      Suite: suite.id,
      TestCase: testCase.id,
      Comparison: comparison.id,
      Matrix: matrix.id,
      Run: run.id,
      CaseResult: caseResult.id,
      LlmCall: llmCall.id,
      RegressionAlert: alert.id,
      ComparisonArm: arm.id,
      ComparisonPair: pair.id,
      Webhook: webhook.id,
      WebhookDelivery: delivery.id,
      SuitePreset: preset.id,
      StoredFile: file.id,
      UrlFileCache: urlFile.id,
      ReviewItem: reviewItem.id,
      ReviewLabel: reviewLabel.id,
      ShareLink: shareLink.id,
      QuietSuite: quietSuite.id,
    } as Record<string, string>,
  };
}

/** Every child column that points at a parent carrying workspaceId (prisma/schema.prisma relations). */
const PAIRS: { child: string; column: string; parent: string }[] = [
  { child: "Agent", column: "modelConfigId", parent: "ModelConfig" },
  { child: "Suite", column: "agentId", parent: "Agent" },
  { child: "Suite", column: "llmJudgeModelConfigId", parent: "ModelConfig" },
  { child: "Suite", column: "simulatorModelConfigId", parent: "ModelConfig" },
  { child: "TestCase", column: "suiteId", parent: "Suite" },
  { child: "Run", column: "suiteId", parent: "Suite" },
  { child: "Run", column: "comparisonId", parent: "Comparison" },
  { child: "Run", column: "matrixId", parent: "Matrix" },
  { child: "Run", column: "rerunOfId", parent: "Run" },
  { child: "CaseResult", column: "runId", parent: "Run" },
  { child: "CaseResult", column: "testCaseId", parent: "TestCase" },
  { child: "LlmCall", column: "runId", parent: "Run" },
  { child: "LlmCall", column: "caseResultId", parent: "CaseResult" },
  { child: "SuiteRunCounter", column: "suiteId", parent: "Suite" },
  { child: "RegressionAlert", column: "suiteId", parent: "Suite" },
  { child: "RegressionAlert", column: "runId", parent: "Run" },
  { child: "Comparison", column: "suiteId", parent: "Suite" },
  { child: "ComparisonArm", column: "comparisonId", parent: "Comparison" },
  { child: "ComparisonArm", column: "runId", parent: "Run" },
  { child: "ComparisonPair", column: "comparisonId", parent: "Comparison" },
  { child: "WebhookDelivery", column: "webhookId", parent: "Webhook" },
  { child: "SuitePreset", column: "suiteId", parent: "Suite" },
  { child: "Matrix", column: "suiteId", parent: "Suite" },
  { child: "UrlFileCache", column: "fileId", parent: "StoredFile" },
  { child: "ReviewItem", column: "suiteId", parent: "Suite" },
  { child: "ReviewItem", column: "runId", parent: "Run" },
  { child: "ReviewItem", column: "caseResultId", parent: "CaseResult" },
  { child: "ReviewLabel", column: "itemId", parent: "ReviewItem" },
  { child: "ShareLink", column: "runId", parent: "Run" },
  { child: "ShareLink", column: "comparisonId", parent: "Comparison" },
];

let a: Awaited<ReturnType<typeof makeTenant>>;
let b: Awaited<ReturnType<typeof makeTenant>>;
let client: pg.Client;

beforeAll(async () => {
  a = await makeTenant(0);
  b = await makeTenant(1);
  client = new pg.Client({ connectionString: appUrl });
  await client.connect();
});

afterAll(async () => {
  await client.end();
});

/** Runs `fn` in a transaction that is always rolled back, optionally declaring a workspace as lib/db.ts does. */
async function inTransaction<T>(workspaceId: string | null, fn: () => Promise<T>): Promise<T> {
  await client.query("BEGIN");
  try {
    if (workspaceId) await client.query("SELECT set_config('app.workspace_id', $1, true)", [workspaceId]);
    return await fn();
  } finally {
    await client.query("ROLLBACK");
  }
}

describe("tenant consistency enforced by PostgreSQL, as the app role", () => {
  it("covers every relation between two tables that carry workspaceId", async () => {
    // Foreign keys whose both ends have a workspaceId column, by child table and column (the single-column ones).
    const { rows } = await client.query<{ child: string; column: string; parent: string }>(`
      SELECT c.conrelid::regclass::text AS child, a.attname AS column, c.confrelid::regclass::text AS parent
      FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
      WHERE c.contype = 'f' AND array_length(c.conkey, 1) = 1 AND a.attname <> 'workspaceId'
        AND EXISTS (SELECT 1 FROM pg_attribute x WHERE x.attrelid = c.conrelid AND x.attname = 'workspaceId' AND NOT x.attisdropped)
        AND EXISTS (SELECT 1 FROM pg_attribute x WHERE x.attrelid = c.confrelid AND x.attname = 'workspaceId' AND NOT x.attisdropped)`);
    const relations = rows.map((r) => `${r.child.replaceAll('"', "")}.${r.column} → ${r.parent.replaceAll('"', "")}`).sort();
    expect(relations).toEqual(PAIRS.map((p) => `${p.child}.${p.column} → ${p.parent}`).sort());
  });

  it.each(PAIRS)("refuses a $child row whose $column points at another workspace's $parent", async ({ child, column, parent }) => {
    // Moves workspace A's child row under the parent given; a run counter (keyed by its suite) is inserted for a suite without runs.
    const write = (parentId: string) =>
      child === "SuiteRunCounter"
        ? client.query(`INSERT INTO "SuiteRunCounter" ("suiteId", "workspaceId", "lastNumber") VALUES ($1, $2, 0)`, [
            parentId,
            a.workspaceId,
          ])
        : client.query(`UPDATE "${child}" SET "${column}" = $1 WHERE id = $2`, [parentId, a.ids[child]]);
    const foreign = child === "SuiteRunCounter" ? b.ids.QuietSuite! : b.ids[parent]!;
    const own = child === "SuiteRunCounter" ? a.ids.QuietSuite! : a.ids[parent]!;
    for (const declared of [null, a.workspaceId]) {
      await inTransaction(declared, async () => {
        await expect(write(foreign)).rejects.toMatchObject({ code: "23503", constraint: `${child}_${column}_workspaceId_fkey` });
      });
    }
    // The same write within the workspace is fine.
    await inTransaction(a.workspaceId, async () => {
      expect((await write(own)).rowCount).toBe(1);
    });
  });

  it("refuses inserting a case into another workspace's suite, and a result into another workspace's run", async () => {
    await inTransaction(a.workspaceId, async () => {
      await expect(
        client.query(
          `INSERT INTO "TestCase" (id, "workspaceId", "suiteId", name, "updatedAt") VALUES (gen_random_uuid(), $1, $2, 'smuggled', now())`,
          [a.workspaceId, b.ids.Suite],
        ),
      ).rejects.toMatchObject({ code: "23503", constraint: "TestCase_suiteId_workspaceId_fkey" });
    });
    await inTransaction(null, async () => {
      await expect(
        client.query(
          `INSERT INTO "CaseResult" (id, "workspaceId", "runId", position, "caseSnapshot", name) VALUES (gen_random_uuid(), $1, $2, 7, '{}', 'smuggled')`,
          [a.workspaceId, b.ids.Run],
        ),
      ).rejects.toMatchObject({ code: "23503", constraint: "CaseResult_runId_workspaceId_fkey" });
    });
  });

  it("keeps the referential actions: deleting a parent still cascades or clears the reference", async () => {
    await inTransaction(a.workspaceId, async () => {
      // SET NULL clears only the reference column, never the child's workspaceId.
      await client.query(`DELETE FROM "ModelConfig" WHERE id = $1`, [a.ids.ModelConfig]);
      const agent = await client.query(`SELECT "modelConfigId", "workspaceId" FROM "Agent" WHERE id = $1`, [a.ids.Agent]);
      expect(agent.rows).toEqual([{ modelConfigId: null, workspaceId: a.workspaceId }]);
      await client.query(`DELETE FROM "TestCase" WHERE id = $1`, [a.ids.TestCase]);
      expect((await client.query(`SELECT "testCaseId" FROM "CaseResult" WHERE id = $1`, [a.ids.CaseResult])).rows).toEqual([
        { testCaseId: null },
      ]);
      // CASCADE removes the children.
      await client.query(`DELETE FROM "Suite" WHERE id = $1`, [a.ids.Suite]);
      expect((await client.query(`SELECT count(*)::int AS n FROM "CaseResult" WHERE id = $1`, [a.ids.CaseResult])).rows[0].n).toBe(0);
    });
  });
});
