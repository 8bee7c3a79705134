// The database owner's connection to this test file's database, next to `db` (which is the app's
// restricted role under ASSAY_TEST_DB_ROLE=app, the owner otherwise). For what only the owner
// may do or see in every configuration: a query plan without row-level security, a check of the
// app role's grants from outside. Fixtures do not need it: outside a workspace scope the app role
// reads and writes every row.
import pg from "pg";

/** The owner's URL of this file's database (set by tests/setup/per-file-db.ts). */
export function ownerDatabaseUrl(): string {
  const url = process.env.ASSAY_TEST_OWNER_URL;
  if (!url) throw new Error("ASSAY_TEST_OWNER_URL is not set: tests/setup/per-file-db.ts sets it");
  return url;
}

/** Runs `fn` with a fresh owner connection, closed afterwards. */
export async function asOwner<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ownerDatabaseUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
