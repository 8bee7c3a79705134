// Row locks taken before an update are FOR NO KEY UPDATE. FOR UPDATE also blocks the key-share
// lock PostgreSQL takes on a parent row to check a foreign key, so a transaction holding a
// comparison FOR UPDATE and waiting for one of its runs deadlocked with a finalizer writing that
// run a second time (the second write checks the run's foreign keys). FOR UPDATE is for rows the
// transaction deletes (or whose key it changes), and claims that skip locked rows instead of waiting.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

/** Where FOR UPDATE is right, and why. */
const DELETES = new Map([
  ["lib/files/service.ts", "deleteFile deletes the locked file row"],
  ["lib/traffic/assembler.ts", "the pending rows it locks are deleted by the same statement"],
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .filter((f) => !f.startsWith("lib/generated/"));
}

/** Lines of code (not comments) that lock with FOR UPDATE and wait for the lock. */
function waitingForUpdateLocks(text: string): number[] {
  return text
    .split("\n")
    .flatMap((line, i) => (/FOR UPDATE(?!\s+SKIP LOCKED)/.test(line) && !/^\s*(\/\/|\*|\/\*)/.test(line) ? [i + 1] : []));
}

describe("row locks", () => {
  it("finds a waiting FOR UPDATE and leaves comments, SKIP LOCKED claims and NO KEY locks alone", () => {
    expect(waitingForUpdateLocks('  sql`SELECT 1 FROM "Comparison" WHERE "id" = $1 FOR UPDATE`;')).toEqual([1]);
    expect(waitingForUpdateLocks("x\n   ORDER BY id FOR UPDATE\n  FOR UPDATE OF q")).toEqual([2, 3]);
    expect(waitingForUpdateLocks("  FOR UPDATE SKIP LOCKED")).toEqual([]);
    expect(waitingForUpdateLocks("  FOR NO KEY UPDATE")).toEqual([]);
    expect(waitingForUpdateLocks(" * deleteFile (FOR UPDATE) waits for it")).toEqual([]);
  });

  it("lib/ and app/ lock rows they update FOR NO KEY UPDATE, FOR UPDATE only where the row is deleted", () => {
    const found = [...sourceFiles("lib"), ...sourceFiles("app")].flatMap((file) =>
      DELETES.has(file) ? [] : waitingForUpdateLocks(readFileSync(path.join(root, file), "utf8")).map((line) => `${file}:${line}`),
    );
    expect(found).toEqual([]);
    for (const file of DELETES.keys()) expect(waitingForUpdateLocks(readFileSync(path.join(root, file), "utf8")), file).not.toEqual([]);
  });
});
