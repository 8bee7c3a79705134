// The embedded PostgreSQL's superuser has a generated password, kept 0600 in the data directory,
// and a cluster made when the password was the constant "assay" gets a generated one at its next
// start (through the connection the old password still opens).
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { LEGACY_PASSWORD, PASSWORD_FILE, startEmbeddedPostgres } from "../../scripts/embedded-db.mjs";

const dir = mkdtempSync(path.join(os.tmpdir(), "assay-pgpass-"));
chmodSync(dir, 0o711);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Whether the superuser `assay` can sign in with `password` on `port`. */
async function signsIn(port: number, password: string): Promise<boolean> {
  const client = new pg.Client({ host: "127.0.0.1", port, user: "assay", password, database: "postgres" });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch (err) {
    if ((err as { code?: string }).code === "28P01") return false;
    throw err;
  }
}

describe("the embedded superuser's password", () => {
  it("is generated for a new data directory, stored 0600, and the only one that signs in", async () => {
    const dataDir = path.join(dir, "new");
    const db = await startEmbeddedPostgres({ dataDir });
    try {
      const file = path.join(dataDir, PASSWORD_FILE);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const password = readFileSync(file, "utf8").trim();
      expect(password).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(db.url("postgres")).toContain(`:${password}@`);
      expect(await signsIn(db.port, password)).toBe(true);
      expect(await signsIn(db.port, LEGACY_PASSWORD)).toBe(false);
    } finally {
      await db.stop();
    }
    // The next start reads it back.
    const again = await startEmbeddedPostgres({ dataDir });
    await again.stop();
  });

  it("replaces the old constant password of an existing cluster at its next start", async () => {
    const dataDir = path.join(dir, "old");
    // A cluster as older versions left it: the superuser's password is "assay" and no file holds one.
    const first = await startEmbeddedPostgres({ dataDir });
    const admin = new pg.Client({ connectionString: first.url("postgres") });
    await admin.connect();
    await admin.query(`ALTER ROLE "assay" PASSWORD '${LEGACY_PASSWORD}'`);
    await admin.end();
    await first.stop();
    unlinkSync(path.join(dataDir, PASSWORD_FILE));

    const lines: string[] = [];
    const db = await startEmbeddedPostgres({ dataDir, log: (l) => lines.push(l) });
    try {
      const file = path.join(dataDir, PASSWORD_FILE);
      expect(existsSync(`${file}.new`)).toBe(false);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const password = readFileSync(file, "utf8").trim();
      expect(password).not.toBe(LEGACY_PASSWORD);
      expect(await signsIn(db.port, password)).toBe(true);
      expect(await signsIn(db.port, LEGACY_PASSWORD)).toBe(false);
      expect(lines.some((l) => l.includes("replaced the embedded PostgreSQL's fixed superuser password"))).toBe(true);
      // The data survived: the cluster is the same one.
      const client = new pg.Client({ connectionString: db.url("postgres") });
      await client.connect();
      expect((await client.query("SELECT count(*)::int AS n FROM pg_roles WHERE rolname = 'assay'")).rows[0].n).toBe(1);
      await client.end();
    } finally {
      await db.stop();
    }
  });

  it("refuses to start with a stored password the cluster does not accept, saying what to do", async () => {
    const dataDir = path.join(dir, "wrong");
    const first = await startEmbeddedPostgres({ dataDir });
    await first.stop();
    const file = path.join(dataDir, PASSWORD_FILE);
    const { writeFileSync } = await import("node:fs");
    writeFileSync(file, "not-the-password", { mode: 0o600 });
    await expect(startEmbeddedPostgres({ dataDir })).rejects.toThrow(/refused the superuser password.*\n.*Hint: restore that file/s);
  });
});
