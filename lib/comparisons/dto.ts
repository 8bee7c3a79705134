import { iso } from "@/lib/serialize";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { VerdictChange } from "./diffs";
import type { z } from "zod";
import type { ArmInput, ComparisonOrdering, ComparisonSource, ComparisonStatus, RetryPolicyInput } from "./schemas";
import type { armExecuted, armExecutionStats, comparison, comparisonArm, comparisonPair, comparisonSummary, execution } from "./openapi";

/**
 * The comparison feature's public shapes: Prisma selects, row → DTO mappers and the DTO types
 * the API, the pages and client components share. Each DTO type is `z.output` of its response
 * schema in ./openapi.ts (imported as a type only), so the schema is the one definition. No
 * server-only imports.
 */

/** One arm's execution of one case (the A/B engine's AgentResponse + Assay's verdict). */
export type ExecutionDto = z.output<typeof execution>;

/** Stored form of an execution in `ComparisonPair.executions` (index = arm index; null while the arm has not finished). */
export type StoredExecution = Omit<ExecutionDto, "total_tokens" | "tokens_per_ms">;

export type ArmExecutionStats = z.output<typeof armExecutionStats>;
export type ComparisonSummaryDto = z.output<typeof comparisonSummary>;

/**
 * What an arm really ran, read back from its recorded agent calls (not from the request): each
 * distinct model, temperature and max tokens the calls named, with how many calls did.
 */
export type ArmExecutedDto = z.output<typeof armExecuted>;
export type ArmDto = z.output<typeof comparisonArm>;
export type ComparisonDto = z.output<typeof comparison>;
export type ComparisonPairDto = z.output<typeof comparisonPair>;

/** One finished pair's numbers as the comparison page charts them (its session route …/data/chart). */
export type ComparisonChartPair = {
  index: number;
  test_case_name: string;
  repetition: number;
  baseline_latency_ms: number | null;
  variant_latency_ms: number | null;
  latency_diff_ms: number | null;
  token_overhead: number | null;
  verdict_change: VerdictChange | string | null;
  both_successful: boolean | null;
};
export type ComparisonChartData = { pairs: ComparisonChartPair[] };

export const comparisonSelect = {
  id: true,
  suiteId: true,
  name: true,
  notes: true,
  source: true,
  status: true,
  ordering: true,
  seed: true,
  resetWindowMs: true,
  repetitions: true,
  concurrency: true,
  retryPolicy: true,
  options: true,
  environment: true,
  summary: true,
  totalPairs: true,
  completedPairs: true,
  sessionId: true,
  llmsSourcePath: true,
  errorMessage: true,
  cancelRequestedAt: true,
  startedAt: true,
  completedAt: true,
  createdAt: true,
  arms: {
    select: { index: true, role: true, label: true, config: true, resolved: true, runId: true, run: { select: { number: true } } },
    orderBy: { index: "asc" },
  },
} as const satisfies Prisma.ComparisonSelect;

export type ComparisonRow = Prisma.ComparisonGetPayload<{ select: typeof comparisonSelect }>;

function toArmDto(a: ComparisonRow["arms"][number], executed: ReadonlyMap<string, ArmExecutedDto>): ArmDto {
  return {
    ...(a.config as ArmInput),
    role: a.role,
    label: a.label,
    run_id: a.runId,
    run_number: a.run?.number ?? null,
    resolved: (a.resolved ?? {}) as ArmDto["resolved"],
    executed: a.runId ? (executed.get(a.runId) ?? { agent_calls: 0, models: [] }) : null,
  };
}

/** `executed`: by arm run id, what its agent calls named (runs without calls are reported with none). */
export function toComparisonDto(c: ComparisonRow, executed: ReadonlyMap<string, ArmExecutedDto> = new Map()): ComparisonDto {
  const arms = c.arms.map((a) => toArmDto(a, executed));
  const start = c.startedAt ?? (c.source === "executed" ? null : c.createdAt);
  return {
    id: c.id,
    suite_id: c.suiteId,
    name: c.name,
    notes: c.notes,
    source: c.source as ComparisonSource,
    status: c.status as ComparisonStatus,
    ordering: c.ordering as ComparisonOrdering,
    seed: c.seed,
    reset_window_ms: c.resetWindowMs,
    repetitions: c.repetitions,
    concurrency: c.concurrency,
    retry: c.retryPolicy as RetryPolicyInput,
    selection: c.options as { tags?: string[]; tag_match?: string; difficulty?: string | null; case_ids?: string[] | null },
    baseline: arms[0] ?? null,
    variant: arms[1] ?? null,
    arms,
    total_pairs: c.totalPairs,
    completed_pairs: c.completedPairs,
    session_id: c.sessionId,
    /** The A/B engine's llms_source_path of an imported session; null when unknown. */
    llms_source_path: c.llmsSourcePath,
    error_message: c.errorMessage,
    cancel_requested: c.cancelRequestedAt !== null,
    started_at: iso(c.startedAt),
    completed_at: iso(c.completedAt),
    duration_ms: start && c.completedAt ? c.completedAt.getTime() - start.getTime() : null,
    environment: c.environment as Record<string, unknown>,
    summary: (c.summary ?? null) as ComparisonSummaryDto | null,
    created_at: iso(c.createdAt)!,
  };
}

export const pairSelect = {
  index: true,
  testCaseId: true,
  testCaseName: true,
  question: true,
  repetition: true,
  order: true,
  executions: true,
  metadata: true,
  contextTokens: true,
  tokenOverhead: true,
  tokenOverheadPct: true,
  latencyDiffMs: true,
  latencyImprovementPct: true,
  responseLengthRatio: true,
  bothSuccessful: true,
  verdictChange: true,
  completedAt: true,
} as const satisfies Prisma.ComparisonPairSelect;

export type PairRow = Prisma.ComparisonPairGetPayload<{ select: typeof pairSelect }>;

export function toExecutionDto(e: StoredExecution | null | undefined): ExecutionDto | null {
  if (!e) return null;
  return {
    ...e,
    total_tokens: e.prompt_tokens + e.completion_tokens,
    tokens_per_ms: e.latency_ms === 0 ? 0 : e.completion_tokens / e.latency_ms,
  };
}

/** What identifies a pair (its case, question, repetition and arm order), in the API's names: the DTO's and the bulk insert's. */
export function pairIdentity(p: Pick<PairRow, "index" | "testCaseId" | "testCaseName" | "question" | "repetition" | "order">) {
  return {
    index: p.index,
    test_case_id: p.testCaseId,
    test_case_name: p.testCaseName,
    question: p.question,
    repetition: p.repetition,
    order: p.order,
  };
}

export function toPairDto(p: PairRow): ComparisonPairDto {
  const executions = (Array.isArray(p.executions) ? p.executions : []) as (StoredExecution | null)[];
  return {
    ...pairIdentity(p),
    baseline: toExecutionDto(executions[0]),
    variant: toExecutionDto(executions[1]),
    token_overhead: p.tokenOverhead,
    token_overhead_pct: p.tokenOverheadPct,
    latency_diff_ms: p.latencyDiffMs,
    latency_improvement_pct: p.latencyImprovementPct,
    response_length_ratio: p.responseLengthRatio,
    both_successful: p.bothSuccessful,
    verdict_change: p.verdictChange as VerdictChange | null,
    metadata: p.metadata as Record<string, unknown>,
    /** The A/B engine's context_tokens (llms.txt context of an imported session); 0 when unknown. */
    context_tokens: p.contextTokens,
    completed_at: iso(p.completedAt),
  };
}
