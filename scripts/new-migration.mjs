// Creates prisma/migrations/<timestamp>_<name>/migration.sql from the difference between the
// schema at git HEAD and the working copy. `prisma migrate dev` cannot run here (it downloads
// an engine), so this diffs the two datamodels against a throwaway embedded PostgreSQL.
// Review the SQL afterwards and add what Prisma cannot express (partial unique indexes).
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync, existsSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEmbeddedPostgres } from "./embedded-db.mjs";

const name = (process.argv[2] ?? "").replace(/[^a-z0-9_]/gi, "_");
if (!name) {
  console.error("usage: npm run db:new-migration -- <name>");
  process.exit(1);
}
const tmp = mkdtempSync(path.join(os.tmpdir(), "assay-migration-"));
const hasMigrations = existsSync("prisma/migrations") && readdirSync("prisma/migrations").some((d) => /^\d/.test(d));
let from = ["--from-empty"];
if (hasMigrations) {
  const old = path.join(tmp, "old.prisma");
  writeFileSync(old, execFileSync("git", ["show", "HEAD:prisma/schema.prisma"]));
  from = ["--from-schema-datamodel", old];
}
const db = await startEmbeddedPostgres({ dataDir: tmp });
try {
  await db.ensureDatabase("shadow");
  const sql = execFileSync("npx", ["prisma", "migrate", "diff", ...from, "--to-schema-datamodel", "prisma/schema.prisma", "--script"], {
    env: { ...process.env, DATABASE_URL: db.url("shadow") },
    encoding: "utf8",
  });
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  const dir = path.join("prisma/migrations", `${stamp}_${name}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "migration.sql"), sql);
  if (!existsSync("prisma/migrations/migration_lock.toml")) {
    writeFileSync("prisma/migrations/migration_lock.toml", 'provider = "postgresql"\n');
  }
  console.log(`wrote ${dir}/migration.sql — review it before committing`);
} finally {
  await db.stop();
}
