/**
 * Reports stream from a cursor: a 3,000-result run's reports are written page
 * by page, no query returns more than REPORT_PAGE_SIZE case results, the transcript column is
 * never read, and the next page is read only when the reader asks for more. Every SQL statement
 * is observed at the driver (pg's Client.query), so nothing here depends on timing or RSS.
 */
import pg from "pg";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { buildRunReport, REPORT_PAGE_SIZE } from "@/lib/runs/report";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { makeWorkspace } from "../helpers/factories";
import { makeReportRun } from "./report-fixture";

const RESULTS = 3_000;

type Seen = { text: string; rows: number };
const seen: Seen[] = [];
const originalQuery = pg.Client.prototype.query;
vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (this: pg.Client, ...args: unknown[]) {
  const result = (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  const config = args[0] as string | { text?: string };
  const text = typeof config === "string" ? config : (config?.text ?? "");
  if (result && typeof (result as Promise<pg.QueryResult>).then === "function") {
    (result as Promise<pg.QueryResult>).then(
      (r) => seen.push({ text, rows: r?.rows?.length ?? 0 }),
      () => undefined,
    );
  }
  return result as never;
});

/** Statements that read case result rows (not the aggregates, which return one row). */
const caseResultReads = () =>
  seen.filter((q) => /FROM "public"\."CaseResult"|FROM "CaseResult" c\s/.test(q.text) && !/count\(/.test(q.text));

let ctx: WorkspaceContext;
let runId: string;

beforeAll(async () => {
  ({ ctx } = await makeWorkspace("viewer"));
  ({ runId } = await makeReportRun(ctx, RESULTS));
}, 60_000);

afterEach(() => {
  seen.length = 0;
});

async function readAll(stream: ReadableStream<Uint8Array>) {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let chunks = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks++;
    text += decoder.decode(value, { stream: true });
  }
  return { text: text + decoder.decode(), chunks };
}

describe("run reports stream from a cursor", () => {
  const pages = Math.ceil(RESULTS / REPORT_PAGE_SIZE);

  it.each(["json", "markdown", "csv", "junit"] as const)("%s: written in pages of at most REPORT_PAGE_SIZE results", async (format) => {
    seen.length = 0;
    const report = await buildRunReport(ctx, runId, format);
    const { text, chunks } = await readAll(report.body);

    // The header, one chunk per page, the footer (csv has no separate header chunk).
    expect(chunks).toBeGreaterThanOrEqual(pages);
    const reads = caseResultReads();
    expect(reads.length).toBeGreaterThanOrEqual(pages);
    expect(Math.max(...reads.map((q) => q.rows))).toBeLessThanOrEqual(REPORT_PAGE_SIZE);
    // The transcript column is never read whole: only the tools it called, computed in SQL.
    expect(seen.filter((q) => /"transcript"/.test(q.text) && !/jsonb_array_elements/.test(q.text))).toEqual([]);

    if (format === "json") {
      const json = JSON.parse(text) as { results: { test_name: string; tool_calls: string[] }[]; run_id: string };
      expect(json.run_id).toBe(runId);
      expect(json.results).toHaveLength(RESULTS);
      expect(json.results[1]!.test_name).toBe("case 1");
      // Case 3 called lookup_order then refund|x (transcript order); case 1 only has tool-call check results.
      expect(json.results[3]!.tool_calls).toEqual(["lookup_order", "refund|x"]);
      expect(json.results[1]!.tool_calls).toEqual(["search", "delete"]);
    } else if (format === "csv") {
      expect(text.split("\n")[0]).toMatch(/^position,name,variant,status/);
    } else if (format === "markdown") {
      expect(text).toContain(`### ❌ Test ${RESULTS}: case ${RESULTS - 1} (FAILED) — variant`);
    } else {
      // The header's counts come from one aggregate query, before any row is read.
      expect(text).toMatch(
        new RegExp(`^<\\?xml[^\\n]*\\n<testsuites name="Assay" tests="${RESULTS}" failures="750" errors="375" skipped="375"`),
      );
      expect(text.match(/<testcase /g)).toHaveLength(RESULTS);
      expect(text.endsWith("  </testsuite>\n</testsuites>\n")).toBe(true);
    }
  });

  it("reads the next page only when the reader asks for it, and stops when the reader cancels", async () => {
    seen.length = 0;
    const report = await buildRunReport(ctx, runId, "csv");
    expect(caseResultReads()).toHaveLength(0);
    const reader = report.body.getReader();
    await reader.read();
    // Give a runaway producer every chance to read ahead.
    await new Promise((r) => setTimeout(r, 200));
    const afterFirst = caseResultReads().length;
    // The first page (rows + the tools query), and at most one page read ahead.
    expect(afterFirst).toBeLessThanOrEqual(4);
    await reader.cancel();
    await new Promise((r) => setTimeout(r, 100));
    expect(caseResultReads().length).toBe(afterFirst);
  });

  it("answers a missing run with NotFoundError before any byte is sent", async () => {
    await expect(buildRunReport(ctx, "00000000-0000-4000-8000-0000000000ff", "json")).rejects.toMatchObject({ status: 404 });
  });
});
