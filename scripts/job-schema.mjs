// The job library's tables (pg-boss, schema `pgboss`): installed or upgraded by the owner role
// where the migrations run (the launcher's migrate step, the Vitest template database), never
// by the app, which connects as a role that may not run DDL. The app role then gets rows and
// functions in that schema, as it gets them in `public` (./app-role.mjs).
import pg from "pg";
import { PgBoss } from "pg-boss";

export const JOB_SCHEMA = "pgboss";

/**
 * Installs pg-boss's schema in the database of `ownerUrl`, or migrates it to this pg-boss
 * version (idempotent: pg-boss keeps its own version row and takes an advisory lock, so two
 * launchers at once are safe). Starts nothing: no workers, no supervision, no cron.
 * @param {string} ownerUrl
 */
export async function installJobSchema(ownerUrl) {
  const boss = new PgBoss({
    connectionString: ownerUrl,
    schema: JOB_SCHEMA,
    migrate: true,
    supervise: false,
    schedule: false,
    max: 2,
  });
  let failure;
  boss.on("error", (err) => (failure ??= err));
  await boss.start();
  await boss.stop({ graceful: false, close: true });
  if (failure) throw failure;
}

/**
 * Grants `role` what running jobs needs: reading and writing pg-boss's rows and calling its
 * functions (sending a job, creating a queue), no DDL. Run after every install, like ensureAppRole.
 * @param {string} ownerUrl
 * @param {string} role
 */
export async function grantJobSchema(ownerUrl, role) {
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    const name = client.escapeIdentifier(role);
    const schema = client.escapeIdentifier(JOB_SCHEMA);
    await client.query(`GRANT USAGE ON SCHEMA ${schema} TO ${name}`);
    await client.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${name}`);
    await client.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${schema} TO ${name}`);
    await client.query(`GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${schema} TO ${name}`);
  } finally {
    await client.end();
  }
}
