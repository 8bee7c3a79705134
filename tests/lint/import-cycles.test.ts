// Proves the no-circular rule in .dependency-cruiser.cjs fires: the real config and CLI (what
// `npm run lint:cycles` runs) on small fixture trees in a temporary directory, then on the real tree.
import { execFile } from "node:child_process";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const CONFIG = path.join(ROOT, ".dependency-cruiser.cjs");
const DEPCRUISE = path.join(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruiser.mjs");

/** Runs the cycle check in `cwd` over lib/, components/ and app/: its exit code and report. */
async function cruise(cwd: string, dirs: string[]): Promise<{ code: number; report: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [DEPCRUISE, ...dirs, "--config", CONFIG, "--output-type", "err"], {
      cwd,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, report: stdout };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, report: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

let fixture: string | undefined;
afterEach(async () => {
  if (fixture) await rm(fixture, { recursive: true, force: true });
  fixture = undefined;
});

/** A temporary project with the `@/` alias and the given files. */
async function project(files: Record<string, string>): Promise<string> {
  fixture = await mkdtemp(path.join(os.tmpdir(), "assay-cycles-"));
  const all = { "tsconfig.json": JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "@/*": ["./*"] } } }), ...files };
  for (const [name, text] of Object.entries(all)) {
    await mkdir(path.dirname(path.join(fixture, name)), { recursive: true });
    await writeFile(path.join(fixture, name), text);
  }
  return fixture;
}

describe("no-circular", () => {
  it("reports a runtime cycle through the @/ alias", { timeout: 60_000 }, async () => {
    const dir = await project({
      "lib/a.ts": `import { b } from "@/lib/b";\nexport const a = () => b();\n`,
      "lib/b.ts": `import { a } from "@/lib/a";\nexport const b = () => a();\n`,
    });
    const { code, report } = await cruise(dir, ["lib"]);
    expect(code).not.toBe(0);
    expect(report).toMatch(/no-circular: lib\/a\.ts/);
  });

  it("reports a cycle closed by a dynamic import()", { timeout: 60_000 }, async () => {
    const dir = await project({
      "lib/low.ts": `export async function low() {\n  const { high } = await import("@/lib/high");\n  return high;\n}\n`,
      "lib/high.ts": `import { low } from "@/lib/low";\nexport const high = () => low();\n`,
    });
    const { code, report } = await cruise(dir, ["lib"]);
    expect(code).not.toBe(0);
    expect(report).toMatch(/no-circular: lib\/(low|high)\.ts/);
  });

  it("reports a cycle between components/ and lib/", { timeout: 60_000 }, async () => {
    const dir = await project({
      "components/view.tsx": `import { format } from "../lib/format";\nexport const View = () => format();\n`,
      "lib/format.ts": `import { View } from "@/components/view";\nexport const format = () => String(View);\n`,
    });
    const { code } = await cruise(dir, ["lib", "components"]);
    expect(code).not.toBe(0);
  });

  it("ignores a cycle with a type-only edge (erased before the code runs)", { timeout: 60_000 }, async () => {
    const dir = await project({
      "lib/a.ts": `import { b } from "@/lib/b";\nexport type A = { n: number };\nexport const a = () => b({ n: 1 });\n`,
      "lib/b.ts": `import type { A } from "@/lib/a";\nexport const b = (x: A) => x.n;\n`,
      "lib/c.ts": `import { d } from "@/lib/d";\nexport type C = string;\nexport const c = () => d("x");\n`,
      "lib/d.ts": `import { type C } from "@/lib/c";\nexport const d = (x: C) => x;\n`,
    });
    const { code, report } = await cruise(dir, ["lib"]);
    expect(report).not.toMatch(/no-circular/);
    expect(code).toBe(0);
  });

  it("passes on the real tree", { timeout: 120_000 }, async () => {
    const { code, report } = await cruise(ROOT, ["lib", "components", "app"]);
    expect(report).not.toMatch(/no-circular/);
    expect(code).toBe(0);
  });
});
