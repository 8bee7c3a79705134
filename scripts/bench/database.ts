// A throwaway, migrated PostgreSQL database for the bench: embedded in a temp dir, or a fresh
// database on the server named by BENCH_DATABASE_URL / DATABASE_URL (dropped afterwards).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { startEmbeddedPostgres } from "../embedded-db.mjs";

export type BenchDatabase = {
  url: string;
  embedded: boolean;
  /** CPU time (ms) of the embedded server's processes so far (Linux only); null for an external server. */
  cpuMs: () => number | null;
  dispose: () => Promise<void>;
};

/** utime+stime (+ cutime+cstime of reaped children when `withChildren`) of a Linux process, in ms. */
function procStatCpuMs(pid: number, withChildren: boolean): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(f[11]) + Number(f[12]) + (withChildren ? Number(f[13]) + Number(f[14]) : 0);
  return ticks * 10; // 100 clock ticks a second
}

/** Sums the CPU of the postmaster and of its live children (the backends). */
function postgresCpuMs(postmaster: number): number | null {
  try {
    let total = procStatCpuMs(postmaster, true);
    for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === postmaster) total += procStatCpuMs(Number(pid), false);
      } catch {
        // the process ended meanwhile
      }
    }
    return total;
  } catch {
    return null;
  }
}

function withDatabase(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

export async function applyMigrations(url: string, root: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const dir = path.join(root, "prisma/migrations");
    for (const name of readdirSync(dir)
      .filter((d) => /^\d/.test(d))
      .sort()) {
      await client.query(readFileSync(path.join(dir, name, "migration.sql"), "utf8"));
    }
  } finally {
    await client.end();
  }
}

export async function openBenchDatabase(root: string, serverUrl: string | undefined): Promise<BenchDatabase> {
  const name = `assay_bench_${randomBytes(4).toString("hex")}`;
  let adminUrl = serverUrl;
  let stopServer: (() => Promise<void>) | undefined;
  let tmp: string | undefined;
  let postmaster: number | undefined;
  if (!adminUrl) {
    tmp = mkdtempSync(path.join(os.tmpdir(), "assay-bench-"));
    const dir = tmp;
    process.once("exit", () => rmSync(dir, { recursive: true, force: true })); // also when the bench crashes
    const server = await startEmbeddedPostgres({ dataDir: tmp });
    adminUrl = server.url("postgres");
    stopServer = server.stop;
    postmaster = server.pid;
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = withDatabase(adminUrl, name);
  await applyMigrations(url, root);
  return {
    url,
    embedded: !serverUrl,
    cpuMs: () => (postmaster ? postgresCpuMs(postmaster) : null),
    async dispose() {
      if (stopServer) {
        await stopServer();
      } else {
        const c = new pg.Client({ connectionString: adminUrl });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      }
      if (tmp) rmSync(tmp, { recursive: true, force: true });
    },
  };
}
