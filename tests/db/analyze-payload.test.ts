// ANALYZE skips the payload columns of CaseResult and LlmCall (statistics target 0): no query
// filters on a transcript or a request body, and sampling them (detoasting and sorting
// thousands of JSON documents) was what made autoanalyze of a large run's tables expensive.
// The columns runs are filtered and joined by keep their statistics.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { claimCases } from "@/lib/runs/claims";
import { ResultWriter } from "@/lib/runs/result-writer";
import { passedOutcome, pendingRun } from "../runs/run-fixtures";
import { asOwner } from "../helpers/owner-db";

const PAYLOAD = {
  CaseResult: [
    "caseSnapshot",
    "transcript",
    "actualResponse",
    "checkResults",
    "toolCallResults",
    "outcomeResults",
    "metricResults",
    "costBreakdown",
    "resolvedVariables",
    "agentStats",
    "processedFiles",
    "errorMessage",
  ],
  LlmCall: ["request", "response", "error"],
};

/** The owner analyses (the app role may not) and reads pg_stats, which hides tables under row-level security from other roles. */
function analyzedColumns(table: string): Promise<string[]> {
  return asOwner(async (client) => {
    await client.query(`ANALYZE "${table}"`);
    const { rows } = await client.query<{ attname: string }>(
      `SELECT attname::text FROM pg_stats WHERE schemaname = 'public' AND tablename = $1`,
      [table],
    );
    return rows.map((r) => r.attname);
  });
}

describe("statistics of a run's tables", () => {
  it("ANALYZE samples the columns runs are filtered by, and none of the payload columns", async () => {
    const { ctx, run } = await pendingRun(12, 6);
    const jobs = await claimCases({ workerId: "w1", leaseMs: 30_000, workspaceMaxRunning: null }, run.id, 6, ctx.workspaceId);
    expect(jobs).toHaveLength(6);
    const writer = new ResultWriter("w1", { stopped: () => false });
    await Promise.all(
      jobs.map((job, i) =>
        writer.write(
          job,
          {
            ...passedOutcome(),
            transcript: [{ role: "user", content: `question ${i}` }],
            llmCalls: [
              {
                purpose: "agent",
                model: "fake-model",
                request: { messages: [{ role: "user", content: `question ${i}` }] },
                response: `answer ${i}`,
                error: null,
                attempts: 1,
                latencyMs: 12,
                cached: false,
              },
            ],
          },
          12,
        ),
      ),
    );
    expect(await db.llmCall.count({ where: { runId: run.id } })).toBe(6);

    const caseResult = await analyzedColumns("CaseResult");
    expect(caseResult).toEqual(expect.arrayContaining(["runId", "status", "position", "testCaseId", "workspaceId", "tags"]));
    expect(caseResult.filter((c) => PAYLOAD.CaseResult.includes(c))).toEqual([]);

    const llmCall = await analyzedColumns("LlmCall");
    expect(llmCall).toEqual(expect.arrayContaining(["runId", "caseResultId", "purpose", "model"]));
    expect(llmCall.filter((c) => PAYLOAD.LlmCall.includes(c))).toEqual([]);
  });
});
