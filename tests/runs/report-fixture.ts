import { db } from "@/lib/db";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { makeSuiteWithCases } from "../helpers/factories";

const STATUSES = ["passed", "failed", "error", "skipped", "passed", "running", "pending", "failed"] as const;

/**
 * A finished run of `count` case results that exercise every report branch: each status, both
 * variants, tool calls in the transcript and only in tool_call_results, metric results (on a
 * scale and stored before thresholds moved to the scale), processed files (one failed), failure
 * reasons, errors, a safety-cap stop, text with newlines, pipes and formula characters. Ids,
 * names and times are fixed so two builds of the same run can be compared byte for byte.
 */
export async function makeReportRun(ctx: WorkspaceContext, count: number, opts: { runId?: string; summary?: boolean } = {}) {
  const agent = { id: "00000000-0000-4000-8000-00000000a9e7", name: "Report bot", kind: "chat", model_config: { model: "fake-model" } };
  const { suite: made } = await makeSuiteWithCases(ctx, 0);
  const suite = await db.suite.update({ where: { id: made.id }, data: { name: `Report | suite <b> ${count}` }, select: { id: true } });
  const start = Date.parse("2026-03-01T10:00:00Z");
  const run = await db.run.create({
    data: {
      ...(opts.runId ? { id: opts.runId } : {}),
      workspaceId: ctx.workspaceId,
      suiteId: suite.id,
      status: "completed",
      triggeredBy: "api",
      agentSnapshot: agent,
      resolvedVariables: { values: { tone: "calm" }, sources: { tone: "run" } },
      totalCases: count,
      createdAt: new Date(start),
      startedAt: new Date(start),
      completedAt: new Date(start + 60_000),
      ...(opts.summary === false
        ? {}
        : {
            summary: {
              total_tests: count,
              total_cases: count,
              passed: 1,
              failed: 1,
              errors: 1,
              skipped: 1,
              pass_rate: 50,
              weighted_pass_rate: 40,
              wall_time_ms: 61_000,
              total_duration_ms: 1234,
              average_scores: { relevance: 0.75, "tone|x": 0.5 },
              metric_pass_rates: { relevance: 66.6, "tone|x": 50 },
            },
          }),
    },
    select: { id: true },
  });
  const rows = Array.from({ length: count }, (_, i) => {
    const status = STATUSES[i % STATUSES.length]!;
    const withTools = i % 3 === 0;
    return {
      workspaceId: ctx.workspaceId,
      runId: run.id,
      variant: i % 5 === 4 ? ("variant" as const) : ("baseline" as const),
      position: i % 5 === 4 ? i - 1 : i,
      status,
      stage: status === "error" ? ("agent_failed" as const) : status === "pending" ? ("pending" as const) : ("complete" as const),
      name: i % 7 === 0 ? `=case ${i} | "quoted"\nnext line` : `case ${i}`,
      tags: i % 2 ? ["odd", "t|x"] : ["even"],
      caseSnapshot: {
        initial_message: i % 6 === 5 ? null : `Question ${i}: *bold* <img src=x>`,
        ground_truth: i % 4 === 0 ? `truth ${i}` : null,
        expected_tool_calls: withTools ? [{ tool: "lookup_order" }] : null,
        difficulty: i % 9 === 0 ? "hard" : "normal",
      },
      transcript: withTools
        ? [
            { role: "user", content: `Question ${i}` },
            { role: "assistant", content: null, tool_calls: [{ id: `c${i}`, name: "lookup_order", arguments: {} }] },
            { role: "tool", tool_call_id: `c${i}`, content: '{"status":"shipped"}' },
            { role: "assistant", content: `Answer ${i}`, tool_calls: i % 2 ? [{ id: `d${i}`, name: "refund|x" }] : undefined },
          ]
        : [
            { role: "user", content: `Question ${i}` },
            { role: "assistant", content: `Answer ${i}` },
          ],
      actualResponse: i % 10 === 3 ? null : `Answer ${i}\n\twith a tab, a | pipe and +formula ${"x".repeat(i % 40)}`,
      responseTruncated: i % 11 === 0,
      toolCallResults:
        i % 4 === 1
          ? { passed: i % 8 === 1, matched: [{ tool: "search" }], missing: [], unexpected: [{ tool: "delete" }] }
          : withTools
            ? { passed: true, matched: [{ tool: "lookup_order" }], missing: [], unexpected: [] }
            : undefined,
      checkResults: status === "failed" ? [{ check_type: "contains_phrases", passed: false }] : [{ check_type: "regex", passed: true }],
      outcomeResults: status === "failed" && i % 2 ? [{ label: "Offers a refund", passed: false }] : [],
      metricResults:
        i % 3 === 1
          ? [
              { metric_name: "relevance", score: 4, threshold: 3, passed: true, scale: 5, normalized_score: 0.75 },
              { metric_name: "tone|x", score: null, threshold: 0.5, passed: false, error: "judge | timed out" },
            ]
          : i % 3 === 2
            ? [{ metric_name: "relevance", score: 0.3333, threshold: 0.5, passed: false }]
            : [],
      processedFiles:
        i % 13 === 0
          ? [
              {
                original: { path: "files/invoice.pdf", type: "pdf" },
                markdown_content: "Invoice",
                cached_path: null,
                processing_time_ms: 120,
                error: null,
                metadata: { name: "invoice.pdf" },
              },
              {
                original: { url: "https://example.test/a.png", type: "image" },
                markdown_content: "",
                cached_path: null,
                processing_time_ms: 0,
                error: "download | failed",
                metadata: {},
              },
            ]
          : undefined,
      promptTokens: 10 + i,
      completionTokens: 5 + (i % 17),
      latencyMs: status === "pending" ? null : 100 + (i % 50),
      durationMs: status === "pending" ? null : 150 + ((i * 7) % 300),
      retryCount: i % 4,
      evaluatorRetryCount: i % 3,
      turns: 1 + (i % 3),
      resolvedVariables: i % 2 ? { values: { tone: "calm" }, sources: { tone: "run" } } : undefined,
      errorMessage:
        status === "error" ? `Agent error | 500 <html>` : status === "skipped" ? "Run cancelled before this case started" : null,
      errorType: status === "error" ? "agent" : null,
      failureReasons: status === "failed" ? ["relevance below threshold", "missing | phrase"] : [],
      endReason: i % 19 === 0 ? "safety_cap" : status === "pending" ? null : "single_turn",
      startedAt: status === "pending" ? null : new Date(start + i * 10),
      completedAt: status === "pending" || status === "running" ? null : new Date(start + i * 10 + 150),
      createdAt: new Date(start),
    };
  });
  for (let i = 0; i < rows.length; i += 1000) await db.caseResult.createMany({ data: rows.slice(i, i + 1000) });
  return { runId: run.id, suiteId: suite.id };
}
