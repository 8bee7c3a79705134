import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The documents a newcomer reads stay true to the code: every setting lib/env.ts parses is
 * explained in OPERATIONS.md (the one list of settings), every relative link between the
 * top-level documents lands on a file and a heading that exist, and the README stays short
 * enough to read (the details live in the other documents).
 */

const root = path.resolve(__dirname, "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const DOCUMENTS = ["README.md", "ARCHITECTURE.md", "OPERATIONS.md", "CONTRIBUTING.md", "BENCHMARKS.md"];

/** The keys of lib/env.ts's schema (two-space indented `NAME:` lines inside `z.object({`). */
function envSettings(): string[] {
  const source = read("lib/env.ts");
  const schema = source.slice(source.indexOf("z.object({"));
  return [...schema.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]!);
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchors(markdown: string): Set<string> {
  const withoutCode = markdown.replace(/```[\s\S]*?```/g, "");
  const headings = [...withoutCode.matchAll(/^#+ (.*)$/gm)].map((m) => m[1]!);
  return new Set(
    headings.map((h) =>
      h
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}_\- ]/gu, "")
        .replace(/ /g, "-"),
    ),
  );
}

describe("documentation", () => {
  it("explains every setting of lib/env.ts in OPERATIONS.md", () => {
    const settings = envSettings();
    expect(settings.length).toBeGreaterThan(30);
    const operations = read("OPERATIONS.md");
    expect(settings.filter((name) => !operations.includes(`\`${name}\``))).toEqual([]);
  });

  it("keeps the README under 15 KB, starting with the install and test commands", () => {
    const readme = read("README.md");
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(15 * 1024);
    expect(readme).toContain("npm ci && npm run build && npm start");
    expect(readme).toContain("\nnpm test\n");
  });

  it("links only to files and headings that exist", () => {
    const broken: string[] = [];
    for (const doc of DOCUMENTS) {
      for (const [, target] of read(doc).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [file, anchor] = target!.split("#");
        const targetFile = file || doc;
        let text: string;
        try {
          text = read(targetFile);
        } catch {
          broken.push(`${doc} → ${target} (no such file)`);
          continue;
        }
        if (anchor && targetFile.endsWith(".md") && !anchors(text).has(anchor)) broken.push(`${doc} → ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});
