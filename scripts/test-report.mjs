// The failed tests of one `npm test`, by name, from the reports Vitest and Playwright write as
// JSON: one line each (where, which, and why in a line), printed above the closing line.
import path from "node:path";
import { stripVTControlCharacters } from "node:util";

/** The message of an error without its stack: up to three non-empty lines, colours removed, ≤ 300 characters. */
export function firstLine(text) {
  const lines = stripVTControlCharacters(String(text ?? "")).split("\n");
  const stack = lines.findIndex((l) => /^\s+at /.test(l));
  return (stack === -1 ? lines : lines.slice(0, stack))
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(0, 3)
    .join(" ")
    .slice(0, 300);
}

/** Vitest's JSON report: failed tests, and files that failed outside any test (an import, a hook). */
export function vitestFailures(report, root) {
  return report.testResults.flatMap((file) => {
    const tests = file.assertionResults
      .filter((t) => t.status === "failed")
      .map((t) => `vitest ${path.relative(root, file.name)} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
    return tests.length === 0 && file.status === "failed"
      ? [`vitest ${path.relative(root, file.name)}: ${firstLine(file.message)}`]
      : tests;
  });
}

/** Playwright's JSON report: the tests whose outcome was unexpected, with their last error. */
export function playwrightFailures(report) {
  const walk = (suite) => [
    ...(suite.specs ?? []).flatMap((spec) =>
      spec.tests
        .filter((t) => t.status === "unexpected")
        .map((t) => {
          const error = t.results.at(-1)?.errors?.[0]?.message ?? t.results.at(-1)?.error?.message;
          return `playwright ${spec.file}:${spec.line} › ${spec.title}: ${firstLine(error)}`;
        }),
    ),
    ...(suite.suites ?? []).flatMap(walk),
  ];
  return [...(report.suites ?? []).flatMap(walk), ...(report.errors ?? []).map((e) => `playwright: ${firstLine(e.message)}`)];
}
