// `npm test` names every failed test above its closing line (CI shows only the output's tail):
// the names come from the JSON reports Vitest and Playwright write, shaped as below.
import { describe, expect, it } from "vitest";
import { playwrightFailures, vitestFailures } from "../../scripts/test-report.mjs";

describe("npm test's list of failures", () => {
  it("names Vitest's failed tests by file and full name with the first line of the error, and a file that failed outside any test", () => {
    const report = {
      testResults: [
        {
          name: "/repo/tests/comparisons/engine.test.ts",
          status: "failed",
          message: "",
          assertionResults: [
            {
              fullName: "engine records the environment",
              status: "failed",
              failureMessages: ["PrismaClientKnownRequestError: \n\nRaw query failed. Code: `40P01`\n    at x"],
            },
            { fullName: "engine passes", status: "passed", failureMessages: [] },
          ],
        },
        {
          name: "/repo/tests/broken.test.ts",
          status: "failed",
          message: "Cannot find module '@/lib/gone'\n    at require",
          assertionResults: [],
        },
        { name: "/repo/tests/fine.test.ts", status: "passed", message: "", assertionResults: [{ fullName: "ok", status: "passed" }] },
      ],
    };
    expect(vitestFailures(report, "/repo")).toEqual([
      "vitest tests/comparisons/engine.test.ts › engine records the environment: PrismaClientKnownRequestError: Raw query failed. Code: `40P01`",
      "vitest tests/broken.test.ts: Cannot find module '@/lib/gone'",
    ]);
  });

  it("names Playwright's unexpected tests in nested suites with their last error, not the flaky or skipped ones", () => {
    const test = (status: string, message?: string) => ({
      status,
      results: [
        { status: "failed", errors: [{ message: "first try" }] },
        { status: "failed", errors: message ? [{ message }] : [] },
      ],
    });
    const report = {
      suites: [
        {
          title: "runs.spec.ts",
          specs: [
            {
              title: "start a run",
              file: "runs.spec.ts",
              line: 69,
              tests: [test("unexpected", "\u001b[31mError: expected 3\u001b[39m\n\n    at runs.spec.ts:80")],
            },
          ],
          suites: [
            {
              title: "at 390 px",
              specs: [
                { title: "menu", file: "navigation.spec.ts", line: 130, tests: [test("unexpected", "Timeout 10000ms exceeded")] },
                { title: "retried", file: "navigation.spec.ts", line: 140, tests: [test("flaky")] },
                { title: "skipped", file: "navigation.spec.ts", line: 150, tests: [test("skipped")] },
              ],
            },
          ],
        },
      ],
      errors: [{ message: "Error: webServer exited early\n    at stack" }],
    };
    expect(playwrightFailures(report)).toEqual([
      "playwright runs.spec.ts:69 › start a run: Error: expected 3",
      "playwright navigation.spec.ts:130 › menu: Timeout 10000ms exceeded",
      "playwright: Error: webServer exited early",
    ]);
  });
});
