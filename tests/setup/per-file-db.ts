// Gives every test file its own database cloned from the migrated template, before any
// module that reads DATABASE_URL is imported. With ASSAY_TEST_DB_ROLE=app, every test connects
// as the restricted app role (row-level security, no DDL), as production does; the default is the
// superuser that made the database.
import { randomBytes } from "node:crypto";
import { appendFileSync } from "node:fs";
import path from "node:path";
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

// A pool ends only when every connection it lent is back: one the file never returned would hold
// the teardown until the hook's timeout and fail the file with no word of which connection. So the
// pools get CLOSE_DEADLINE_MS; past it, the teardown names the connections still open (what they
// ran last, in what state, for how long) on stderr and in `npm test`'s warnings, and leaves the
// database to go with the test cluster: a forced drop would end those connections under code
// that may not listen for their errors, and fail the run with an uncaught one.
const CLOSE_DEADLINE_MS = 10_000;

// Vitest reads the first parameter as a fixtures pattern (it must be destructured); the file is the second.
// eslint-disable-next-line no-empty-pattern
afterAll(async ({}, suite) => {
  const { db, endPools } = await import("@/lib/db");
  const closed = (async () => {
    await db.$disconnect();
    await endPools();
  })();
  let deadline: NodeJS.Timeout | undefined;
  const late = await Promise.race([
    closed.then(() => false),
    new Promise<boolean>((resolve) => (deadline = setTimeout(resolve, CLOSE_DEADLINE_MS, true))),
  ]).finally(() => clearTimeout(deadline));
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    if (late) await reportOpenConnections(c, path.relative(process.cwd(), suite.file.filepath));
    else await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await c.end();
  }
});

async function reportOpenConnections(admin: pg.Client, file: string) {
  const { rows } = await admin.query<{ line: string }>(
    `SELECT format('pid %s, %s%s, transaction open %s s, last query %s s ago: %s',
                   pid, state, coalesce(' (waiting on ' || wait_event_type || '/' || wait_event || ')', ''),
                   coalesce(round(extract(epoch FROM now() - xact_start))::text, '-'),
                   round(extract(epoch FROM now() - query_start)), left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 160)) AS line
     FROM pg_stat_activity WHERE datname = $1 ORDER BY pid`,
    [name],
  );
  const message = `${file}: the database connections were not all returned ${CLOSE_DEADLINE_MS / 1000} s after the file's tests; open: ${
    rows.map((r) => r.line).join(" | ") || "none on the server"
  }`;
  console.error(message);
  if (process.env.ASSAY_TEST_WARNINGS) appendFileSync(process.env.ASSAY_TEST_WARNINGS, `${message}\n`);
}
