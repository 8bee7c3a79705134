import { describe, expect, it } from "vitest";
import * as suiteRuns from "@/app/api/v1/suites/[id]/runs/route";
import * as runRoute from "@/app/api/v1/runs/[id]/route";
import * as runCancel from "@/app/api/v1/runs/[id]/cancel/route";
import { withRunStack } from "../helpers/run-stack";
import * as comparisonRoute from "@/app/api/v1/comparisons/[id]/route";
import { call } from "../helpers/api";
import { comparisonsApi, FINISHED, untilFinished, type Json } from "./comparisons-client";
import { makeApiKey, makeKeyedSuite, makeSuiteWithCases, makeWorkspace, waitFor } from "../helpers/factories";

/**
 * The comparison API through its real route handlers (auth, role, parsing, envelope), executed
 * by a real Executor against the fake OpenAI server on loopback. The engine's own behaviour
 * (ordering timing, retries) is tested in tests/comparisons/engine*.test.ts.
 */

const { fake } = withRunStack();

const VARIANT_PROMPT = "You are the VARIANT assistant.";
/** A valid one-pair session document (the A/B engine's session shape). */
const TINY_SESSION = {
  session_id: "tiny",
  start_time: "2026-01-01T00:00:00Z",
  results: [
    {
      question: "hi",
      baseline: { response: "a", prompt_tokens: 1, completion_tokens: 1, latency_ms: 10 },
      variant: { response: "bb", prompt_tokens: 1, completion_tokens: 2, latency_ms: 12 },
    },
  ],
};
const yesCheck = [{ type: "contains_phrases", phrases: ["yes"], case_sensitive: false }];

const api = comparisonsApi;

/** Every page of `/pairs` for one query, following next_cursor. */
async function allPairs(token: string, id: string, query: string): Promise<Json[]> {
  const out: Json[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 50; page++) {
    const res = await api.pairs(token, id, `?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    out.push(...res.json.data);
    cursor = res.json.next_cursor;
    if (!cursor) return out;
  }
  throw new Error("pagination did not end");
}

const issuePaths = (res: { json: Json }) => (res.json?.error?.issues ?? []).map((i: { path: string }) => i.path) as string[];
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const median = (xs: number[]) => {
  const s = xs.toSorted((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** Owner workspace with editor and viewer keys and a suite of `count` cases pointing at the fake. */
const setup = (count: number, caseData?: (i: number) => Record<string, unknown>) => makeKeyedSuite(count, fake.url, caseData);

describe("POST /api/v1/suites/{id}/comparisons: validation", () => {
  it("refuses identical arms, naming the arm fields", async () => {
    const { suite, editor } = await setup(1);
    for (const arms of [
      { baseline: {}, variant: {} },
      // The label names an arm; it does not make it different.
      { baseline: { label: "A" }, variant: { label: "B" } },
      { baseline: { temperature: 0.3, system_prompt: "Same" }, variant: { temperature: 0.3, system_prompt: "Same" } },
    ]) {
      const res = await api.create(editor, suite.id, arms);
      expect(res.status, JSON.stringify(arms)).toBe(400);
      expect(res.json.error.code).toBe("invalid_input");
      expect(
        issuePaths(res).some((p) => /^(baseline|variant)(\.|$)/.test(p)),
        JSON.stringify(res.json),
      ).toBe(true);
    }
  });

  it("refuses repetitions outside 1–20, naming repetitions", async () => {
    const { suite, editor } = await setup(1);
    for (const repetitions of [0, 21, 1.5]) {
      const res = await api.create(editor, suite.id, { baseline: {}, variant: { temperature: 1 }, repetitions });
      expect(res.status, `repetitions ${repetitions}`).toBe(400);
      expect(issuePaths(res)).toContain("repetitions");
    }
  });

  it("refuses an empty body, unknown fields and field errors inside an arm", async () => {
    const { suite, editor } = await setup(1);
    const empty = await api.create(editor, suite.id, undefined);
    expect(empty.status).toBe(400);
    const unknown = await api.create(editor, suite.id, { baseline: {}, variant: { temperature: 1 }, colour: "red" });
    expect(unknown.status).toBe(400);
    const bad = await api.create(editor, suite.id, { baseline: {}, variant: { temperature: 7 } });
    expect(bad.status).toBe(400);
    expect(issuePaths(bad)).toContain("variant.temperature");
    const badOrdering = await api.create(editor, suite.id, { baseline: {}, variant: { temperature: 1 }, ordering: "shuffled" });
    expect(badOrdering.status).toBe(400);
    expect(issuePaths(badOrdering)).toContain("ordering");
  });

  it("refuses an agent or model configuration of another workspace (never revealing it)", async () => {
    const { suite, editor } = await setup(1);
    const other = await makeWorkspace("owner");
    const foreign = await makeSuiteWithCases(other.ctx, 0, { baseUrl: fake.url });
    for (const variant of [{ model_config_id: foreign.modelConfig.id }, { agent_id: foreign.agent.id }]) {
      const res = await api.create(editor, suite.id, { baseline: {}, variant });
      expect(res.status, JSON.stringify(res.json)).toBe(400);
      expect(issuePaths(res)).toEqual([`variant.${Object.keys(variant)[0]}`]);
    }
    // An id that exists nowhere is answered the same way.
    const missing = await api.create(editor, suite.id, { baseline: {}, variant: { model_config_id: crypto.randomUUID() } });
    expect(missing.status).toBe(400);
    expect(issuePaths(missing)).toEqual(["variant.model_config_id"]);
  });

  it("refuses runs of another suite and runs that have not completed", async () => {
    const { ctx, suite, editor } = await setup(1);
    const otherSuite = await makeSuiteWithCases(ctx, 1, { baseUrl: fake.url });
    const run = async (suiteId: string) => {
      const res = await call(suiteRuns.POST, { method: "POST", token: editor, body: {}, params: { id: suiteId } });
      expect(res.status).toBe(202);
      return res.json.id as string;
    };
    const finished = async (id: string) =>
      (
        await waitFor(
          () => call(runRoute.GET, { token: editor, params: { id } }),
          (r) => FINISHED.includes(r.json.status),
        )
      ).json;
    const own = await run(suite.id);
    const foreign = await run(otherSuite.suite.id);
    expect((await finished(own)).status).toBe("completed");
    expect((await finished(foreign)).status).toBe("completed");

    const crossSuite = await api.create(editor, suite.id, { baseline_run_id: own, variant_run_id: foreign });
    expect(crossSuite.status).toBe(400);
    expect(issuePaths(crossSuite)).toContain("variant_run_id");

    // A run still in flight: the fake holds its answer for a while.
    fake.addRule({ reply: { content: "slow", delayMs: 3_000 } });
    const inFlight = await run(suite.id);
    const unfinished = await api.create(editor, suite.id, { baseline_run_id: own, variant_run_id: inFlight });
    expect(unfinished.status).toBe(400);
    expect(issuePaths(unfinished)).toContain("variant_run_id");
    expect((await call(runCancel.POST, { method: "POST", token: editor, params: { id: inFlight } })).status).toBe(200);
    await finished(inFlight);

    const sameRun = await api.create(editor, suite.id, { baseline_run_id: own, variant_run_id: own });
    expect(sameRun.status).toBe(400);
    const notUuid = await api.create(editor, suite.id, { baseline_run_id: own, variant_run_id: "nope" });
    expect(notUuid.status).toBe(400);
    expect(issuePaths(notUuid)).toContain("variant_run_id");
  });

  it("answers 400 naming the query field on the list, pairs and report routes", async () => {
    const { suite, editor } = await setup(1);
    const limit = await api.list(editor, suite.id, "?limit=0");
    expect(limit.status).toBe(400);
    expect(issuePaths(limit)).toEqual(["limit"]);
    const cursor = await api.list(editor, suite.id, "?cursor=%7Bnot-a-cursor");
    expect(cursor.status).toBe(400);
    expect(issuePaths(cursor)).toEqual(["cursor"]);
    const id = crypto.randomUUID();
    for (const [query, field] of [
      ["?sort=fastest", "sort"],
      ["?verdict_change=maybe", "verdict_change"],
      ["?limit=501", "limit"],
    ] as const) {
      const res = await api.pairs(editor, id, query);
      expect(res.status, query).toBe(400);
      expect(issuePaths(res)).toEqual([field]);
    }
    const format = await api.report(editor, id, "?format=xml");
    expect(format.status).toBe(400);
    expect(issuePaths(format)).toEqual(["format"]);
  });
});

describe("comparison routes: workspaces and roles", () => {
  it("answers 404 across workspaces and for unknown or malformed ids, 403 for a viewer that writes", async () => {
    const { suite, editor, viewer } = await setup(2);
    const created = await api.create(editor, suite.id, { baseline: {}, variant: { temperature: 1 }, reset_window_ms: 0 });
    expect(created.status, JSON.stringify(created.json)).toBe(202);
    const id = created.json.id as string;
    await untilFinished(editor, id);

    const other = await makeWorkspace("owner");
    const outsider = await makeApiKey(other.workspace.id, "admin");
    for (const res of [
      await api.get(outsider, id),
      await api.pairs(outsider, id),
      await api.report(outsider, id),
      await api.report(outsider, id, "?format=csv"),
      await api.cancel(outsider, id),
      await api.list(outsider, suite.id),
      await api.create(outsider, suite.id, { baseline: {}, variant: { temperature: 1 } }),
      await api.import(outsider, suite.id, TINY_SESSION),
      await api.get(editor, crypto.randomUUID()),
      await api.get(editor, "not-a-uuid"),
      await api.pairs(editor, crypto.randomUUID()),
      await api.cancel(editor, crypto.randomUUID()),
      await api.list(editor, crypto.randomUUID()),
    ]) {
      expect(res.status, JSON.stringify(res.json)).toBe(404);
      expect(res.json.error.code).toBe("not_found");
    }

    // A viewer reads everything and changes nothing.
    expect((await api.get(viewer, id)).status).toBe(200);
    expect((await api.pairs(viewer, id)).status).toBe(200);
    expect((await api.report(viewer, id)).status).toBe(200);
    expect((await api.list(viewer, suite.id)).status).toBe(200);
    for (const res of [
      await api.create(viewer, suite.id, { baseline: {}, variant: { temperature: 1 } }),
      await api.cancel(viewer, id),
      await api.import(viewer, suite.id, TINY_SESSION),
    ]) {
      expect(res.status).toBe(403);
      expect(res.json.error.code).toBe("forbidden");
    }
    // Without a key at all: 401.
    expect((await call(comparisonRoute.GET, { params: { id } })).status).toBe(401);
  });

  it("lists a suite's comparisons newest first with cursor pagination", async () => {
    const { suite, editor } = await setup(1);
    const ids: string[] = [];
    for (const temperature of [0.1, 0.2, 0.3]) {
      const res = await api.create(editor, suite.id, {
        name: `t=${temperature}`,
        baseline: {},
        variant: { temperature },
        reset_window_ms: 0,
      });
      expect(res.status).toBe(202);
      ids.push(res.json.id);
    }
    for (const id of ids) await untilFinished(editor, id);
    const first = await api.list(editor, suite.id, "?limit=2");
    expect(first.status).toBe(200);
    expect(first.json.data.map((c: Json) => c.id)).toEqual([ids[2], ids[1]]);
    expect(first.json.next_cursor).toEqual(expect.any(String));
    const second = await api.list(editor, suite.id, `?limit=2&cursor=${encodeURIComponent(first.json.next_cursor)}`);
    expect(second.json).toEqual({ data: [expect.objectContaining({ id: ids[0], name: "t=0.1" })], next_cursor: null });
  });
});

describe("a comparison end to end", () => {
  // Six cases with a phrase check. Baseline: the fake's default answer (no "yes", fails) except
  // where a rule says otherwise; the variant (recognised by its system prompt) answers per case:
  //   0, 1: variant passes → fail_to_pass     2: baseline passes, variant fails → pass_to_fail
  //   3: both fail → same                     4: variant's call fails → error
  //   5: both pass → same
  // The variant is slower by a different amount per case so latency sorts are unambiguous.
  const variantRule = (i: number, reply: Record<string, unknown>) =>
    fake.addRule({ match: { anyContains: "VARIANT", lastUserContains: `question ${i}` }, reply: { delayMs: 60 * (i + 1), ...reply } });
  function installRules() {
    variantRule(0, { content: "yes, certainly", usage: { prompt_tokens: 40, completion_tokens: 3 } });
    variantRule(1, { content: "yes, here is a much longer answer than before", usage: { prompt_tokens: 40, completion_tokens: 9 } });
    variantRule(2, { content: "no", usage: { prompt_tokens: 40, completion_tokens: 1 } });
    variantRule(3, { content: "still no", usage: { prompt_tokens: 40, completion_tokens: 2 } });
    variantRule(4, { status: 400 });
    variantRule(5, { content: "yes yes", usage: { prompt_tokens: 40, completion_tokens: 2 } });
    fake.addRule({ match: { lastUserContains: "question 2" }, reply: { content: "yes from the baseline" } });
    fake.addRule({ match: { lastUserContains: "question 5" }, reply: { content: "yes" } });
  }

  it("creates, runs both arms, and reports a summary consistent with its pairs; pairs filter, sort and paginate; reports download", async () => {
    const { suite, editor, viewer } = await setup(6, () => ({ checks: yesCheck }));
    installRules();
    const created = await api.create(editor, suite.id, {
      name: "Variant prompt",
      notes: "Does the new prompt say yes more often?",
      baseline: { label: "Current" },
      variant: { label: "New prompt", system_prompt: VARIANT_PROMPT },
      reset_window_ms: 0,
      retry: { max_attempts: 1 },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(202);
    expect(created.json).toMatchObject({
      suite_id: suite.id,
      name: "Variant prompt",
      notes: "Does the new prompt say yes more often?",
      source: "executed",
      ordering: "sequential",
      repetitions: 1,
      reset_window_ms: 0,
      baseline: expect.objectContaining({ label: "Current", role: "baseline" }),
      variant: expect.objectContaining({ label: "New prompt", role: "variant", system_prompt: VARIANT_PROMPT }),
    });
    expect(["pending", "running"]).toContain(created.json.status);

    const done = await untilFinished(viewer, created.json.id);
    expect(done).toMatchObject({ status: "completed", total_pairs: 6, completed_pairs: 6 });
    expect(done.started_at).toEqual(expect.any(String));
    expect(done.completed_at).toEqual(expect.any(String));
    expect(done.duration_ms).toBeGreaterThanOrEqual(0);
    expect(done.environment).toEqual(expect.any(Object));
    expect(JSON.stringify(done.environment)).not.toMatch(/api_key|sk-/i);

    const pairs = await allPairs(viewer, done.id, "limit=500");
    expect(pairs).toHaveLength(6);
    const byCase = new Map(pairs.map((p) => [p.question as string, p]));
    const verdictOf = (i: number) => byCase.get(`question ${i}`)?.verdict_change;
    expect([0, 1, 2, 3, 4, 5].map(verdictOf)).toEqual(["fail_to_pass", "fail_to_pass", "pass_to_fail", "same", "error", "same"]);

    for (const p of pairs) {
      expect(p).toMatchObject({ test_case_id: expect.any(String), repetition: 0, order: ["baseline", "variant"] });
      for (const arm of [p.baseline, p.variant]) {
        expect(Object.keys(arm)).toEqual(
          expect.arrayContaining([
            "case_result_id",
            "response",
            "prompt_tokens",
            "completion_tokens",
            "total_tokens",
            "latency_ms",
            "tokens_per_ms",
            "model",
            "timestamp",
            "error",
            "retry_count",
            "status",
          ]),
        );
        expect(arm.total_tokens).toBe(arm.prompt_tokens + arm.completion_tokens);
      }
      expect(p.token_overhead).toBe(p.variant.total_tokens - p.baseline.total_tokens);
      expect(p.latency_diff_ms).toBeCloseTo(p.variant.latency_ms - p.baseline.latency_ms, 6);
      expect(p.both_successful).toBe(p.verdict_change !== "error");
    }
    const errorPair = byCase.get("question 4")!;
    expect(errorPair.variant).toMatchObject({ status: "error", error: expect.any(String) });
    expect(byCase.get("question 1")!.response_length_ratio).toBeCloseTo(
      [...byCase.get("question 1")!.variant.response].length / [...byCase.get("question 1")!.baseline.response].length,
      6,
    );

    // The summary agrees with the pairs it was computed from.
    const s = done.summary;
    const comparable = pairs.filter((p) => p.both_successful);
    expect(s).toMatchObject({
      pairs: 6,
      comparable_pairs: comparable.length,
      verdict_changes: { same: 2, pass_to_fail: 1, fail_to_pass: 2, error: 1 },
      success_rate: Math.round((comparable.length / 6) * 1000) / 10,
      tests: {
        latency: { method: "wilcoxon_signed_rank" },
        tokens: { method: "wilcoxon_signed_rank" },
        pass_fail: { method: "mcnemar_exact", b: 1, c: 2 },
      },
      verdict: expect.any(String),
    });
    for (const role of ["baseline", "variant"] as const) {
      const execs = pairs.map((p) => p[role]);
      const count = (status: string) => execs.filter((e) => e.status === status).length;
      expect(s[role], role).toMatchObject({ passed: count("passed"), failed: count("failed"), errors: count("error") });
      expect(s[role].tokens.total, role).toBe(sum(execs.map((e) => e.total_tokens)));
      expect(s[role].tokens.prompt, role).toBe(sum(execs.map((e) => e.prompt_tokens)));
      expect(s[role].latency_ms).toEqual({ mean: expect.any(Number), p50: expect.any(Number), p95: expect.any(Number) });
      expect(s[role].execution_stats.total_invocations, role).toBeGreaterThanOrEqual(6);
      expect(s[role].execution_stats).toEqual(
        expect.objectContaining({ successful_invocations: expect.any(Number), failed_invocations: expect.any(Number), timeouts: 0 }),
      );
    }
    expect(s.baseline.pass_rate).toBe(Math.round((2 / 6) * 1000) / 10);
    expect(s.variant.pass_rate).toBe(Math.round((3 / 6) * 1000) / 10);
    for (const key of ["token_overhead", "latency_diff_ms", "token_overhead_pct", "response_length_ratio"] as const) {
      const values = comparable.map((p) => p[key] as number);
      expect(s.diffs[key].mean, key).toBeCloseTo(sum(values) / values.length, 6);
      expect(s.diffs[key].median, key).toBeCloseTo(median(values), 6);
      const [lo, hi] = s.diffs[key].ci95;
      expect(lo, key).toBeLessThanOrEqual(s.diffs[key].mean + 1e-9);
      expect(hi, key).toBeGreaterThanOrEqual(s.diffs[key].mean - 1e-9);
    }
    // The variant waited 60–360 ms longer on every comparable case: far above the noise of a busy machine.
    expect(s.diffs.latency_diff_ms.median).toBeGreaterThan(10);

    // Filter by verdict change: exactly the matching pairs, across pages.
    for (const change of ["same", "pass_to_fail", "fail_to_pass", "error"]) {
      const filtered = await allPairs(viewer, done.id, `verdict_change=${change}&limit=1`);
      expect(filtered.map((p) => p.index).toSorted(), change).toEqual(
        pairs
          .filter((p) => p.verdict_change === change)
          .map((p) => p.index)
          .toSorted(),
      );
    }

    // Sort by latency diff both ways, two per page: every pair exactly once, in order.
    const numeric = (p: Json) => (p.latency_diff_ms === null ? null : Number(p.latency_diff_ms));
    for (const [sort, direction] of [
      ["latency_diff_ms", 1],
      ["-latency_diff_ms", -1],
      ["token_overhead", 1],
      ["-token_overhead", -1],
    ] as const) {
      const sorted = await allPairs(viewer, done.id, `sort=${sort}&limit=2`);
      expect(sorted.map((p) => p.index).toSorted(), sort).toEqual(pairs.map((p) => p.index).toSorted());
      expect(new Set(sorted.map((p) => p.index)).size, sort).toBe(6);
      const key = sort.replace("-", "");
      const values = sorted.map((p) => (key === "latency_diff_ms" ? numeric(p) : p.token_overhead)).filter((v) => v !== null);
      for (let i = 1; i < values.length; i++) expect(direction * (values[i] - values[i - 1]), `${sort} at ${i}`).toBeGreaterThanOrEqual(0);
    }
    const byIndex = await allPairs(viewer, done.id, "limit=4");
    expect(byIndex.map((p) => p.index)).toEqual([0, 1, 2, 3, 4, 5]);

    // JSON report: the spec's session document.
    const json = await api.report(viewer, done.id, "?format=json");
    expect(json.status).toBe(200);
    expect(json.headers.get("content-type")).toMatch(/application\/json/);
    expect(json.headers.get("content-disposition")).toMatch(/^attachment; filename="[^"/\\]+\.json"$/);
    const session = json.json;
    expect(session).toMatchObject({
      session_id: expect.any(String),
      start_time: expect.any(String),
      end_time: expect.any(String),
      baseline_model: expect.any(String),
      variant_model: expect.any(String),
      environment: expect.any(Object),
      notes: "Does the new prompt say yes more often?",
    });
    expect(session.results).toHaveLength(6);
    for (const r of session.results) {
      expect(r).toMatchObject({
        question: expect.stringMatching(/^question \d$/),
        baseline: expect.objectContaining({
          response: expect.any(String),
          prompt_tokens: expect.any(Number),
          latency_ms: expect.any(Number),
        }),
        variant: expect.objectContaining({ response: expect.any(String), completion_tokens: expect.any(Number) }),
        timestamp: expect.any(String),
        session_id: session.session_id,
        metadata: expect.any(Object),
        token_overhead: byCase.get(r.question)!.token_overhead,
      });
      expect(r.latency_diff_ms).toBeCloseTo(byCase.get(r.question)!.latency_diff_ms, 6);
    }

    // CSV report: the spec's columns, then Assay's verdicts; latencies with two decimals.
    const csv = await api.report(viewer, done.id, "?format=csv");
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(csv.headers.get("content-disposition")).toMatch(/^attachment; filename="[^"/\\]+\.csv"$/);
    const lines = csv.text.trimEnd().split(/\r?\n/);
    expect(lines[0]).toBe(
      "question,baseline_tokens,variant_tokens,token_overhead,baseline_latency_ms,variant_latency_ms,latency_diff_ms,response_length_ratio,baseline_status,variant_status,verdict_change",
    );
    expect(lines).toHaveLength(7);
    for (const line of lines.slice(1)) {
      const cells = line.split(",");
      expect(cells, line).toHaveLength(11);
      const pair = byCase.get(cells[0]!)!;
      expect(pair, line).toBeDefined();
      expect(cells.slice(1, 4).map(Number)).toEqual([pair.baseline.total_tokens, pair.variant.total_tokens, pair.token_overhead]);
      for (const cell of cells.slice(4, 7)) expect(cell, line).toMatch(/^-?\d+\.\d{2}$/);
      // Two decimals of a sub-millisecond latency: 14.375 may round either way, so within half a hundredth inclusive.
      expect(Math.abs(Number(cells[4]) - pair.baseline.latency_ms)).toBeLessThanOrEqual(0.005 + 1e-9);
      expect(Math.abs(Number(cells[6]) - pair.latency_diff_ms!)).toBeLessThanOrEqual(0.005 + 1e-9);
      expect(cells.slice(8)).toEqual([pair.baseline.status, pair.variant.status, pair.verdict_change]);
    }
  });

  it("runs every case once per arm per repetition", async () => {
    const { suite, editor } = await setup(2);
    const created = await api.create(editor, suite.id, {
      baseline: {},
      variant: { system_prompt: VARIANT_PROMPT },
      repetitions: 3,
      ordering: "randomized",
      seed: 7,
      reset_window_ms: 0,
    });
    expect(created.status, JSON.stringify(created.json)).toBe(202);
    const done = await untilFinished(editor, created.json.id);
    expect(done).toMatchObject({
      status: "completed",
      total_pairs: 6,
      completed_pairs: 6,
      repetitions: 3,
      ordering: "randomized",
      seed: 7,
    });
    const pairs = await allPairs(editor, done.id, "limit=500");
    const keys = pairs.map((p) => `${p.test_case_id}#${p.repetition}`);
    expect(new Set(keys).size).toBe(6);
    expect(pairs.map((p) => p.repetition).toSorted()).toEqual([0, 0, 1, 1, 2, 2]);
    for (const p of pairs) expect(p.order.toSorted()).toEqual(["baseline", "variant"]);
    const variantCalls = fake.requests.filter((r) => r.endpoint === "chat" && JSON.stringify(r.body.messages).includes("VARIANT"));
    expect(variantCalls).toHaveLength(6);
    expect(fake.requests.filter((r) => r.endpoint === "chat")).toHaveLength(12);
  });
});
