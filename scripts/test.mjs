// `npm test`: the whole suite — Vitest (unit + integration on a real PostgreSQL, as the app's
// restricted database role), a short bench
// smoke (200 cases: correctness invariants only, never time), then a production build, the Playwright browser tests in Chromium and the crash-restart test. Prints
// one closing line "N passed, N failed, N skipped" over all of them (lint forbids skipping, so a
// non-zero skipped count is a finding too), after the failed tests by name: CI keeps only the
// output's tail, and a failure named only at the top of a 20-minute log is a failure nobody sees.
import "./check-node.mjs";
import { playwrightFailures, vitestFailures } from "./test-report.mjs";
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const tmp = mkdtempSync(path.join(os.tmpdir(), "assay-test-"));
// Findings that fail nothing but belong beside the closing line (tests/setup/per-file-db.ts).
const warningsFile = path.join(tmp, "warnings.txt");
const only = process.argv[2]; // "unit" | "e2e" | undefined

function run(cmd, args, env = {}) {
  return new Promise((resolve) => {
    // Tests reach nothing beyond loopback: Next's build would otherwise phone home with telemetry.
    const child = spawn(cmd, args, { cwd: root, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env } });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
const bin = (name) => path.join(root, "node_modules/.bin", name);
const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : null);

let passed = 0;
let failed = 0;
let skipped = 0;
let exit = 0;
/** One line per failed test: where, which, and the first line of why. */
const failures = [];

if (only !== "e2e") {
  const out = path.join(tmp, "vitest.json");
  // As the app's restricted role (row-level security, no DDL), as production connects: a query or
  // fixture that only works as the owner fails here, not in production. ASSAY_TEST_DB_ROLE=owner
  // runs them as the database owner instead (tests/setup/per-file-db.ts).
  const role = process.env.ASSAY_TEST_DB_ROLE ?? "app";
  const code = await run(bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${out}`], {
    ASSAY_TEST_DB_ROLE: role,
    ASSAY_TEST_WARNINGS: warningsFile,
  });
  const report = readJson(out);
  if (report) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + report.numTodoTests;
    failures.push(...vitestFailures(report, root));
  }
  if (code !== 0) {
    exit = code;
    if (!report || report.numFailedTests === 0) {
      failed += 1; // a crash outside a test still fails the run
      if (!failures.some((f) => f.startsWith("vitest "))) failures.push(`vitest: exit code ${code}${report ? "" : ", no JSON report"}`);
    }
  }
}

if (only !== "e2e") {
  // Bench smoke: 200 cases through the real executor against the fake server. One check:
  // it fails only when an invariant breaks (every case exactly once, the concurrency bound held,
  // all results in PostgreSQL) — the bench never fails on time. Its JSON is kept for CI to archive.
  const out = path.join(tmp, "bench-smoke.json");
  const fd = openSync(out, "w");
  const t0 = Date.now();
  const code = await new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "scripts/bench.ts", "--cases", "200", "--history", "0", "--json"],
      { cwd: root, stdio: ["ignore", fd, "inherit"], env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } },
    );
    child.on("exit", (c, signal) => resolve(c ?? (signal ? 1 : 0)));
  });
  closeSync(fd);
  let benchFailures = null;
  try {
    benchFailures = JSON.parse(readFileSync(out, "utf8")).failures;
  } catch {
    // no JSON: the bench crashed before printing
  }
  const ok = code === 0 && Array.isArray(benchFailures) && benchFailures.length === 0;
  const why = ok ? "" : `: ${Array.isArray(benchFailures) ? benchFailures.join("; ") : `exit code ${code}, no JSON`}`;
  if (ok) passed += 1;
  else {
    failed += 1;
    exit = exit || code || 1;
    failures.push(`bench smoke${why}`);
  }
  console.log(`\nbench smoke ${ok ? "passed" : "FAILED"} in ${((Date.now() - t0) / 1000).toFixed(1)} s${why} (JSON: ${out})`);
}

if (only !== "unit") {
  if (!existsSync("/usr/bin/chromium") && !process.env.CHROMIUM_PATH) {
    console.error("Chromium not found: install it with `apt-get install -y chromium` (see README)");
    process.exit(1);
  }
  const build = await run("npm", ["run", "build"]);
  if (build !== 0) {
    console.error("next build failed");
    for (const f of failures) console.log(`  ✗ ${f}`);
    process.exit(build);
  }
  // Two Playwright invocations on one data directory: first the first-run setup and the tests
  // tagged @solo (one at a time: they count or stop something of the whole instance), then every
  // other spec on two workers (--no-deps: the admin and its session exist by then). Not one
  // invocation with the projects' dependencies: there a failed @solo test would skip every spec.
  const e2eDataDir = mkdtempSync(path.join(os.tmpdir(), "assay-e2e-"));
  for (const [i, projectArgs] of [["--project=solo"], ["--project=app", "--no-deps"]].entries()) {
    const out = path.join(tmp, `playwright-${i + 1}.json`);
    const code = await run(bin("playwright"), ["test", ...projectArgs, "--reporter=list,json"], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: out,
      E2E_DATA_DIR: e2eDataDir,
    });
    const report = readJson(out);
    if (report?.stats) {
      passed += report.stats.expected + report.stats.flaky;
      failed += report.stats.unexpected;
      skipped += report.stats.skipped;
      failures.push(...playwrightFailures(report));
    }
    if (code !== 0) {
      exit = exit || code;
      if (!report || report.stats?.unexpected === 0) {
        failed += 1;
        if (!report?.errors?.length) failures.push(`playwright ${projectArgs[0]}: exit code ${code}`);
      }
    }
  }

  // The crash test reuses the build above: SIGKILL of the whole app mid-run, immediate restart.
  const crashOut = path.join(tmp, "crash.json");
  const crash = await run("npm", ["run", "test:crash"], { CRASH_RESULT_FILE: crashOut });
  const crashReport = readJson(crashOut);
  if (crashReport) {
    passed += crashReport.passed;
    failed += crashReport.failed;
    failures.push(...(crashReport.failures ?? []).map((f) => `crash test: ${f}`));
  }
  if (crash !== 0) {
    exit = exit || crash;
    if (!crashReport || crashReport.failed === 0) {
      failed += 1;
      failures.push(`crash test: exit code ${crash}`);
    }
  }
}

const warnings = existsSync(warningsFile) ? readFileSync(warningsFile, "utf8").trim().split("\n").filter(Boolean) : [];
if (warnings.length > 0) console.log(`\nWarnings:\n${warnings.map((w) => `  ! ${w}`).join("\n")}`);
if (failures.length > 0) console.log(`\nFailed:\n${failures.map((f) => `  ✗ ${f}`).join("\n")}`);
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(exit);
