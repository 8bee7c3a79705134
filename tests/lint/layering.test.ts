// Proves the layering rules in eslint.config.mjs fire (and stay quiet for allowed imports), by
// linting small snippets under made-up paths with the project's real config.
import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

const LAYER_RULES = new Set(["no-restricted-imports", "assay/no-server-imports-in-client"]);

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, "../..") });
});

/** The findings of `rules` for `code` as if it lived at `filePath`; fails on a parse error. */
async function findings(filePath: string, code: string, rules: Set<string>): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  if (!result) throw new Error("no lint result");
  const fatal = result.messages.find((m) => m.fatal);
  if (fatal) throw new Error(`${filePath}: ${fatal.message}`);
  return result.messages.filter((m) => m.ruleId && rules.has(m.ruleId)).map((m) => `${m.ruleId}: ${m.message}`);
}

const layering = (filePath: string, code: string) => findings(filePath, code, LAYER_RULES);

describe("lib/ may not import the UI", () => {
  it("reports @/components and @/app from a lib module", { timeout: 60_000 }, async () => {
    const found = await layering("lib/suites/format.ts", `import { Button } from "@/components/ui/button";\nexport const b = Button;\n`);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^no-restricted-imports: .*below the UI layer/);
    expect(await layering("lib/suites/format.ts", `import "@/app/layout";\n`)).toHaveLength(1);
  });

  it("reports a relative path into components/ too", async () => {
    expect(await layering("lib/runs/hooks.ts", `import "../../components/runs/run-view";\n`)).toHaveLength(1);
  });

  it("still applies to data-access modules", async () => {
    expect(await layering("lib/suites/service.ts", `import "@/components/ui/table";\n`)).toHaveLength(1);
  });

  it("allows lib → lib", async () => {
    expect(await layering("lib/suites/format.ts", `import { logger } from "@/lib/logger";\nexport const l = logger;\n`)).toEqual([]);
  });
});

describe("@/lib/db only in data-access modules", () => {
  const importDb = `import { db } from "@/lib/db";\nexport const d = db;\n`;

  it("reports a component, a page and a plain lib module importing it", async () => {
    for (const file of ["components/runs/run-view.tsx", "app/w/[workspaceId]/page.tsx", "lib/suites/format.ts"]) {
      const found = await layering(file, importDb);
      expect(found, file).toHaveLength(1);
      expect(found[0]).toMatch(/^no-restricted-imports: .*Only data-access modules/);
    }
  });

  it("reports a relative import of lib/db", async () => {
    expect(await layering("lib/suites/format.ts", `import "../db";\n`)).toHaveLength(1);
  });

  it("allows services, loaders, the run executor, scripts and tests", async () => {
    for (const file of [
      "lib/suites/service.ts",
      "lib/suites/loaders.ts",
      "lib/runs/executor.ts",
      "lib/test-cases/bulk.ts",
      "scripts/seed-demo.ts",
      "tests/helpers/factories.ts",
    ]) {
      expect(await layering(file, importDb), file).toEqual([]);
    }
  });
});

describe('"use client" modules may not import services, loaders or @/lib/db', () => {
  it("reports a type import from a service, a loader import and @/lib/db", async () => {
    const code = `"use client";
import type { AgentRow } from "@/lib/agents/service";
import { loadSuite } from "@/lib/suites/loaders";
export { db } from "@/lib/db";
export type A = AgentRow;
export const l = loadSuite;
`;
    const found = await layering("components/agents/agent-form.tsx", code);
    expect(found.filter((m) => m.startsWith("assay/no-server-imports-in-client"))).toHaveLength(3);
  });

  it("allows a client module to import DTO types and schemas", async () => {
    const code = `"use client";
import type { AgentDto } from "@/lib/agents/dto";
import { agentInput } from "@/lib/agents/schemas";
export type A = AgentDto;
export const s = agentInput;
`;
    expect(await layering("components/agents/agent-form.tsx", code)).toEqual([]);
  });

  it("allows a server component to import a service", async () => {
    const code = `import { listAgents } from "@/lib/agents/service";\nexport const l = listAgents;\n`;
    expect(await layering("components/agents/agent-list.tsx", code)).toEqual([]);
  });
});

describe("habits: env only through lib/env.ts, no console in app code", () => {
  const HABIT_RULES = new Set(["no-restricted-properties", "no-console"]);
  const code = `export const url = process.env.DATABASE_URL;\nconsole.log(url);\n`;

  it("reports process.env and console in lib, app and components", async () => {
    for (const file of ["lib/suites/format.ts", "app/w/[workspaceId]/page.tsx", "components/runs/run-view.tsx"]) {
      expect(await findings(file, code, HABIT_RULES), file).toHaveLength(2);
    }
  });

  it("allows lib/env.ts to read process.env, and scripts and tests both", async () => {
    expect(await findings("lib/env.ts", `export const raw = process.env;\n`, HABIT_RULES)).toEqual([]);
    expect(await findings("scripts/seed-demo.ts", code, HABIT_RULES)).toEqual([]);
    expect(await findings("tests/helpers/api.ts", code, HABIT_RULES)).toEqual([]);
  });
});
