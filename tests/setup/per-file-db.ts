// Gives every test file its own database cloned from the migrated template, before any
// module that reads DATABASE_URL is imported. With ASSAY_TEST_DB_ROLE=app, every test connects
// as the restricted app role (row-level security, no DDL), as production does; the default is the
// superuser that made the database.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import { appRoleUrl } from "../../scripts/app-role.mjs";

const adminUrl = inject("adminDatabaseUrl");
const template = inject("templateDatabase");
const name = `assay_t_${randomBytes(6).toString("hex")}`;

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
// FILE_COPY copies the template's files as they are instead of writing every page to the WAL:
// with the embedded cluster's flushes off (tests/setup/global-setup.ts) its checkpoints cost
// nothing, and the clone took half as long.
await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template} STRATEGY FILE_COPY`);
await admin.end();

const url = new URL(adminUrl);
url.pathname = `/${name}`;
// The owner's URL stays available (tests/helpers/owner-db.ts) for the few set-up steps and
// checks that are the owner's business whatever role the tests run as.
process.env.ASSAY_TEST_OWNER_URL = url.toString();
process.env.DATABASE_URL =
  process.env.ASSAY_TEST_DB_ROLE === "app" ? appRoleUrl(url.toString(), inject("appRolePassword")) : url.toString();
process.env.AUTH_SECRET ??= "test-secret-test-secret-test-secret-0123";
(process.env as Record<string, string>).NODE_ENV = "test";

// What follows a finished run, registered as every process that finalizes runs does at start-up.
// In a hook, not at import: some test files point lib/ at another database or setting before
// they load it, and these subscribers load lib/db.
beforeAll(async () => {
  await import("@/lib/run-finished-subscribers");
});

afterAll(async () => {
  const { db, endPools } = await import("@/lib/db");
  await db.$disconnect();
  await endPools();
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await c.end();
});
