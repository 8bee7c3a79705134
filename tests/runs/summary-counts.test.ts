import { describe, expect, it } from "vitest";
import { currentSummary, summaryCounts } from "@/lib/runs/summary-counts";
import { toRunDto } from "@/lib/runs/dto";

/**
 * The execution model's ReportSummary rules on every mix of statuses: `total_tests` counts every result and
 * `total_tests == passed + failed`, `failed` being every result that did not pass; Assay's
 * breakdown and executed pass rate beside them; older stored summaries recounted.
 */
describe("summaryCounts", () => {
  it("keeps total_tests = passed + failed with errors, skipped and unfinished results counted as not passed", () => {
    const mixes = [
      { passed: 2, failed: 1, errors: 1, skipped: 1 },
      { passed: 0, failed: 0, errors: 3, skipped: 0 },
      { passed: 0, failed: 0, errors: 0, skipped: 4 },
      { passed: 5, failed: 0, errors: 0, skipped: 0 },
      { passed: 1, failed: 2, errors: 0, skipped: 0, unfinished: 3 },
      { passed: 0, failed: 0, errors: 0, skipped: 0 },
    ];
    for (const m of mixes) {
      const s = summaryCounts(m);
      const results = m.passed + m.failed + m.errors + m.skipped + (m.unfinished ?? 0);
      expect(s.total_tests, JSON.stringify(m)).toBe(results);
      expect(s.total_tests).toBe(s.passed + s.failed);
      expect(s.failed).toBe(s.not_met + s.errors + s.skipped + s.unfinished);
      expect(s.executed).toBe(m.passed + m.failed + m.errors);
      expect(s.pass_rate).toBe(results ? Math.round((m.passed / results) * 1000) / 10 : 0);
    }
    expect(summaryCounts({ passed: 2, failed: 1, errors: 1, skipped: 1 })).toMatchObject({
      total_tests: 5,
      failed: 3,
      not_met: 1,
      executed: 4,
      pass_rate: 40,
      executed_pass_rate: 50,
    });
  });

  it("recounts summaries stored when failed meant expectations not met (both older shapes)", () => {
    // total_tests = executed, total_cases beside it.
    const executedShape = {
      total_tests: 4,
      passed: 2,
      failed: 1,
      errors: 1,
      skipped: 1,
      total_cases: 5,
      pass_rate: 50,
      weighted_pass_rate: 60,
    };
    expect(currentSummary(executedShape)).toMatchObject({
      total_tests: 5,
      failed: 3,
      not_met: 1,
      pass_rate: 40,
      executed_pass_rate: 50,
      weighted_pass_rate: 60,
    });
    // total_tests = every case, no total_cases.
    expect(currentSummary({ total_tests: 5, passed: 2, failed: 1, errors: 1, skipped: 1, pass_rate: 40 })).toMatchObject({
      total_tests: 5,
      failed: 3,
    });
    const current = summaryCounts({ passed: 1, failed: 0, errors: 0, skipped: 0 });
    expect(currentSummary(current)).toBe(current);
    expect(currentSummary(null)).toBeNull();
  });

  it("is what a run's DTO carries, whatever rule its summary was stored under", () => {
    const row = {
      id: "r",
      suiteId: "s",
      number: 1,
      status: "completed",
      triggeredBy: "api",
      triggeredByUserId: null,
      options: {},
      concurrency: 1,
      resolvedVariables: {},
      agentSnapshot: {},
      variantSnapshot: null,
      totalCases: 2,
      passedCases: 1,
      failedCases: 0,
      skippedCases: 0,
      errorCases: 1,
      promptTokens: 0,
      completionTokens: 0,
      summary: { total_tests: 2, passed: 1, failed: 0, errors: 1, skipped: 0, total_cases: 2, pass_rate: 50 },
      errorMessage: null,
      cancelRequestedAt: null,
      startedAt: null,
      completedAt: null,
      createdAt: new Date(0),
    } as unknown as Parameters<typeof toRunDto>[0];
    expect(toRunDto(row).summary).toMatchObject({ total_tests: 2, passed: 1, failed: 1, not_met: 0, errors: 1 });
  });
});
