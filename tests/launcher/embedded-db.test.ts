// The embedded PostgreSQL helper after a crash: whatever the dead owner left behind (its
// postmaster still running, or a stale lock with orphaned backends), the next start succeeds;
// a live owner is refused; a real failure reports PostgreSQL's own lines and a hint.
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres } from "../../scripts/embedded-db.mjs";

const helper = path.resolve("scripts/embedded-db.mjs");
const dir = mkdtempSync(path.join(os.tmpdir(), "assay-embedded-"));
chmodSync(dir, 0o711);
const owners: ChildProcess[] = [];

afterAll(() => {
  for (const c of owners) {
    try {
      process.kill(-c.pid!, "SIGKILL"); // the owner and its PostgreSQL, if still there
    } catch {
      // already gone
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

/** Another process (its own process group) that starts the cluster and keeps a connection busy. */
async function owner(dataDir: string): Promise<ChildProcess> {
  const code = `
    import pg from "pg";
    import { startEmbeddedPostgres } from ${JSON.stringify(helper)};
    const db = await startEmbeddedPostgres({ dataDir: process.argv[1] });
    const c = new pg.Client({ connectionString: db.url("postgres") });
    await c.connect();
    await c.query("CREATE TABLE IF NOT EXISTS t (x int)");
    console.log("ready");
    for (;;) await c.query("INSERT INTO t SELECT generate_series(1, 500)");`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", code, dataDir], {
    detached: true,
    stdio: ["ignore", "pipe", "inherit"],
  });
  owners.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (d) => String(d).includes("ready") && resolve());
    child.once("exit", (code) => reject(new Error(`owner exited with ${code}`)));
  });
  return child;
}

async function startAgain(dataDir: string) {
  const lines: string[] = [];
  const started = Date.now();
  const db = await startEmbeddedPostgres({ dataDir, log: (l) => lines.push(l) });
  const ms = Date.now() - started;
  await db.stop();
  return { lines, ms };
}

describe("embedded PostgreSQL after a crash", () => {
  const dataDir = path.join(dir, "data");

  it("starts at once after SIGKILL of the owner's whole process group", async () => {
    const c = await owner(dataDir);
    process.kill(-c.pid!, "SIGKILL");
    const { ms } = await startAgain(dataDir);
    expect(ms).toBeLessThan(15_000);
  }, 60_000);

  it("stops a postmaster left running by an owner that alone was SIGKILLed", async () => {
    const c = await owner(dataDir);
    process.kill(c.pid!, "SIGKILL");
    const { lines } = await startAgain(dataDir);
    expect(lines.join("\n")).toMatch(/stopping the PostgreSQL \(pid \d+\) left running by a process that died/);
  }, 60_000);

  it("refuses a cluster whose owner is alive, in one sentence", async () => {
    const c = await owner(dataDir);
    await expect(startEmbeddedPostgres({ dataDir, waitMs: 1_000 })).rejects.toThrow(
      new RegExp(`^a running process \\(pid ${c.pid}\\) has PostgreSQL on .*; stop it first`),
    );
    process.kill(-c.pid!, "SIGTERM");
  }, 60_000);

  it("reports PostgreSQL's own lines and a hint when it cannot start", async () => {
    const broken = path.join(dir, "broken");
    await startAgain(broken);
    rmSync(path.join(broken, "pg", "global", "pg_control"));
    const err = await startEmbeddedPostgres({ dataDir: broken, waitMs: 1_000 }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(
      /PostgreSQL did not start \(exit code \d+\)[\s\S]*PostgreSQL said:[\s\S]*pg_control[\s\S]*Hint: /,
    );
    expect((err as Error).message).not.toMatch(/undefined/);
  }, 60_000);
});
