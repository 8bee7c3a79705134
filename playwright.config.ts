import { defineConfig } from "@playwright/test";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const PORT = Number(process.env.E2E_PORT ?? 3100);
export const FAKE_OPENAI_PORT = Number(process.env.E2E_FAKE_OPENAI_PORT ?? 3199);
/** Signed-in state of the first-run admin, per port so parallel Playwright runs never share it. */
export const ADMIN_STATE = `e2e/.auth/admin-${PORT}.json`;
// A fresh data directory per run: first-run setup happens in the browser.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), "assay-e2e-"));
process.env.E2E_DATA_DIR = dataDir;

export default defineConfig({
  testDir: "e2e",
  // Spec files run two at a time (the tests of one file stay in order in one worker): against one
  // server, one database and one fake OpenAI server, so every spec works in its own workspace and
  // scopes its fake rules (the conventions at the top of e2e/fixtures.ts). The few tests that
  // read or stop something instance-wide are tagged @solo and run alone, first.
  fullyParallel: false,
  workers: 2,
  retries: 0,
  // A stray `test.only` would silently run one test and report the suite green.
  forbidOnly: true,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  globalSetup: "./e2e/global-setup.ts",
  use: {
    baseURL: `http://localhost:${PORT}`,
    // Traces record every step of every test and cost CPU the suite is short of: E2E_TRACE=retain-on-failure when debugging.
    trace: (process.env.E2E_TRACE as "retain-on-failure" | undefined) ?? "off",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    { name: "first-run", testMatch: /first-run\.setup\.ts/ },
    {
      // Tests that count or stop something of the whole instance (every workspace's runs, the
      // executor process): one at a time, before the parallel specs start.
      name: "solo",
      testMatch: /.*\.spec\.ts/,
      grep: /@solo/,
      workers: 1,
      dependencies: ["first-run"],
      use: { storageState: ADMIN_STATE },
    },
    {
      name: "app",
      testMatch: /.*\.spec\.ts/,
      grepInvert: /@solo/,
      dependencies: ["solo"],
      use: { storageState: ADMIN_STATE },
    },
  ],
  webServer: {
    command: "node scripts/launch.mjs start",
    url: `http://localhost:${PORT}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(PORT),
      ASSAY_DATA_DIR: dataDir,
      AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-e2e-secret",
      ASSAY_ALLOW_PRIVATE_NETWORKS: "true",
      LOG_LEVEL: "warn",
    },
  },
});
