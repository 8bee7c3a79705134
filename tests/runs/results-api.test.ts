/**
 * Case results without the whole run: the API list reads and returns
 * transcripts only on `?include=transcript`, one case result always has its transcript, and the
 * run page's live table reads only the columns it shows, one page at a time. SQL statements are
 * observed at the driver (pg's Client.query).
 */
import pg from "pg";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { makeWorkspace, makeWorkspaceWithKey } from "../helpers/factories";
import { call, readAllPages } from "../helpers/api";
import { makeReportRun } from "./report-fixture";
import { session } from "../helpers/session";

vi.mock("@/lib/auth", () => import("../helpers/session"));

const { GET: resultsRoute } = await import("@/app/api/v1/runs/[id]/results/route");
const { GET: caseResultRoute } = await import("@/app/api/v1/case-results/[id]/route");
const { GET: tableRoute } = await import("@/app/api/w/[workspaceId]/runs/[runId]/results/route");

const statements: string[] = [];
const originalQuery = pg.Client.prototype.query;
vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (this: pg.Client, ...args: unknown[]) {
  const config = args[0] as string | { text?: string };
  statements.push(typeof config === "string" ? config : (config?.text ?? ""));
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args) as never;
});
const caseResultSelects = () => statements.filter((s) => /^SELECT .* FROM "public"\."CaseResult"/s.test(s));

let ctx: WorkspaceContext;
let workspaceId: string;
let userId: string;
let token: string;
let runId: string;

beforeAll(async () => {
  ({ ctx, workspaceId, userId, token } = await makeWorkspaceWithKey("viewer"));
  ({ runId } = await makeReportRun(ctx, 240));
}, 30_000);

beforeEach(() => {
  statements.length = 0;
  session.userId = userId;
});

describe("GET /api/v1/runs/{id}/results", () => {
  const list = (query: string) => call(resultsRoute, { url: `/api/v1/runs/${runId}/results${query}`, token, params: { id: runId } });

  it("omits the transcript, and never reads it, unless include=transcript", async () => {
    const plain = await list("?limit=3");
    expect(plain.status).toBe(200);
    expect(plain.json.data).toHaveLength(3);
    for (const r of plain.json.data) {
      expect(r).not.toHaveProperty("transcript");
      expect(r).toHaveProperty("test_case");
      expect(r).toHaveProperty("metric_results");
    }
    expect(caseResultSelects().length).toBeGreaterThan(0);
    expect(caseResultSelects().filter((s) => s.includes('"transcript"'))).toEqual([]);

    const full = await list("?limit=3&include=transcript");
    expect(full.status).toBe(200);
    expect(full.json.data[0].transcript).toEqual([
      { role: "user", content: "Question 0" },
      { role: "assistant", content: null, tool_calls: [{ id: "c0", name: "lookup_order", arguments: {} }] },
      { role: "tool", tool_call_id: "c0", content: '{"status":"shipped"}' },
      { role: "assistant", content: "Answer 0" },
    ]);
    // Same rows, same fields otherwise.
    expect(full.json.data.map(({ transcript: _t, ...rest }: Record<string, unknown>) => rest)).toEqual(plain.json.data);
    // A comma list; a repeated name is the same request.
    expect((await list("?limit=1&include=transcript,transcript")).json.data[0]).toHaveProperty("transcript");
  });

  it("refuses an unknown include with a 400 naming the parameter", async () => {
    const bad = await list("?include=transcript,llm_calls");
    expect(bad.status).toBe(400);
    expect(bad.json.error.issues[0].path).toMatch(/^include/);
    expect((await list("?include=")).status).toBe(400);
  });

  it("pages through every result in case order with the cursor", async () => {
    const { items, pages } = await readAllPages<{ name: string }>(async (cursor) => {
      const page = await list(`?limit=100${cursor ? `&cursor=${cursor}` : ""}`);
      expect(page.status).toBe(200);
      return page.json;
    }, 100);
    const names = items.map((r) => r.name);
    expect(pages).toBe(3);
    expect(names).toHaveLength(240);
    expect(names[1]).toBe("case 1");
  });
});

describe("GET /api/v1/case-results/{id}", () => {
  it("always returns the case's transcript and LLM calls", async () => {
    const first = (await call(resultsRoute, { url: `/api/v1/runs/${runId}/results?limit=1`, token, params: { id: runId } })).json.data[0];
    const one = await call(caseResultRoute, { url: `/api/v1/case-results/${first.id}`, token, params: { id: first.id } });
    expect(one.status).toBe(200);
    expect(one.json.transcript).toHaveLength(4);
    expect(one.json.llm_calls).toEqual([]);
    expect(one.json).toMatchObject({ id: first.id, name: first.name, status: first.status });
  });
});

describe("the run page's live table (GET /api/w/{workspaceId}/runs/{runId}/results)", () => {
  const table = (query: string) => call(tableRoute, { url: `/${query}`, params: { workspaceId, runId } });

  it("reads only the columns it shows, one page per request, filtered in SQL", async () => {
    const page = await table("?limit=50");
    expect(page.status).toBe(200);
    expect(page.json.data).toHaveLength(50);
    expect(page.json).toMatchObject({ total: 240, page: 1, limit: 50 });
    expect(Object.keys(page.json.data[0]).sort()).toEqual(
      [
        "id",
        "test_case_id",
        "variant",
        "position",
        "status",
        "stage",
        "name",
        "tags",
        "prompt_tokens",
        "completion_tokens",
        "cost_usd",
        "latency_ms",
        "duration_ms",
        "retry_count",
        "trial",
        "turns",
        "error_message",
        "error_type",
        "failure_reasons",
        "failure_reason",
        "stopped_by_safety_cap",
        "human_verdict",
        "review_status",
      ].sort(),
    );
    // One statement for the page (the counts are another, over the status column only).
    const selects = statements.filter((s) => /^SELECT c\."id"/.test(s));
    expect(selects).toHaveLength(1);
    // Only a failed row's first failing check and outcome are read from the verdicts, never the rest.
    for (const column of ["transcript", "caseSnapshot", "metricResults", "processedFiles", "actualResponse", "toolCallResults"]) {
      expect(selects[0]).not.toContain(`"${column}"`);
    }
    expect(selects[0]).toMatch(/LIMIT \$\d+::int OFFSET \$\d+::int/);

    statements.length = 0;
    const failed = await table("?status=failed&limit=50");
    expect(failed.json.data.every((r: { status: string }) => r.status === "failed")).toBe(true);
    expect(failed.json.data).toHaveLength(50);
    expect(statements.find((s) => /^SELECT c\."id"/.test(s))).toMatch(/"status" = \$\d+/);

    const odd = await table("?tag=odd&limit=200");
    expect(odd.json.data).toHaveLength(120);
    expect(odd.json.total).toBe(120);
  });

  it("answers a run of another workspace with a 404", async () => {
    const other = await makeWorkspace("owner");
    const { runId: foreign } = await makeReportRun(other.ctx, 2);
    const res = await call(tableRoute, { url: "/", params: { workspaceId, runId: foreign } });
    expect(res.status).toBe(404);
  });
});
