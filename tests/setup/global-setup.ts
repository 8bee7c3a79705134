// Starts one PostgreSQL for the whole Vitest run (embedded, or TEST_DATABASE_URL's server),
// and builds a template database by applying prisma/migrations/*/migration.sql directly
// (`prisma migrate deploy` takes 11 s), then the app role as the launcher makes it (cloned
// databases keep its grants) and the job library's schema. Each test file then clones the template; fixtures connect as the
// superuser, tests/db/row-level-security.test.ts as the app role.
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../../scripts/embedded-db.mjs";
import { APP_ROLE, ensureAppRole } from "../../scripts/app-role.mjs";
import { grantJobSchema, installJobSchema } from "../../scripts/job-schema.mjs";

const TEMPLATE = "assay_test_template";

export default async function setup(project: TestProject) {
  let adminUrl = process.env.TEST_DATABASE_URL;
  let stop: (() => Promise<void>) | undefined;
  let tmp: string | undefined;
  if (!adminUrl) {
    tmp = mkdtempSync(path.join(os.tmpdir(), "assay-vitest-"));
    const server = await startEmbeddedPostgres({ dataDir: tmp });
    adminUrl = server.url("postgres");
    stop = server.stop;
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  if (stop) await skipDurability(admin);
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${TEMPLATE}`);
  await admin.end();

  const templateUrl = withDatabase(adminUrl, TEMPLATE);
  const client = new pg.Client({ connectionString: templateUrl });
  await client.connect();
  const dir = path.resolve("prisma/migrations");
  for (const name of readdirSync(dir)
    .filter((d) => /^\d/.test(d))
    .sort()) {
    await client.query(readFileSync(path.join(dir, name, "migration.sql"), "utf8"));
  }
  await client.end();
  const appRolePassword = randomBytes(18).toString("base64url");
  await ensureAppRole(templateUrl, { password: appRolePassword });
  // The job library's schema, as the launcher installs it: every cloned database has it, so no
  // test file pays for it.
  await installJobSchema(templateUrl);
  await grantJobSchema(templateUrl, APP_ROLE);

  project.provide("adminDatabaseUrl", adminUrl);
  project.provide("templateDatabase", TEMPLATE);
  project.provide("appRolePassword", appRolePassword);

  return async () => {
    await stop?.();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  };
}

/**
 * The embedded cluster lives for one test run in a temporary directory: nothing in it has to
 * survive a crash of the machine, so it skips flushing to disk (each test file creates and drops
 * a database and commits thousands of small transactions; on a shared disk the flushes dominated).
 * Only this throwaway cluster: a server given in TEST_DATABASE_URL keeps its own settings.
 */
async function skipDurability(admin: pg.Client) {
  for (const setting of ["fsync = off", "synchronous_commit = off", "full_page_writes = off"]) {
    await admin.query(`ALTER SYSTEM SET ${setting}`);
  }
  await admin.query("SELECT pg_reload_conf()");
}

export function withDatabase(url: string, db: string) {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

declare module "vitest" {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
    templateDatabase: string;
    appRolePassword: string;
  }
}
