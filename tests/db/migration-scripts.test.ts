// `prisma migrate deploy` (what `npm start` runs on the embedded PostgreSQL) splits a migration
// script at every semicolon, comments included, while the tests apply each script whole through
// pg. A semicolon in a comment then passes every unit test and breaks the app's start (a comment
// "…sorts them; everything that read…" once became the statement "everything that read…").
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const dir = path.resolve(__dirname, "../../prisma/migrations");
const scripts = readdirSync(dir)
  .filter((d) => /^\d/.test(d))
  .sort()
  .map((d) => ({ name: d, sql: readFileSync(path.join(dir, d, "migration.sql"), "utf8") }));

describe("migration scripts", () => {
  it("exist", () => {
    expect(scripts.length).toBeGreaterThan(20);
  });

  it("have no semicolon in a comment, where prisma migrate deploy would split the script", () => {
    const offending = scripts.flatMap(({ name, sql }) =>
      sql.split("\n").flatMap((line, i) => {
        const comment = line.indexOf("--");
        return comment >= 0 && line.slice(comment).includes(";") ? [`${name}:${i + 1}: ${line.trim()}`] : [];
      }),
    );
    expect(offending).toEqual([]);
  });
});
