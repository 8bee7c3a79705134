/**
 * Importing a session document (the A/B engine's own, or Assay's export) as a read-only
 * comparison whose pairs and statistics are derived exactly as for an executed one.
 */
import "server-only";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { ValidationError, zodIssues } from "@/lib/errors";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import { isUuid } from "@/lib/ids";
import { requireLiveSuite } from "@/lib/test-cases/suite-guards";
import { emptyStats } from "@/lib/llm/stats";
import { armStatsFromExecutions, summaryOf, writePairs, type PairRecord } from "./pairs";
import { sessionDocument } from "./schemas";
import { type ComparisonDto, type StoredExecution } from "./dto";
import { getComparisonUnchecked } from "./read";
import { createArm, storeSummary } from "./create";

/**
 * POST /api/v1/suites/{id}/comparisons/import: the A/B engine's `load_session` — a session document
 * (the engine's own, with `docstratum`, or Assay's export) becomes a read-only comparison whose
 * pairs and statistics are derived exactly as for an executed one. Plain engine documents carry no
 * verdicts: an execution without `status` counts as `passed` when it has no error, else `error`.
 */
export async function importComparison(ctx: WorkspaceContext, suiteId: string, raw: unknown): Promise<ComparisonDto> {
  requireRole(ctx, "editor");
  await requireLiveSuite(ctx, suiteId);
  const parsed = sessionDocument.safeParse(raw);
  if (!parsed.success) throw new ValidationError("Invalid session document", zodIssues(parsed.error));
  const doc = parsed.data;
  const validIds = new Set(
    (
      await db.testCase.findMany({
        where: {
          workspaceId: ctx.workspaceId,
          suiteId,
          id: { in: doc.results.map((r) => r.test_case_id).filter((x): x is string => typeof x === "string" && isUuid(x)) },
        },
        select: { id: true },
      })
    ).map((t) => t.id),
  );
  const toExecution = (r: NonNullable<(typeof doc.results)[number]["baseline"]>): StoredExecution => {
    const error = r.error ?? null;
    return {
      // Case results of another comparison are not linked: the import stands on its own.
      case_result_id: null,
      response: r.response,
      prompt_tokens: r.prompt_tokens,
      completion_tokens: r.completion_tokens,
      latency_ms: r.latency_ms,
      turn_latencies_ms: [],
      model: r.model,
      timestamp: r.timestamp ?? null,
      error,
      evaluation_error: r.evaluation_error ?? null,
      retry_count: r.retry_count,
      status: r.status ?? (error ? "error" : "passed"),
    };
  };
  const pairs: PairRecord[] = doc.results.map((r, index) => ({
    index,
    testCaseId: r.test_case_id && validIds.has(r.test_case_id) ? r.test_case_id : null,
    testCaseName: r.test_case_name ?? r.question.slice(0, 255),
    question: r.question,
    repetition: r.repetition,
    order: r.order ?? ["baseline", "variant"],
    executions: [toExecution(r.baseline), toExecution((r.variant ?? r.docstratum)!)],
    metadata: r.metadata,
    contextTokens: r.context_tokens,
  }));
  // Assay's own export carries the engine's ExecutionStats; a plain engine document only has its executions.
  const exported = doc.execution_stats;
  const summary = summaryOf(pairs, [
    exported ? { ...emptyStats(), ...exported.baseline } : armStatsFromExecutions(pairs.map((p) => p.executions[0]!)),
    exported ? { ...emptyStats(), ...exported.variant } : armStatsFromExecutions(pairs.map((p) => p.executions[1]!)),
  ]);
  const date = (s: string | null | undefined) => {
    const d = s ? new Date(s) : null;
    return d && !Number.isNaN(d.getTime()) ? d : null;
  };
  const variantModel = doc.variant_model ?? doc.docstratum_model ?? "variant";
  const id = await db.$transaction(
    async (tx) => {
      const comparison = await tx.comparison.create({
        data: {
          workspaceId: ctx.workspaceId,
          suiteId,
          name: doc.name ?? `Imported session ${doc.session_id}`.slice(0, 255),
          notes: doc.notes,
          source: "imported",
          status: "completed",
          sessionId: doc.session_id,
          llmsSourcePath: doc.llms_source_path || null,
          environment: doc.environment as Prisma.InputJsonValue,
          totalPairs: pairs.length,
          completedPairs: pairs.length,
          createdByUserId: ctx.userId,
          createdByKeyId: ctx.apiKeyId,
          startedAt: date(doc.start_time),
          completedAt: date(doc.end_time) ?? new Date(),
        },
        select: { id: true },
      });
      for (const [index, model] of [doc.baseline_model, variantModel].entries()) {
        await createArm(tx, ctx.workspaceId, comparison.id, index, {
          label: model || (index === 0 ? "Baseline" : "Variant"),
          config: {},
          resolved: { model },
        });
      }
      await writePairs(tx, comparison.id, ctx.workspaceId, pairs);
      await storeSummary(tx, comparison.id, summary);
      return comparison.id;
    },
    { timeout: 60_000 },
  );
  return getComparisonUnchecked(ctx, id);
}
