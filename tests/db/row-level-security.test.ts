// Row-level security as defence in depth. Connected as the app role (created
// by tests/setup/global-setup.ts with the launcher's ensureAppRole), a query that forgets its
// workspace filter still returns and writes only the declared workspace's rows.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { APP_ROLE, appRoleUrl } from "../../scripts/app-role.mjs";
import { ownerDatabaseUrl } from "../helpers/owner-db";

// Before lib/db is loaded: the app's own client connects as the app role, as in production
// (whatever ASSAY_TEST_DB_ROLE says for the other files).
const appUrl = appRoleUrl(ownerDatabaseUrl(), inject("appRolePassword"));
process.env.DATABASE_URL = appUrl;
const { db } = await import("@/lib/db");
const { scopedLoader, withWorkspaceScope, withoutWorkspaceScope } = await import("@/lib/tenant-scope");

const uid = () => randomBytes(4).toString("hex");

async function makeTenant() {
  const workspace = await db.workspace.create({ data: { name: `ws-${uid()}` } });
  const agent = await db.agent.create({ data: { workspaceId: workspace.id, name: `agent-${uid()}`, kind: "chat" } });
  const suites = await Promise.all(
    [1, 2].map(() => db.suite.create({ data: { workspaceId: workspace.id, agentId: agent.id, name: `suite-${uid()}` } })),
  );
  return { id: workspace.id, agentId: agent.id, suiteIds: suites.map((s) => s.id).sort() };
}

let a: Awaited<ReturnType<typeof makeTenant>>;
let b: Awaited<ReturnType<typeof makeTenant>>;
let client: pg.Client;

beforeAll(async () => {
  // Fixtures through the unscoped client: no workspace declared, nothing filtered.
  a = await makeTenant();
  b = await makeTenant();
  client = new pg.Client({ connectionString: appUrl });
  await client.connect();
});

afterAll(async () => {
  await client.end();
});

/** Runs `fn` in a transaction that declared `workspaceId`, as lib/db.ts does. */
async function asWorkspace<T>(workspaceId: string, fn: () => Promise<T>): Promise<T> {
  await client.query("BEGIN");
  try {
    await client.query("SELECT set_config('app.workspace_id', $1, true)", [workspaceId]);
    return await fn();
  } finally {
    await client.query("ROLLBACK");
  }
}

const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();

describe("the app role", () => {
  it("is no superuser, cannot bypass row-level security, create roles or databases, and owns nothing", async () => {
    const { rows } = await client.query(
      "SELECT current_user AS name, rolsuper, rolbypassrls, rolcreaterole, rolcreatedb FROM pg_roles WHERE rolname = current_user",
    );
    expect(rows).toEqual([{ name: APP_ROLE, rolsuper: false, rolbypassrls: false, rolcreaterole: false, rolcreatedb: false }]);
    const owned = await client.query(
      "SELECT count(*)::int AS n FROM pg_class WHERE relowner = (SELECT oid FROM pg_roles WHERE rolname = current_user)",
    );
    expect(owned.rows[0].n).toBe(0);
    await expect(client.query('DROP TABLE "Suite"')).rejects.toMatchObject({ code: "42501" });
  });

  it("finds row-level security enabled and forced, with a policy, on every table with a workspace", async () => {
    const { rows } = await client.query<{ table: string; enabled: boolean; forced: boolean; policies: number }>(`
      SELECT c.relname AS table, c.relrowsecurity AS enabled, c.relforcerowsecurity AS forced,
             (SELECT count(*)::int FROM pg_policies p WHERE p.schemaname = 'public' AND p.tablename = c.relname) AS policies
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind = 'r'
        AND (c.relname = 'Workspace' OR EXISTS (
          SELECT 1 FROM information_schema.columns col
          WHERE col.table_schema = 'public' AND col.table_name = c.relname AND col.column_name = 'workspaceId'))
      ORDER BY 1`);
    expect(rows.length).toBe(30);
    for (const row of rows) expect(row, row.table).toMatchObject({ enabled: true, forced: true, policies: 1 });
  });
});

describe("plain SQL as the app role", () => {
  it("returns only the declared workspace's rows for a query without a workspace filter", async () => {
    const rows = await asWorkspace(a.id, async () => (await client.query('SELECT * FROM "Suite"')).rows);
    expect(ids(rows)).toEqual(a.suiteIds);
    const workspaces = await asWorkspace(a.id, async () => (await client.query('SELECT id FROM "Workspace"')).rows);
    expect(ids(workspaces)).toEqual([a.id]);
  });

  it("refuses to insert or move a row into another workspace, and cannot touch its rows", async () => {
    await asWorkspace(a.id, async () => {
      await expect(
        client.query(
          'INSERT INTO "Suite" (id, "workspaceId", "agentId", name, "updatedAt") VALUES (gen_random_uuid(), $1, $2, $3, now())',
          [b.id, b.agentId, "smuggled"],
        ),
      ).rejects.toMatchObject({ code: "42501" });
    });
    await asWorkspace(a.id, async () => {
      await expect(client.query('UPDATE "Suite" SET "workspaceId" = $1 WHERE id = $2', [b.id, a.suiteIds[0]])).rejects.toMatchObject({
        code: "42501",
      });
    });
    await asWorkspace(a.id, async () => {
      expect((await client.query('UPDATE "Suite" SET name = $1 WHERE id = $2', ["renamed", b.suiteIds[0]])).rowCount).toBe(0);
      expect((await client.query('DELETE FROM "Suite" WHERE "workspaceId" = $1', [b.id])).rowCount).toBe(0);
    });
  });

  it("numbers runs through the insert trigger inside a declared workspace, one suite's counter apart from another's", async () => {
    const insertRun = async (suiteId: string) =>
      (
        await client.query<{ number: number; agentHash: string }>(
          `INSERT INTO "Run" (id, "workspaceId", "suiteId", "triggeredBy", "agentSnapshot") VALUES (gen_random_uuid(), $1, $2, 'api', '{"system_prompt": "hi"}')
           RETURNING "number", "agentHash"`,
          [a.id, suiteId],
        )
      ).rows[0]!;
    await asWorkspace(a.id, async () => {
      const first = await insertRun(a.suiteIds[0]!);
      const second = await insertRun(a.suiteIds[0]!);
      const other = await insertRun(a.suiteIds[1]!);
      expect([first.number, second.number, other.number]).toEqual([1, 2, 1]);
      expect(first.agentHash).toMatch(/^[0-9a-f]{32}$/);
      expect(second.agentHash).toBe(first.agentHash);
      // Another workspace's counter is out of reach, as any of its rows.
      expect((await client.query('SELECT * FROM "SuiteRunCounter" WHERE "workspaceId" = $1', [b.id])).rowCount).toBe(0);
    });
  });

  it("does not filter a connection that declared no workspace (documented), nor after a scoped transaction ended", async () => {
    const all = ids((await client.query('SELECT id FROM "Suite"')).rows);
    expect(all).toEqual(expect.arrayContaining([...a.suiteIds, ...b.suiteIds]));
    await asWorkspace(b.id, async () => undefined);
    // The setting was transaction-local: the same connection is unfiltered again (it reads '' now).
    expect(ids((await client.query('SELECT id FROM "Suite"')).rows)).toEqual(all);
  });
});

describe("the app's db client inside withWorkspaceScope", () => {
  it("returns only the scope's rows from queries without a workspace filter", async () => {
    const suites = await withWorkspaceScope(a.id, () => db.suite.findMany({ select: { id: true } }));
    expect(ids(suites)).toEqual(a.suiteIds);
    const raw = await withWorkspaceScope(b.id, () => db.$queryRaw<{ id: string }[]>`SELECT id FROM "Suite"`);
    expect(ids(raw)).toEqual(b.suiteIds);
    // Outside the scope, and on the pooled connections it used: everything.
    expect(await db.suite.count()).toBeGreaterThanOrEqual(4);
    expect(await withWorkspaceScope(a.id, () => withoutWorkspaceScope(() => db.suite.count()))).toBeGreaterThanOrEqual(4);
  });

  it("filters interactive and batch transactions too, nested ones included", async () => {
    const seen = await withWorkspaceScope(a.id, () =>
      db.$transaction(async (tx) => {
        const inTx = ids(await tx.suite.findMany({ select: { id: true } }));
        const nested = ids(await db.$transaction(async (tx2) => tx2.suite.findMany({ select: { id: true } })));
        return { inTx, nested, count: await tx.suite.count() };
      }),
    );
    expect(seen).toEqual({ inTx: a.suiteIds, nested: a.suiteIds, count: 2 });
    const [list, count] = await withWorkspaceScope(b.id, () =>
      db.$transaction([db.suite.findMany({ select: { id: true } }), db.suite.count()]),
    );
    expect(ids(list)).toEqual(b.suiteIds);
    expect(count).toBe(2);
  });

  it("refuses writes into another workspace and cannot reach its rows", async () => {
    await expect(
      withWorkspaceScope(a.id, () => db.suite.create({ data: { workspaceId: b.id, agentId: b.agentId, name: "smuggled" } })),
    ).rejects.toThrow(/row-level security/);
    await expect(
      withWorkspaceScope(a.id, () => db.suite.update({ where: { id: b.suiteIds[0] }, data: { name: "renamed" } })),
    ).rejects.toMatchObject({
      code: "P2025",
    });
    const deleted = await withWorkspaceScope(a.id, () => db.suite.deleteMany({ where: { id: { in: b.suiteIds } } }));
    expect(deleted.count).toBe(0);
    expect(await db.suite.count({ where: { workspaceId: b.id } })).toBe(2);
  });
});

describe("page loaders", () => {
  it("run their queries in the workspace of their context", async () => {
    // A loader that forgot its filter still sees only its own workspace's suites.
    const loadAllSuites = scopedLoader(async (_ctx: { workspaceId: string }) => db.suite.findMany({ select: { id: true } }));
    expect(ids(await loadAllSuites({ workspaceId: a.id }))).toEqual(a.suiteIds);
    expect(ids(await loadAllSuites({ workspaceId: b.id }))).toEqual(b.suiteIds);
  });
});
