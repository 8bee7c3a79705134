import { describe, expect, it } from "vitest";
import * as suiteRuns from "@/app/api/v1/suites/[id]/runs/route";
import * as runRoute from "@/app/api/v1/runs/[id]/route";
import * as runResults from "@/app/api/v1/runs/[id]/results/route";
import { summarize } from "@/lib/comparisons/summary";
import { withRunStack } from "../helpers/run-stack";
import * as comparisonImport from "@/app/api/v1/suites/[id]/comparisons/import/route";
import { call } from "../helpers/api";
import { comparisonsApi, FINISHED, untilFinished, type Json } from "./comparisons-client";
import { makeKeyedSuite, waitFor } from "../helpers/factories";

/**
 * Comparison routes beyond a live A/B execution: cancel, session import (round trip from our own
 * JSON report, and a plain A/B engine session document), and comparing two completed runs. Real route
 * handlers, a real Executor, the fake OpenAI server on loopback.
 */

const { fake } = withRunStack();

const yesCheck = [{ type: "contains_phrases", phrases: ["yes"], case_sensitive: false }];

const api = comparisonsApi;

const setup = (count: number, caseData?: (i: number) => Record<string, unknown>) => makeKeyedSuite(count, fake.url, caseData);

/** The summary without the engine's call counters (an imported document has no calls to count). */
function statistics(summary: Json) {
  const arm = ({ execution_stats: _stats, ...rest }: Json) => rest;
  return { ...summary, baseline: arm(summary.baseline), variant: arm(summary.variant) };
}

const pairNumbers = (p: Json) => ({
  question: p.question,
  repetition: p.repetition,
  token_overhead: p.token_overhead,
  token_overhead_pct: p.token_overhead_pct,
  latency_diff_ms: p.latency_diff_ms,
  latency_improvement_pct: p.latency_improvement_pct,
  response_length_ratio: p.response_length_ratio,
  both_successful: p.both_successful,
  verdict_change: p.verdict_change,
});

describe("POST /api/v1/comparisons/{id}/cancel", () => {
  it("stops a running comparison, then answers 409", async () => {
    const { suite, editor, viewer } = await setup(6);
    fake.setLatency(1_500);
    const created = await api.create(editor, suite.id, { baseline: {}, variant: { temperature: 1 }, concurrency: 1, reset_window_ms: 0 });
    expect(created.status, JSON.stringify(created.json)).toBe(202);
    const id = created.json.id as string;

    expect((await api.cancel(viewer, id)).status).toBe(403);
    const cancelled = await api.cancel(editor, id);
    expect(cancelled.status, JSON.stringify(cancelled.json)).toBe(200);
    expect(cancelled.json.id).toBe(id);
    expect(cancelled.json.status === "cancelled" || cancelled.json.cancel_requested === true).toBe(true);

    const done = await untilFinished(editor, id);
    expect(done.status).toBe("cancelled");
    // Cases that never started end skipped: fewer agent calls than 6 cases × 2 arms, and pairs
    // with a skipped arm count as errors, never as a verdict.
    expect(fake.requests.filter((r) => r.endpoint === "chat").length).toBeLessThan(12);
    const pairs = (await api.pairs(viewer, id, "?limit=500")).json.data as Json[];
    const skipped = pairs.filter((p) => p.baseline?.status === "skipped" || p.variant?.status === "skipped");
    expect(skipped.length).toBeGreaterThan(0);
    for (const p of skipped) expect(p).toMatchObject({ both_successful: false, verdict_change: "error" });
    const again = await api.cancel(editor, id);
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe("conflict");
  });
});

describe("POST /api/v1/suites/{id}/comparisons/import", () => {
  it("round-trips: our JSON report imported back gives identical summary numbers and pairs", async () => {
    const { suite, editor, viewer } = await setup(5, () => ({ checks: yesCheck }));
    // The variant (recognised by its prompt) answers "yes …" on odd cases and is 25 ms slower everywhere.
    for (const i of [1, 3])
      fake.addRule({ match: { lastUserContains: `question ${i}`, anyContains: "VARIANT" }, reply: { content: `yes ${i}`, delayMs: 25 } });
    fake.addRule({ match: { anyContains: "VARIANT" }, reply: { content: "A variant's longer reply", delayMs: 25 } });
    const created = await api.create(editor, suite.id, {
      name: "Round trip",
      notes: "export → import",
      baseline: {},
      variant: { system_prompt: "VARIANT prompt" },
      reset_window_ms: 0,
    });
    expect(created.status, JSON.stringify(created.json)).toBe(202);
    const original = await untilFinished(editor, created.json.id);
    expect(original.status).toBe("completed");

    const report = await api.report(viewer, original.id, "?format=json");
    expect(report.status).toBe(200);
    const imported = await api.import(editor, suite.id, JSON.parse(report.text));
    expect(imported.status, JSON.stringify(imported.json)).toBe(201);
    expect(imported.json).toMatchObject({
      suite_id: suite.id,
      source: "imported",
      status: "completed",
      notes: "export → import",
      total_pairs: 5,
      session_id: report.json.session_id,
    });

    const reread = await api.get(viewer, imported.json.id);
    expect(reread.status).toBe(200);
    expect(statistics(reread.json.summary)).toEqual(statistics(original.summary));

    const [a, b] = [await api.pairs(viewer, original.id, "?limit=500"), await api.pairs(viewer, imported.json.id, "?limit=500")];
    expect(b.json.data.map(pairNumbers)).toEqual(a.json.data.map(pairNumbers));

    // Read-only: nothing to cancel.
    expect((await api.cancel(editor, imported.json.id)).status).toBe(409);
  });

  it("imports a plain A/B engine session document (docstratum names) with the spec's diffs", async () => {
    const { suite, editor, viewer } = await setup(0);
    const response = (text: string, prompt: number, completion: number, latency: number, error: string | null = null) => ({
      response: text,
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      latency_ms: latency,
      tokens_per_ms: latency ? completion / latency : 0,
      model: "m",
      timestamp: "2026-01-01T00:00:00",
      error,
      retry_count: 0,
    });
    const doc = {
      session_id: "session-42",
      start_time: "2026-01-01T00:00:00",
      end_time: "2026-01-01T00:01:00",
      baseline_model: "gpt-a",
      docstratum_model: "gpt-b",
      environment: { python: "3.12" },
      notes: "from the Python tool",
      results: [
        { question: "q1", baseline: response("abcd", 10, 10, 200), docstratum: response("abcdefgh", 10, 20, 260), metadata: { k: 1 } },
        { question: "q2", baseline: response("", 0, 0, 0), docstratum: response("xyz", 5, 5, 100) },
        { question: "q3", baseline: response("ok", 10, 5, 100), docstratum: response("", 0, 0, 0, "Timeout") },
      ],
    };
    const imported = await api.import(editor, suite.id, doc);
    expect(imported.status, JSON.stringify(imported.json)).toBe(201);
    expect(imported.json).toMatchObject({
      source: "imported",
      status: "completed",
      session_id: "session-42",
      notes: "from the Python tool",
    });
    const pairs = (await api.pairs(viewer, imported.json.id, "?limit=500")).json.data;
    expect(pairs.map(pairNumbers)).toEqual([
      {
        question: "q1",
        repetition: 0,
        token_overhead: 10,
        token_overhead_pct: 50,
        latency_diff_ms: 60,
        latency_improvement_pct: 30,
        response_length_ratio: 2,
        both_successful: true,
        verdict_change: "same",
      },
      // Zero denominators (spec): pct 0, improvement 0, ratio 1 for an empty baseline response.
      expect.objectContaining({
        question: "q2",
        token_overhead: 10,
        token_overhead_pct: 0,
        latency_improvement_pct: 0,
        response_length_ratio: 1,
      }),
      expect.objectContaining({ question: "q3", both_successful: false, verdict_change: "error" }),
    ]);
    expect(pairs[0].metadata).toMatchObject({ k: 1 });
    expect(imported.json.summary).toMatchObject({ pairs: 3, comparable_pairs: 2, verdict_changes: { same: 2, error: 1 } });
  });

  it("refuses an invalid document (400 naming the field) and a body over 10 MB (413)", async () => {
    const { suite, editor } = await setup(0);
    const missing = await api.import(editor, suite.id, {
      session_id: "s",
      start_time: "t",
      results: [{ question: "q", baseline: { response: "a", prompt_tokens: 1, completion_tokens: 1, latency_ms: 1 } }],
    });
    expect(missing.status).toBe(400);
    expect(missing.json.error.issues.map((i: { path: string }) => i.path)).toEqual(expect.arrayContaining(["results.0.variant"]));
    const notJson = await call(comparisonImport.POST, {
      method: "POST",
      token: editor,
      params: { id: suite.id },
      rawBody: "{nope",
      contentType: "application/json",
    });
    expect(notJson.status).toBe(400);
    const huge = await call(comparisonImport.POST, {
      method: "POST",
      token: editor,
      params: { id: suite.id },
      rawBody: JSON.stringify({ session_id: "s", start_time: "t", notes: "x".repeat(10 * 1024 * 1024), results: [] }),
      contentType: "application/json",
    });
    expect(huge.status).toBe(413);
    expect(huge.json.error.code).toBe("payload_too_large");
  });

  it("bounds every number to what its column holds: 400 naming the field, never a 500", async () => {
    const { suite, editor } = await setup(0);
    const arm = (extra: Record<string, unknown> = {}) => ({
      response: "a",
      prompt_tokens: 1,
      completion_tokens: 1,
      latency_ms: 1,
      model: "m",
      ...extra,
    });
    const doc = (result: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
      session_id: "s",
      start_time: "2026-01-01T00:00:00",
      ...extra,
      results: [{ question: "q", baseline: arm(), variant: arm(), ...result }],
    });
    const refused = async (body: unknown, path: string) => {
      const res = await api.import(editor, suite.id, body);
      expect(res.status, `${path}: ${JSON.stringify(res.json)}`).toBe(400);
      expect(res.json.error.issues.map((i: { path: string }) => i.path)).toContain(path);
    };
    await refused(doc({ repetition: 3_000_000_000 }), "results.0.repetition");
    // Token counts: a pair's total and its variant − baseline difference must fit a 32-bit column too.
    await refused(doc({ baseline: arm({ prompt_tokens: 3_000_000_000 }) }), "results.0.baseline.prompt_tokens");
    await refused(doc({ variant: arm({ completion_tokens: 2_147_483_647 }) }), "results.0.variant.completion_tokens");
    await refused(doc({ baseline: arm({ retry_count: 2 ** 40 }) }), "results.0.baseline.retry_count");
    await refused(doc({ baseline: arm({ latency_ms: 1e300 }) }), "results.0.baseline.latency_ms");
    const stats = { total_invocations: 1, successful_invocations: 1, failed_invocations: 0 };
    await refused(
      doc({}, { execution_stats: { baseline: { ...stats, total_invocations: 2 ** 33 }, variant: stats } }),
      "execution_stats.baseline.total_invocations",
    );
    // The largest accepted values are stored and read back.
    const big = 1_000_000_000;
    const ok = await api.import(
      editor,
      suite.id,
      doc({
        repetition: 2_147_483_647,
        baseline: arm({ prompt_tokens: big, completion_tokens: big }),
        variant: arm({ prompt_tokens: 0, completion_tokens: 0 }),
      }),
    );
    expect(ok.status, JSON.stringify(ok.json)).toBe(201);
    const pairs = (await api.pairs(editor, ok.json.id, "?limit=500")).json.data;
    expect(pairs[0]).toMatchObject({ repetition: 2_147_483_647, token_overhead: -2 * big });
  });
});

describe("comparing two completed runs", () => {
  it("pairs the runs' case results by test case, with no new execution", async () => {
    const { suite, editor, viewer } = await setup(4, () => ({ checks: yesCheck }));
    const runToEnd = async () => {
      const started = await call(suiteRuns.POST, { method: "POST", token: editor, body: {}, params: { id: suite.id } });
      expect(started.status).toBe(202);
      const run = await waitFor(
        () => call(runRoute.GET, { token: editor, params: { id: started.json.id } }),
        (r) => FINISHED.includes(r.json.status),
      );
      expect(run.json.status).toBe("completed");
      const url = `/api/v1/runs/${started.json.id}/results?limit=500`;
      const results = await call(runResults.GET, { token: editor, params: { id: started.json.id }, url });
      return { id: started.json.id as string, results: results.json.data as Json[] };
    };
    const baseline = await runToEnd(); // the fake's default answer: no "yes", every case fails
    fake.addRule({ reply: { content: "yes, a longer and better answer", delayMs: 40 } });
    const variant = await runToEnd(); // every case passes, after a 40 ms delay
    fake.reset();
    const callsBefore = fake.requests.length;

    const created = await api.create(editor, suite.id, { name: "Before/after", baseline_run_id: baseline.id, variant_run_id: variant.id });
    expect(created.status, JSON.stringify(created.json)).toBe(202);
    expect(created.json).toMatchObject({ source: "runs", name: "Before/after" });
    const done = await untilFinished(viewer, created.json.id);
    expect(done).toMatchObject({ status: "completed", total_pairs: 4, completed_pairs: 4 });
    expect(done.baseline.run_id).toBe(baseline.id);
    expect(done.variant.run_id).toBe(variant.id);
    expect([done.baseline.run_number, done.variant.run_number]).toEqual([1, 2]);
    expect(fake.requests.length).toBe(callsBefore);
    // Unnamed, a comparison of two runs is called after their numbers.
    const unnamed = await api.create(editor, suite.id, { baseline_run_id: variant.id, variant_run_id: baseline.id });
    expect(unnamed.json).toMatchObject({ name: "Run #2 vs run #1", baseline: { run_number: 2 }, variant: { run_number: 1 } });

    const pairs = (await api.pairs(viewer, done.id, "?limit=500")).json.data as Json[];
    expect(pairs).toHaveLength(4);
    const resultOf = (run: { results: Json[] }, caseResultId: string) => run.results.find((r) => r.id === caseResultId);
    for (const p of pairs) {
      const b = resultOf(baseline, p.baseline.case_result_id);
      const v = resultOf(variant, p.variant.case_result_id);
      expect(b?.test_case_id).toBe(p.test_case_id);
      expect(v?.test_case_id).toBe(p.test_case_id);
      expect(p).toMatchObject({ verdict_change: "fail_to_pass", both_successful: true });
      expect(p.baseline).toMatchObject({ status: "failed", prompt_tokens: b.prompt_tokens, completion_tokens: b.completion_tokens });
      expect(p.variant).toMatchObject({ status: "passed", response: "yes, a longer and better answer" });
      // The pair's latencies are the runs' recorded ones (which the results round to the
      // millisecond), and the variant's include the fake's 40 ms delay: a lower bound, not a bet
      // on the machine's speed.
      expect([Math.round(p.baseline.latency_ms), Math.round(p.variant.latency_ms)]).toEqual([b.latency_ms, v.latency_ms]);
      expect(p.latency_diff_ms).toBeCloseTo(p.variant.latency_ms - p.baseline.latency_ms, 6);
      expect(p.variant.latency_ms).toBeGreaterThanOrEqual(40);
    }
    expect(new Set(pairs.map((p) => p.test_case_id)).size).toBe(4);
    expect(done.summary).toMatchObject({
      pairs: 4,
      verdict_changes: { same: 0, pass_to_fail: 0, fail_to_pass: 4, error: 0 },
      baseline: { passed: 0, failed: 4 },
      variant: { passed: 4, failed: 0 },
      tests: { pass_fail: { b: 0, c: 4 } },
    });
    // The same numbers as summarize() over the listed pairs.
    const expected = summarize(
      pairs.map((p) => ({ baseline: p.baseline, variant: p.variant })),
      { seed: done.seed },
    );
    expect(done.summary.diffs.token_overhead.mean).toBeCloseTo(expected.diffs.token_overhead.mean!, 6);
    expect(done.summary.diffs.latency_diff_ms.median).toBeCloseTo(expected.diffs.latency_diff_ms.median!, 6);
  });
});
