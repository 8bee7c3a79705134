// Proves the honest-test rules in eslint.config.mjs fire: a focused, skipped or assertion-free
// test is a lint error in tests/ (Vitest) and e2e/ (Playwright), and an honest test is quiet,
// including one whose assertions live in a project helper.
import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, "../..") });
});

/** The rule ids reported for `code` as if it lived at `filePath` and came from `prefix`; fails on a parse error. */
async function ruleIds(filePath: string, code: string, prefix: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  if (!result) throw new Error("no lint result");
  const fatal = result.messages.find((m) => m.fatal);
  if (fatal) throw new Error(`${filePath}: ${fatal.message}`);
  return result.messages.flatMap((m) => (m.ruleId?.startsWith(prefix) ? [m.ruleId] : []));
}

describe("Vitest tests", () => {
  const file = "tests/suites/made-up.test.ts";
  const vitest = (code: string) => ruleIds(file, `import { describe, expect, it } from "vitest";\n${code}`, "vitest/");

  it("reports .only on a test and a describe", { timeout: 60_000 }, async () => {
    expect(await vitest(`it.only("a", () => { expect(1).toBe(1); });\n`)).toEqual(["vitest/no-focused-tests"]);
    expect(await vitest(`describe.only("d", () => { it("a", () => { expect(1).toBe(1); }); });\n`)).toEqual(["vitest/no-focused-tests"]);
  });

  it("reports a skipped test", async () => {
    expect(await vitest(`it.skip("a", () => { expect(1).toBe(1); });\n`)).toEqual(["vitest/no-disabled-tests"]);
  });

  it("reports a test without an assertion", async () => {
    expect(await vitest(`it("a", async () => { await Promise.resolve(1); });\n`)).toEqual(["vitest/expect-expect"]);
  });

  it("stays quiet for an honest test and for one asserting through a project helper", async () => {
    expect(await vitest(`it("a", () => { expect(1).toBe(1); });\n`)).toEqual([]);
    expect(await vitest(`it("a", async () => { await expect.poll(() => 1).toBe(1); });\n`)).toEqual([]);
    const helper = `const rejection = async (p: Promise<unknown>) => p.catch((e: unknown) => e);\n`;
    expect(await vitest(`${helper}it("a", async () => { await rejection(Promise.reject(new Error("x"))); });\n`)).toEqual([]);
  });
});

describe("Playwright tests", () => {
  const file = "e2e/made-up.spec.ts";
  const pw = (code: string) => ruleIds(file, `import { expect, test } from "@playwright/test";\n${code}`, "playwright/");

  it("reports test.only and test.describe.only", async () => {
    expect(await pw(`test.only("a", async ({ page }) => { await expect(page).toHaveTitle("x"); });\n`)).toEqual([
      "playwright/no-focused-test",
    ]);
    expect(
      await pw(`test.describe.only("d", () => { test("a", async ({ page }) => { await expect(page).toHaveTitle("x"); }); });\n`),
    ).toEqual(["playwright/no-focused-test"]);
  });

  it("reports a skipped test", async () => {
    expect(await pw(`test.skip("a", async ({ page }) => { await expect(page).toHaveTitle("x"); });\n`)).toEqual([
      "playwright/no-skipped-test",
    ]);
  });

  it("reports a test without an assertion", async () => {
    expect(await pw(`test("a", async ({ page }) => { await page.goto("/"); });\n`)).toEqual(["playwright/expect-expect"]);
  });

  it("stays quiet for an honest test and for one asserting through expectAccessible", async () => {
    expect(await pw(`test("a", async ({ page }) => { await expect(page).toHaveTitle("x"); });\n`)).toEqual([]);
    const helper = `const expectAccessible = async (_p: unknown, _n: string) => {};\n`;
    expect(await pw(`${helper}test("a", async ({ page }) => { await expectAccessible(page, "home"); });\n`)).toEqual([]);
  });
});
