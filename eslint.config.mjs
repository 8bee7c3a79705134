// ESLint flat config: Next.js core-web-vitals + TypeScript rules, plus the layering rules from
// STYLE.md ("thin route → loader/action → server-only service → Prisma") so the layers are held
// by the tool, not by review. tests/lint/layering.test.ts proves each layering rule fires.
// Tests may not be focused, skipped or assertion-free (tests/lint/test-rules.test.ts proves it).
import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import vitest from "@vitest/eslint-plugin";
import playwright from "eslint-plugin-playwright";

// ── Layering ────────────────────────────────────────────────────────────────────────────────

/** `lib/` is below the UI: it may not reach up into components or routes. */
const noUiFromLib = [
  {
    regex: "^@/(components|app)(/|$)",
    message: "lib/ is below the UI layer: move the shared code into lib/ (or pass it in) instead of importing components/ or app/.",
  },
  {
    regex: "^(\\.\\./)+(components|app)(/|$)",
    message: "lib/ is below the UI layer: move the shared code into lib/ (or pass it in) instead of importing components/ or app/.",
  },
];

/** Only data-access modules talk to Prisma; everything else goes through a service or loader. */
const noDb = [
  {
    regex: "^@/lib/db$",
    message:
      "Only data-access modules (lib/**/service.ts, lib/**/loaders.ts, the run executor modules) import @/lib/db. Call a service or loader instead.",
  },
  {
    regex: "^(\\.{1,2}/)+(lib/)?db$",
    message:
      "Only data-access modules (lib/**/service.ts, lib/**/loaders.ts, the run executor modules) import lib/db. Call a service or loader instead.",
  },
];

const restrict = (patterns) => ["error", { patterns }];

/**
 * Modules that may import `@/lib/db` today. Adding a file here is a design decision: prefer
 * putting the query in the feature's service.ts or loaders.ts.
 */
const dataAccessModules = [
  "lib/**/service.ts",
  "lib/**/loaders.ts",
  // The run pipeline uses the pg pool directly on its hot path (see lib/db.ts).
  "lib/runs/{alerts,analytics,answer-diff,batched-start,case-results,case-runner,change-details,claims,executor,export-openai,finalize,prepare,previous-run-changes,recovery,report,rerun,result-writer,run-resources,scheduler,stage-buffer,trial-reads,worker,wakeup}.ts",
  "lib/test-cases/{bulk,last-verdicts,list,import-export,shared,suite-guards,variable-guards}.ts",
  "lib/workspaces/{invitations,members,creation}.ts",
  // Auth data access: the attempt counters and OIDC account linking.
  "lib/auth/rate-limit.ts",
  "lib/users/oidc.ts",
  "lib/demo/seed.ts",
  // The retention cleanup: batched deletes in SQL, run by a cron job and the admin route.
  "lib/retention/cleanup.ts",
  // The comparison engine: pairs built from case results in SQL, finished by the executor.
  "lib/comparisons/{cancel,create,engine,import,pairs,read,report}.ts",
  // The job library (pg-boss) runs its SQL on the app's pg pool.
  "lib/jobs/boss.ts",
  // Webhook events (one INSERT … SELECT per event) and the delivery worker's claim/record queries.
  "lib/webhooks/{events,worker}.ts",
  // Human review: the review rules (a run's results queued in SQL) and the calibration figures.
  "lib/review/{calibration,rules}.ts",
  // File inputs: the PostgreSQL file store and the processing caches (URL downloads, extractions).
  "lib/files/{processing,storage/postgres}.ts",
  // Traffic ingestion: one OTLP export is one transaction of batch statements on the pg pool.
  "lib/traffic/{ingest,assembler}.ts",
  // Provider rate limits: the shared budgets' take and settle functions, on the executor's pool.
  "lib/rate-limits/store.ts",
];

const SERVER_ONLY_SOURCE = /^@\/lib\/.*\/(service|loaders)$|^@\/lib\/db$/;

/**
 * Client components run in the browser: importing a service, loader or the Prisma client (even
 * for a type) drags server-only code into the client graph or couples the UI to the storage
 * shape. Import the DTO type from lib/<feature>/dto.ts instead. Globs cannot see the
 * "use client" directive, so this small rule does.
 */
const noServerImportsInClient = {
  meta: {
    type: "problem",
    docs: { description: 'Disallow importing services, loaders and @/lib/db from "use client" modules' },
    schema: [],
    messages: {
      serverImport:
        '"{{source}}" is server-only: a "use client" module may not import services, loaders or @/lib/db (not even types). Use the DTO type from lib/<feature>/dto.ts and fetch through a route handler or server action.',
    },
  },
  create(context) {
    const first = context.sourceCode.ast.body[0];
    const isClient = first?.type === "ExpressionStatement" && first.directive === "use client";
    if (!isClient) return {};
    const check = (node) => {
      const source = node.source;
      if (source?.type === "Literal" && typeof source.value === "string" && SERVER_ONLY_SOURCE.test(source.value)) {
        context.report({ node, messageId: "serverImport", data: { source: source.value } });
      }
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

const assayPlugin = { meta: { name: "assay" }, rules: { "no-server-imports-in-client": noServerImportsInClient } };

export default defineConfig([
  globalIgnores([
    "node_modules/**",
    ".next/**",
    ".next-*/**",
    ".data/**",
    "lib/generated/**",
    "coverage/**",
    "test-results/**",
    "playwright-report/**",
    "blob-report/**",
    "next-env.d.ts",
    "e2e/.auth/**",
  ]),
  js.configs.recommended,
  ...nextVitals,
  ...nextTs,

  // ── Rule decisions for this codebase ──
  {
    rules: {
      // Unused code is a real finding, but `_`-prefixed names mark a deliberately ignored
      // argument or destructured rest (e.g. `const { secret: _secret, ...rest } = row`).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      "@typescript-eslint/no-unused-expressions": "error",
      // Off: this rule only reports that the React Compiler will skip a component (react-hook-form's
      // `form.watch()`, its documented API). The compiler is not enabled here (no `reactCompiler`
      // in next.config.ts), so the warning has nothing to act on. Turn it back on with the compiler.
      "react-hooks/incompatible-library": "off",
    },
  },

  // ── Habits from STYLE.md for app code (scripts, tests and e2e print and read env freely) ──
  {
    name: "assay/habits: env and logging in app code",
    files: ["lib/**", "app/**", "components/**"],
    rules: {
      // Server code logs through the one pino logger (`logger.error({ err }, "...")`).
      "no-console": "error",
      "no-restricted-properties": [
        "error",
        {
          object: "process",
          property: "env",
          message: "Read configuration from `env` in lib/env.ts (parsed once with zod), not process.env.",
        },
      ],
    },
  },
  {
    name: "assay/habits: the env module reads process.env",
    files: ["lib/env.ts"],
    rules: { "no-restricted-properties": "off" },
  },

  // ── Layering (no-restricted-imports replaces its options per matching block, so each block
  // lists every pattern that applies to its files; later blocks win) ──
  {
    name: "assay/layering: no Prisma outside data access",
    files: ["**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}"],
    rules: { "no-restricted-imports": restrict(noDb) },
  },
  {
    name: "assay/layering: lib is below the UI",
    files: ["lib/**"],
    rules: { "no-restricted-imports": restrict([...noUiFromLib, ...noDb]) },
  },
  {
    name: "assay/layering: data-access modules",
    files: dataAccessModules,
    rules: { "no-restricted-imports": restrict(noUiFromLib) },
  },
  {
    name: "assay/layering: scripts and tests set up data directly",
    files: ["scripts/**", "tests/**"],
    rules: { "no-restricted-imports": "off" },
  },

  // ── Honest tests: a focused test silently drops the rest of the suite, a skipped one hides a
  // failure, one without an assertion passes whatever the code does ──
  {
    name: "assay/tests: Vitest",
    files: ["tests/**/*.test.ts"],
    plugins: { vitest },
    rules: {
      "vitest/no-focused-tests": "error",
      "vitest/no-disabled-tests": "error",
      // expect.poll / expect.soft are expect calls too; the project's own helpers that assert are
      // named `expect…`/`assert…`, and `rejection` (tests/test-cases/fixtures.ts) asserts the
      // error class of a rejected promise.
      "vitest/expect-expect": ["error", { assertFunctionNames: ["expect", "expect.*", "expect*", "assert*", "rejection"] }],
    },
  },
  {
    name: "assay/tests: Playwright",
    files: ["e2e/**/*.ts"],
    plugins: { playwright },
    rules: {
      "playwright/no-focused-test": "error",
      "playwright/no-skipped-test": "error",
      // expectAccessible (e2e/fixtures.ts) runs axe and asserts no violations.
      "playwright/expect-expect": ["error", { assertFunctionPatterns: ["^expect", "^assert"] }],
    },
  },
  {
    name: "assay/layering: client components",
    plugins: { assay: assayPlugin },
    rules: { "assay/no-server-imports-in-client": "error" },
  },
]);
