// The run page's progress card: every state a poll can see reads consistently — no "Running"
// with every case done, no ETA once nothing remains, no "—" pass rate once a case finished.
import { createElement } from "react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { RunDto } from "@/lib/runs/dto";
import { RUN_STATUSES } from "@/lib/runs/schemas";
import { RunProgress, progressFacts } from "@/components/runs/run-progress";

const STARTED = "2026-01-01T10:00:00.000Z";

function run(over: Partial<RunDto>): RunDto {
  const base = {
    id: "00000000-0000-4000-8000-000000000001",
    suite_id: "00000000-0000-4000-8000-000000000002",
    status: "running",
    triggered_by: "manual",
    triggered_by_user_id: null,
    total_cases: 10,
    passed_cases: 0,
    failed_cases: 0,
    skipped_cases: 0,
    error_cases: 0,
    done_cases: 0,
    pass_rate: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
    concurrency: 8,
    options: {},
    resolved_variables: null,
    agent_snapshot: null,
    variant_snapshot: null,
    summary: null,
    error_message: null,
    cancel_requested_at: null,
    started_at: STARTED,
    completed_at: null,
    created_at: STARTED,
    comparison_id: null,
    arm_index: null,
    matrix_id: null,
    combination_index: null,
  } as unknown as RunDto;
  const r = { ...base, ...over } as RunDto;
  r.done_cases = r.passed_cases + r.failed_cases + r.error_cases + r.skipped_cases;
  const executed = r.total_cases - r.skipped_cases;
  r.pass_rate = executed > 0 ? Math.round((r.passed_cases / executed) * 1000) / 10 : 0;
  return r;
}

/** The card's text as a person reads it (tags dropped, one space between parts). */
function cardText(r: RunDto): string {
  // The card's executor notice reads /api/health through TanStack Query (nothing is fetched in a static render).
  return renderToStaticMarkup(createElement(QueryClientProvider, { client: new QueryClient() }, createElement(RunProgress, { run: r })))
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ");
}

describe("the progress card", () => {
  it("reads consistently when a poll sees every case done before the run is marked completed", () => {
    // What the demo's first poll used to show: "Running", 10 of 10 done, pass rate —, ETA Estimating….
    const text = cardText(run({ status: "running", passed_cases: 9, failed_cases: 1 }));
    expect(text).toContain("10 of 10 cases done");
    expect(text).toContain("All 10 cases done; finishing the run…");
    expect(text).not.toContain("Estimating");
    expect(text).not.toContain("Running");
    expect(text).toMatch(/Pass rate 90% so far/);
    expect(text).toMatch(/ETA —/);
  });

  it("shows the pass rate of the finished cases while the run goes on, and the ETA from their pace", () => {
    const r = run({ status: "running", passed_cases: 3, failed_cases: 1 });
    const facts = progressFacts(r, Date.parse(STARTED) + 4_000);
    expect(facts).toMatchObject({ phase: "running", headline: "Running: 6 cases to go", passRate: "75% so far", elapsed: "4.0 s" });
    // 4 cases in 4 s → 6 more take ~6 s.
    expect(facts.eta).toBe("~6.0 s");
    expect(cardText(r)).toMatch(/Pass rate 75% so far/);
  });

  it("estimates only while no case has finished, and waits for a worker before the start", () => {
    expect(progressFacts(run({ status: "running" }), Date.parse(STARTED) + 500)).toMatchObject({
      phase: "running",
      eta: "Estimating…",
      passRate: "—",
    });
    expect(progressFacts(run({ status: "pending", started_at: null }), null)).toMatchObject({
      phase: "waiting",
      elapsed: "Waiting for a worker…",
      eta: "—",
      passRate: "—",
    });
  });

  it("says the final pass rate and no ETA once the run is over", () => {
    const done = run({ status: "completed", passed_cases: 8, failed_cases: 2, completed_at: "2026-01-01T10:00:05.000Z" });
    expect(progressFacts(done, null)).toMatchObject({
      phase: "completed",
      headline: "Completed",
      elapsed: "5.0 s",
      passRate: "80%",
      eta: "—",
    });
    const cancelled = run({ status: "cancelled", passed_cases: 2, skipped_cases: 8, completed_at: "2026-01-01T10:00:02.000Z" });
    expect(progressFacts(cancelled, null)).toMatchObject({ headline: "Cancelled after 2 cases ran", passRate: "100%" });
  });

  it("shows a finished run's duration once, named with what it measures, and no ETA", () => {
    const text = cardText(run({ status: "completed", passed_cases: 8, failed_cases: 2, completed_at: "2026-01-01T10:00:05.000Z" }));
    expect(text.match(/5\.0 s/g)).toHaveLength(1);
    expect(text).toContain("Duration 5.0 s from the run's start to its end");
    expect(text).not.toContain("Elapsed");
    expect(text).not.toContain("ETA");
  });

  it("never combines contradictory parts, whatever counts and status a poll sees", () => {
    const problems: string[] = [];
    for (const status of RUN_STATUSES) {
      for (const started of [true, false]) {
        for (const cancel of [false, true]) {
          for (const total of [0, 1, 3]) {
            for (let passed = 0; passed <= total; passed++) {
              for (let failed = 0; passed + failed <= total; failed++) {
                for (let error = 0; passed + failed + error <= total; error++) {
                  for (let skipped = 0; passed + failed + error + skipped <= total; skipped++) {
                    const r = run({
                      status,
                      total_cases: total,
                      passed_cases: passed,
                      failed_cases: failed,
                      error_cases: error,
                      skipped_cases: skipped,
                      started_at: started ? STARTED : null,
                      cancel_requested_at: cancel ? STARTED : null,
                      completed_at: ["completed", "failed", "cancelled"].includes(status) && started ? "2026-01-01T10:00:03.000Z" : null,
                    });
                    for (const now of [null, Date.parse(STARTED) + 3_000]) {
                      const f = progressFacts(r, now);
                      const active = status === "pending" || status === "running";
                      const finished = passed + failed + error;
                      const remaining = total - r.done_cases;
                      const where = `${status} started=${started} cancel=${cancel} ${passed}/${failed}/${error}/${skipped} of ${total} now=${now}`;
                      if (f.eta === "Estimating…" && !(active && remaining > 0 && finished === 0)) problems.push(`${where}: estimating`);
                      if (f.eta.startsWith("~") && !(active && remaining > 0)) problems.push(`${where}: ETA ${f.eta}`);
                      if (!active && f.eta !== "—") problems.push(`${where}: ETA on a finished run`);
                      if ((f.passRate === "—") !== (finished === 0)) problems.push(`${where}: pass rate ${f.passRate}`);
                      if (active !== f.passRate.endsWith("so far") && finished > 0) problems.push(`${where}: "so far" ${f.passRate}`);
                      if (/Running/.test(f.headline) && remaining === 0) problems.push(`${where}: running with nothing left`);
                      if (f.phase === "finishing" && !(active && remaining === 0)) problems.push(`${where}: finishing`);
                      if (active && remaining === 0 && !["finishing", "cancelling"].includes(f.phase)) {
                        problems.push(`${where}: all done but ${f.phase}`);
                      }
                      if (!active && f.phase !== status) problems.push(`${where}: phase ${f.phase}`);
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
