// The database role the app connects as: `assay_app` may log in and read and
// write the tables, and nothing else — no superuser (superusers skip row-level security), no
// BYPASSRLS, owns no table (owners may drop and alter them), cannot create databases or roles.
// Migrations keep running as the owner. The embedded launcher and the Vitest setup both call
// ensureAppRole after applying migrations; a DATABASE_URL install runs the same SQL by hand
// (README, "Database roles").
import pg from "pg";

export const APP_ROLE = "assay_app";

/**
 * Creates (or brings back to these attributes and password) the app role, and grants it what
 * the app needs in the database of `ownerUrl`: idempotent, run after every migration so new
 * tables are covered too. `ownerUrl` must belong to a role that may create roles and owns the
 * tables (the embedded superuser).
 * @param {string} ownerUrl
 * @param {{ password: string, role?: string }} opts
 */
export async function ensureAppRole(ownerUrl, { password, role = APP_ROLE }) {
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    const name = client.escapeIdentifier(role);
    const attributes = `LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD ${client.escapeLiteral(password)}`;
    const { rowCount } = await client.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [role]);
    try {
      await client.query(`${rowCount ? "ALTER" : "CREATE"} ROLE ${name} ${attributes}`);
    } catch (err) {
      // Another process created it between the check and here (two test runs on one server).
      if (err?.code !== "42710") throw err;
      await client.query(`ALTER ROLE ${name} ${attributes}`);
    }
    await client.query(`GRANT USAGE ON SCHEMA public TO ${name}`);
    await client.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${name}`);
    await client.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${name}`);
    // Prisma's migration history is the owner's business.
    await client.query(`DO $$ BEGIN
      IF to_regclass('public._prisma_migrations') IS NOT NULL THEN
        REVOKE ALL ON TABLE public._prisma_migrations FROM ${name};
      END IF;
    END $$`);
  } finally {
    await client.end();
  }
}

/** `url` with the app role's credentials instead of the owner's. */
export function appRoleUrl(url, password, role = APP_ROLE) {
  const u = new URL(url);
  u.username = encodeURIComponent(role);
  u.password = encodeURIComponent(password);
  return u.toString();
}
