import { defineConfig } from "vitest/config";
import os from "node:os";
import path from "node:path";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // `server-only` throws outside React Server Components; tests are server code.
      "server-only": path.resolve(import.meta.dirname, "tests/setup/empty.ts"),
    },
  },
  test: {
    environment: "node",
    include: ["tests/**/*.test.ts"],
    // A stray `.only` would silently run one test and report the suite green.
    allowOnly: false,
    globalSetup: ["tests/setup/global-setup.ts"],
    setupFiles: ["tests/setup/per-file-db.ts"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Vitest's default is one worker per core but one; most test files wait on PostgreSQL or on the
    // fake servers' HTTP, not on the CPU, so even a two-core machine runs three at once
    // (on two cores the whole suite took 7.6 min with three workers, 11 min with one on a busier day).
    maxWorkers: Math.max(3, os.availableParallelism() - 1),
    // next-auth imports "next/server" without an extension, which Node's ESM loader refuses;
    // bundled through Vite it resolves, so tests run the real Auth.js.
    server: { deps: { inline: ["next-auth"] } },
  },
});
