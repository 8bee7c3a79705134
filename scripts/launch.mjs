// Assay launcher: one entry point for `npm run dev`, `npm start`, `npm run db:migrate`,
// `npm run seed:demo` and `npm run worker`.
//  1. secret: AUTH_SECRET/ASSAY_SECRET from env, or one generated once into the data dir;
//  2. database: DATABASE_URL from env, or an embedded PostgreSQL in ASSAY_DATA_DIR (.data);
//  3. migrations: `prisma migrate deploy` when a migration is not yet applied, as the tables'
//     owner (the embedded superuser, or DATABASE_MIGRATION_URL when set, else DATABASE_URL);
//  4. embedded only: the app role `assay_app` (no superuser, owns nothing, no BYPASSRLS, so
//     row-level security applies to it) is ensured after every migrate, and the app processes
//     get a DATABASE_URL for it, never the owner's;
//  5. the mode's processes under a supervisor (./supervisor.mjs) that restarts one that dies;
//     signals stop them all, and the embedded database stops last.
import "./check-node.mjs";
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { postgresUser, startEmbeddedPostgres, userCanReach } from "./embedded-db.mjs";
import { APP_ROLE, appRoleUrl, ensureAppRole } from "./app-role.mjs";
import { grantJobSchema, installJobSchema } from "./job-schema.mjs";
import { processStartTicks, sameProcessAlive } from "./processes.mjs";
import { Supervisor } from "./supervisor.mjs";

const MODES = ["dev", "start", "migrate", "db", "seed-demo", "worker"];
const mode = process.argv[2];
if (!MODES.includes(mode)) {
  console.error(`usage: node scripts/launch.mjs <${MODES.join("|")}>`);
  process.exit(2);
}

const log = (msg) => console.log(`[assay] ${msg}`);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const env = { ...process.env };
const dataDir = chooseDataDir();

/**
 * ASSAY_DATA_DIR, else `.data` in the checkout. As root the embedded server runs as the
 * `postgres` user, which cannot reach a checkout in a private folder (/root, `mktemp -d`):
 * a new install there keeps its data in /var/lib/assay/<checkout>-<hash> instead.
 */
function chooseDataDir() {
  if (process.env.ASSAY_DATA_DIR) return path.resolve(process.env.ASSAY_DATA_DIR);
  const local = path.join(root, ".data");
  if (process.getuid?.() !== 0 || env.DATABASE_URL || existsSync(path.join(local, "pg", "PG_VERSION"))) return local;
  if (userCanReach(postgresUser(), root)) return local;
  const id = createHash("sha256").update(root).digest("hex").slice(0, 8);
  const dir = path.join("/var/lib/assay", `${path.basename(root)}-${id}`);
  log(`${root} is private to root and PostgreSQL runs as \`postgres\`, so the data lives in ${dir} (set ASSAY_DATA_DIR to choose)`);
  return dir;
}

/** The data directory private to its owner (parents, such as /var/lib/assay, stay searchable). */
function makeDataDir() {
  mkdirSync(path.dirname(dataDir), { recursive: true });
  if (!existsSync(dataDir)) mkdirSync(dataDir, { mode: 0o700 });
}

/** A secret generated once into the data directory, mode 0600 (also fixed on older files). */
function dataDirSecret(name, bytes = 32) {
  makeDataDir();
  const file = path.join(dataDir, name);
  if (!existsSync(file)) writeFileSync(file, randomBytes(bytes).toString("base64url"), { mode: 0o600 });
  if ((statSync(file).mode & 0o777) !== 0o600) chmodSync(file, 0o600); // older installs, odd umasks
  return { file, value: readFileSync(file, "utf8").trim() };
}

function ensureSecret() {
  if (env.AUTH_SECRET || env.ASSAY_SECRET) {
    env.AUTH_SECRET ??= env.ASSAY_SECRET;
    return;
  }
  const isNew = !existsSync(path.join(dataDir, "secret"));
  const { file, value } = dataDirSecret("secret");
  if (isNew) log(`generated a secret in ${file} (set AUTH_SECRET in production and keep it: it encrypts stored API keys)`);
  env.AUTH_SECRET = value;
}

/**
 * The app process of this mode is recorded in the data directory. A launcher killed with
 * SIGKILL leaves its child (`next start`, the worker) running with the port and old leases;
 * the next launcher stops that orphan before starting a new one.
 */
const childRecord = path.join(dataDir, `launcher-${mode}.json`);

async function stopOrphanedChild() {
  let rec;
  try {
    rec = JSON.parse(readFileSync(childRecord, "utf8"));
  } catch {
    return;
  }
  if (sameProcessAlive(rec.launcher)) return;
  // Records written before the executor process existed name one `child`.
  const orphans = (rec.children ?? (rec.child ? [rec.child] : [])).filter((c) => sameProcessAlive(c));
  if (orphans.length === 0) return;
  log(`stopping the app process(es) (pid ${orphans.map((c) => c.pid).join(", ")}) left running by a launcher that died`);
  const kill = (c, signal) => {
    try {
      process.kill(c.pid, signal);
    } catch {
      // already gone
    }
  };
  for (const c of orphans) kill(c, "SIGTERM");
  for (let i = 0; i < 100 && orphans.some((c) => sameProcessAlive(c)); i++) await new Promise((r) => setTimeout(r, 100));
  for (const c of orphans) if (sameProcessAlive(c)) kill(c, "SIGKILL");
}

/** Records this launcher's app processes (the web server, its executor process, a worker), again after each restart. */
function recordChildren() {
  const me = { pid: process.pid, start: processStartTicks(process.pid) };
  const procs = supervisor.processes().map((c) => ({ pid: c.pid, start: processStartTicks(c.pid) }));
  writeFileSync(childRecord, JSON.stringify({ launcher: me, children: procs }));
}

/** What the supervised processes are doing, for /api/health (ASSAY_SUPERVISOR_STATE). */
const supervisorState = path.join(dataDir, `supervisor-${mode}.json`);
const supervisor = new Supervisor({ log, stateFile: supervisorState, onChange: () => recordChildren() });

/**
 * Starts one of the mode's app processes under the supervisor: restarted when it dies, unless
 * `restart: false` (the dev server), whose exit stops the launcher.
 */
function startChild(name, cmd, args, extraEnv = {}, { restart = true } = {}) {
  return supervisor.start(name, cmd, args, {
    cwd: root,
    env: { ...env, ASSAY_SUPERVISOR_STATE: supervisorState, ...extraEnv },
    restart,
    onExit: (code) => void shutdown(code),
  });
}

async function pendingMigrations(url) {
  const dirs = readdirSync(path.join(root, "prisma/migrations"), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const applied = new Set(rows.map((r) => r.migration_name));
    return dirs.filter((d) => !applied.has(d));
  } catch {
    return dirs; // no migrations table yet
  } finally {
    await client.end();
  }
}

function run(cmd, args, extraEnv = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...env, ...extraEnv }, stdio: "inherit" });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function migrate(ownerUrl) {
  const pending = await pendingMigrations(ownerUrl);
  if (pending.length === 0) return;
  log(`applying ${pending.length} migration(s)`);
  const code = await run(path.join(root, "node_modules/.bin/prisma"), ["migrate", "deploy"], { DATABASE_URL: ownerUrl });
  if (code !== 0) throw new Error("prisma migrate deploy failed");
}

let db = null;
let shuttingDown = false;

async function shutdown(code) {
  if (shuttingDown) return;
  shuttingDown = true;
  await supervisor.stopAll(10_000);
  rmSync(childRecord, { force: true });
  rmSync(supervisorState, { force: true });
  if (db) {
    log("stopping the embedded PostgreSQL");
    await db.stop().catch((err) => console.error(err));
  }
  process.exit(code);
}

process.on("SIGINT", () => void shutdown(130));
process.on("SIGTERM", () => void shutdown(143));

try {
  ensureSecret();
  makeDataDir();
  await stopOrphanedChild();
  // Migrations run as the tables' owner; the app processes never get the owner's URL.
  let ownerUrl = env.DATABASE_MIGRATION_URL || env.DATABASE_URL;
  delete env.DATABASE_MIGRATION_URL;
  if (!env.DATABASE_URL) {
    const port = env.ASSAY_DB_PORT ? Number(env.ASSAY_DB_PORT) : undefined;
    // PostgreSQL's own lines stay quiet; a failed start reports its last ones.
    db = await startEmbeddedPostgres({ dataDir, port, log });
    await db.ensureDatabase("assay");
    ownerUrl = db.url("assay");
    log(`embedded PostgreSQL on 127.0.0.1:${db.port} (data in ${path.join(dataDir, "pg")})`);
  }
  await migrate(ownerUrl);
  // The job library's tables (lib/jobs), installed or upgraded by the owner like the migrations.
  await installJobSchema(ownerUrl);
  if (db) {
    // After every migrate, so tables added by a new migration are granted too.
    const password = dataDirSecret("app-db-password", 24).value;
    await ensureAppRole(ownerUrl, { password });
    await grantJobSchema(ownerUrl, APP_ROLE);
    env.DATABASE_URL = appRoleUrl(ownerUrl, password);
  }

  const port = env.PORT || "3000";
  const bin = (name) => path.join(root, "node_modules/.bin", name);
  const tsx = ["--conditions=react-server", "--import", "tsx"];
  switch (mode) {
    case "migrate":
      await shutdown(0);
      break;
    case "db":
      log(`DATABASE_URL=${env.DATABASE_URL}`);
      if (db) log(`owner (migrations, tests' TEST_DATABASE_URL): ${ownerUrl} — the app connects as ${APP_ROLE}`);
      log("press Ctrl+C to stop");
      break;
    case "seed-demo":
      await shutdown(await run(process.execPath, [...tsx, "scripts/seed-demo.ts", ...process.argv.slice(3)]));
      break;
    case "worker":
      startChild("executor", process.execPath, [...tsx, "scripts/worker.ts"]);
      break;
    case "start": {
      if (!existsSync(path.join(root, env.ASSAY_DIST_DIR || ".next", "BUILD_ID"))) {
        console.error("[assay] no production build found: run `npm run build` first");
        await shutdown(1);
      }
      // ASSAY_EXECUTOR=process (the default here): the executor runs in its own process beside
      // the web server, so the pages it renders never hold a run up (lib/runs/README.md, "Many
      // viewers"); `on` keeps it inside the web process, `off` leaves runs to workers elsewhere.
      const executor = env.ASSAY_EXECUTOR || "process";
      // Idle keep-alive connections stay open 65 s (Node's default is 5 s): longer than the idle
      // timeout of the proxies put in front (60 s), so none sends a request on a connection the
      // server is closing at that moment (the client gets ECONNRESET).
      startChild("web", bin("next"), ["start", "-p", port, "--keepAliveTimeout", "65000"], { ASSAY_EXECUTOR: executor });
      if (executor === "process") {
        log("the run executor runs in its own process (ASSAY_EXECUTOR=process)");
        startChild("executor", process.execPath, [...tsx, "scripts/worker.ts"], { ASSAY_EXECUTOR: executor });
      }
      break;
    }
    case "dev":
      // The dev server keeps the executor inside itself (hot reload); `process` is `npm start`'s.
      startChild("web", bin("next"), ["dev", "-p", port], env.ASSAY_EXECUTOR === "process" ? { ASSAY_EXECUTOR: "on" } : {}, {
        restart: false,
      });
      break;
  }
} catch (err) {
  console.error(`[assay] ${err instanceof Error ? err.message : `start-up failed: ${String(err)}`}`);
  await shutdown(1);
}
