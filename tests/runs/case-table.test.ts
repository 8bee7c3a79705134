/**
 * The run page's case table for triage, read through its two routes (the REST
 * GET /api/v1/runs/{id}/case-results and the page's session route) and the case view's loader:
 * failures first, sorts, a search whose wildcards are literal, per-status counts, offset pages,
 * each failure's one-line reason, the case view's neighbours in the same order, workspace
 * scoping, and bad parameters answered with a 400 naming the field.
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { containsPattern } from "@/lib/runs/case-table";
import { countStatuses, makeSuiteWithCases, makeWorkspace, makeWorkspaceWithKey, runRowData } from "../helpers/factories";
import { call } from "../helpers/api";
import { session } from "../helpers/session";

vi.mock("@/lib/auth", () => import("../helpers/session"));

const { GET: tableApi } = await import("@/app/api/v1/runs/[id]/case-results/route");
const { GET: tableRoute } = await import("@/app/api/w/[workspaceId]/runs/[runId]/results/route");
const { loadCaseResultPage } = await import("@/lib/runs/loaders");
const { listCaseTable } = await import("@/lib/runs/case-table");

type Row = {
  name: string;
  status: "passed" | "failed" | "error" | "skipped" | "pending";
  latencyMs?: number | null;
  tokens?: number;
  tags?: string[];
  actualResponse?: string | null;
  checkResults?: unknown[];
  outcomeResults?: unknown[];
  failureReasons?: string[];
  errorType?: string;
  errorMessage?: string;
};

/** In case order (position = index). */
const ROWS: Row[] = [
  { name: "alpha", status: "passed", latencyMs: 300, tokens: 10, tags: ["billing"], actualResponse: "Refunds take 5 days" },
  {
    name: "beta",
    status: "failed",
    latencyMs: 100,
    tokens: 40,
    checkResults: [
      { check_index: 0, check_type: "contains_phrases", passed: false, details: { missing_phrases: ["refund policy", "30 days"] } },
    ],
    failureReasons: ["1 of 1 check failed"],
  },
  { name: "gamma", status: "error", latencyMs: null, tokens: 0, errorType: "agent", errorMessage: "upstream 500" },
  { name: "delta 50% off", status: "passed", latencyMs: 200, tokens: 30, actualResponse: "discount" },
  {
    name: "epsilon",
    status: "failed",
    latencyMs: 150,
    tokens: 20,
    checkResults: [{ check_index: 0, check_type: "contains_phrases", passed: true, details: {} }],
    outcomeResults: [
      { key: "o1", label: "Greets", passed: true, reasoning: "ok" },
      { key: "o2", label: "Offers a refund", passed: false, reasoning: "The agent never mentioned a refund.\nMore." },
    ],
    failureReasons: ["1 of 2 outcomes not met"],
  },
  { name: "zeta_x", status: "skipped", latencyMs: null, tokens: 0 },
  {
    name: "eta",
    status: "failed",
    latencyMs: 250,
    tokens: 50,
    checkResults: [
      { check_index: 0, check_type: "contains_phrases", passed: true, details: {} },
      { check_index: 1, check_type: "llm_judge", passed: false, details: { judgement: "fail", reasoning: "Answer is off-topic." } },
    ],
    failureReasons: ["1 of 2 checks failed", "Missing tool call lookup"],
  },
  { name: "theta", status: "passed", latencyMs: 120, tokens: 60, tags: ["VIP"], actualResponse: "with 100% certainty" },
  {
    name: "iota",
    status: "failed",
    latencyMs: 90,
    tokens: 5,
    checkResults: [
      { check_index: 0, check_type: "semantic_similarity", passed: false, details: { similarity_score: 0.6123, threshold: 0.8 } },
    ],
    failureReasons: ["1 of 1 check failed"],
  },
  { name: "kappa", status: "pending", latencyMs: null, tokens: 0 },
];

/** Failures first (in case order), then errors, passes, skipped, pending. */
const DEFAULT_ORDER = ["beta", "epsilon", "eta", "iota", "gamma", "alpha", "delta 50% off", "theta", "zeta_x", "kappa"];

async function makeTableRun(ctx: WorkspaceContext, rows: Row[]) {
  const { suite } = await makeSuiteWithCases(ctx, 0);
  return db.run.create({
    data: {
      ...runRowData(ctx, suite.id, "completed", countStatuses(rows.map((r) => r.status))),
      results: {
        create: rows.map((r, i) => ({
          workspaceId: ctx.workspaceId,
          position: i,
          status: r.status,
          stage: "complete" as const,
          name: r.name,
          tags: r.tags ?? [],
          caseSnapshot: {},
          actualResponse: r.actualResponse ?? null,
          checkResults: (r.checkResults ?? []) as object[],
          outcomeResults: (r.outcomeResults ?? []) as object[],
          failureReasons: r.failureReasons ?? [],
          errorType: r.errorType ?? null,
          errorMessage: r.errorMessage ?? null,
          latencyMs: r.latencyMs ?? null,
          promptTokens: r.tokens ?? 0,
          completionTokens: 0,
          // A cost that follows the tokens (a thousandth of a dollar each); none without tokens.
          costUsd: r.tokens ? r.tokens / 1000 : null,
        })),
      },
    },
    select: { id: true, results: { select: { id: true, name: true } } },
  });
}

let ctx: WorkspaceContext;
let workspaceId: string;
let userId: string;
let token: string;
let runId: string;
let idOf: (name: string) => string;

beforeAll(async () => {
  ({ ctx, workspaceId, userId, token } = await makeWorkspaceWithKey("viewer"));
  const run = await makeTableRun(ctx, ROWS);
  runId = run.id;
  idOf = (name) => run.results.find((r) => r.name === name)!.id;
  // Another run of the same workspace: never counted or listed in this one's table.
  await makeTableRun(ctx, [{ name: "elsewhere", status: "failed", failureReasons: ["x"] }]);
}, 30_000);

beforeEach(() => {
  session.userId = userId;
});

const api = (query = "") => call(tableApi, { url: `/api/v1/runs/${runId}/case-results${query}`, token, params: { id: runId } });
const names = (res: { json: { data: { name: string }[] } }) => res.json.data.map((r) => r.name);

describe("GET /api/v1/runs/{id}/case-results", () => {
  it("lists failures first, then errors, passes and the rest, with counts per status", async () => {
    const res = await api();
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(DEFAULT_ORDER);
    expect(res.json).toMatchObject({ total: 10, page: 1, limit: 50 });
    expect(res.json.counts).toEqual({ failed: 4, error: 1, passed: 3, skipped: 1, pending: 1, running: 0 });
  });

  it("says in each failed or errored row why it did not pass", async () => {
    const res = await api();
    const reason = (name: string) => res.json.data.find((r: { name: string }) => r.name === name).failure_reason;
    expect(reason("beta")).toEqual({ text: "Missing phrases “refund policy”, “30 days”", more: 0 });
    expect(reason("epsilon")).toEqual({ text: "Outcome not met: Offers a refund — The agent never mentioned a refund.", more: 0 });
    expect(reason("eta")).toEqual({ text: "Judge: Answer is off-topic.", more: 1 });
    expect(reason("iota")).toEqual({ text: "Similarity 0.61 < threshold 0.80", more: 0 });
    expect(reason("gamma")).toEqual({ text: "Agent error: upstream 500", more: 0 });
    expect(reason("alpha")).toBeNull();
    expect(reason("zeta_x")).toBeNull();
  });

  it("sorts by name, latency, tokens and cost either way, missing values last, and status descending", async () => {
    expect(names(await api("?sort=name"))).toEqual([...DEFAULT_ORDER].sort());
    expect(names(await api("?sort=name&dir=desc"))).toEqual([...DEFAULT_ORDER].sort().reverse());
    const latency = (await api("?sort=latency&dir=desc")).json.data.map((r: { latency_ms: number | null }) => r.latency_ms);
    expect(latency).toEqual([300, 250, 200, 150, 120, 100, 90, null, null, null]);
    const ascending = (await api("?sort=latency&dir=asc")).json.data.map((r: { latency_ms: number | null }) => r.latency_ms);
    expect(ascending).toEqual([90, 100, 120, 150, 200, 250, 300, null, null, null]);
    expect(names(await api("?sort=tokens&dir=desc")).slice(0, 3)).toEqual(["theta", "eta", "beta"]);
    expect(names(await api("?sort=status&dir=desc")).slice(0, 2)).toEqual(["kappa", "zeta_x"]);
    const cost = (await api("?sort=cost&dir=desc")).json.data.map((r: { cost_usd: number | null }) => r.cost_usd);
    expect(cost).toEqual([0.06, 0.05, 0.04, 0.03, 0.02, 0.01, 0.005, null, null, null]);
    expect(names(await api("?sort=cost&dir=asc")).slice(0, 2)).toEqual(["iota", "alpha"]);
  });

  it("filters by status and tag while the chips count every status of the search", async () => {
    const failed = await api("?status=failed");
    expect(names(failed)).toEqual(["beta", "epsilon", "eta", "iota"]);
    expect(failed.json.total).toBe(4);
    expect(failed.json.counts.passed).toBe(3);
    expect(names(await api("?tag=billing"))).toEqual(["alpha"]);
  });

  it("searches names, tags and response text case-insensitively, wildcards taken literally", async () => {
    expect(names(await api("?q=REFUNDS take"))).toEqual(["alpha"]);
    expect(names(await api("?q=vip"))).toEqual(["theta"]);
    // `%` and `_` are characters, not patterns: an unescaped pattern would match every row.
    const percent = await api(`?q=${encodeURIComponent("%")}`);
    expect(names(percent)).toEqual(["delta 50% off", "theta"]);
    expect(percent.json.counts).toEqual({ failed: 0, error: 0, passed: 2, skipped: 0, pending: 0, running: 0 });
    expect(percent.json.total).toBe(2);
    expect(names(await api("?q=_"))).toEqual(["zeta_x"]);
    expect(names(await api(`?q=${encodeURIComponent("\\")}`))).toEqual([]);
    expect(containsPattern("50%_a\\b")).toBe("%50\\%\\_a\\\\b%");
    expect(names(await api("?q=%20%20"))).toEqual(DEFAULT_ORDER);
  });

  it("pages by offset in the table's order", async () => {
    const second = await api("?limit=3&page=2");
    expect(names(second)).toEqual(["iota", "gamma", "alpha"]);
    expect(second.json).toMatchObject({ total: 10, page: 2, limit: 3 });
    expect(names(await api("?limit=3&page=4"))).toEqual(["kappa"]);
    expect((await api("?limit=3&page=9")).json.data).toEqual([]);
  });

  it("answers bad parameters with a 400 naming the field", async () => {
    for (const [query, field] of [
      ["?sort=price", "sort"],
      ["?sort=latency&dir=up", "dir"],
      ["?page=0", "page"],
      ["?page=two", "page"],
      ["?limit=201", "limit"],
      ["?status=broken", "status"],
      [`?q=${"x".repeat(201)}`, "q"],
    ] as const) {
      const res = await api(query);
      expect(res.status, query).toBe(400);
      expect(res.json.error.issues[0].path, query).toBe(field);
    }
  });

  it("hides another workspace's run (404) and never lists another run's results", async () => {
    const other = await makeWorkspace("owner");
    const foreign = await makeTableRun(other.ctx, [{ name: "secret", status: "failed" }]);
    const res = await call(tableApi, { url: "/", token, params: { id: foreign.id } });
    expect(res.status).toBe(404);
    await expect(listCaseTable(ctx, foreign.id)).rejects.toThrow(NotFoundError);
    expect(names(await api("?q=elsewhere"))).toEqual([]);
  });
});

describe("the run page's session route (GET /api/w/{workspaceId}/runs/{runId}/results)", () => {
  const table = (query: string) => call(tableRoute, { url: `/${query}`, params: { workspaceId, runId } });

  it("reads the same table, and refuses bad parameters naming the field", async () => {
    const res = await table("?status=failed&sort=name&dir=desc&limit=2");
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(["iota", "eta"]);
    expect(res.json.total).toBe(4);
    const bad = await table("?sort=bogus");
    expect(bad.status).toBe(400);
    expect(bad.json.error.issues[0].path).toBe("sort");
  });

  it("is 404 for a member of another workspace", async () => {
    const other = await makeWorkspace("owner");
    session.userId = other.user.id;
    expect((await call(tableRoute, { url: "/", params: { workspaceId, runId } })).status).toBe(404);
  });
});

describe("the case view's neighbours", () => {
  const nav = async (name: string, sp: Record<string, string> = {}) => (await loadCaseResultPage(ctx, runId, idOf(name), sp)).neighbours;

  it("walks the failures in the table's default order", async () => {
    expect(await nav("beta")).toMatchObject({
      index: 1,
      total: 10,
      failures: 4,
      failureIndex: 1,
      page: 1,
      prevFailure: null,
      nextFailure: idOf("epsilon"),
      prevCase: null,
      nextCase: idOf("epsilon"),
    });
    expect(await nav("iota")).toMatchObject({ failureIndex: 4, prevFailure: idOf("eta"), nextFailure: null, nextCase: idOf("gamma") });
    // A passed case: the failures before it, none after.
    expect(await nav("alpha")).toMatchObject({ index: 6, prevFailure: idOf("iota"), nextFailure: null, prevCase: idOf("gamma") });
  });

  it("keeps the list's filter, search and order from the query, and falls back to the first failure outside it", async () => {
    expect(await nav("eta", { status: "failed", sort: "name", dir: "desc" })).toMatchObject({
      index: 2,
      total: 4,
      prevFailure: idOf("iota"),
      nextFailure: idOf("epsilon"),
      nextCase: idOf("epsilon"),
    });
    const outside = await nav("alpha", { status: "failed" });
    expect(outside).toMatchObject({ index: null, prevFailure: null, nextFailure: idOf("beta"), nextCase: null });
    // A bad value in a hand-edited link is dropped, not an error.
    expect(await nav("beta", { sort: "bogus", page: "-3" })).toMatchObject({ index: 1, nextFailure: idOf("epsilon") });
  });
});
