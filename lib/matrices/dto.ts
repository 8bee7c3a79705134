import { iso } from "@/lib/serialize";
import type { Prisma } from "@/lib/generated/prisma/client";
import { combinationLabel, type Axes, type CombinationValues } from "./combinations";
import type { z } from "zod";
import type { MatrixStatus } from "./schemas";
import type { bestCombination, matrix, matrixCombination, matrixSummary } from "./openapi";

/**
 * The matrix feature's public shapes: the Prisma select, the row → DTO mapper and the DTO types
 * the API, the pages and client components share. No server-only imports.
 */

/** How `Matrix.combinations` stores one combination. */
export type StoredCombination = { index: number; values: CombinationValues; run_id: string | null };

/** One combination (one run) with its statistics over its case results (all repetitions). */
export type CombinationDto = z.output<typeof matrixCombination>;
export type BestCombinationDto = z.output<typeof bestCombination>;

export const matrixSelect = {
  id: true,
  suiteId: true,
  name: true,
  status: true,
  axes: true,
  combinations: true,
  repetitions: true,
  concurrency: true,
  options: true,
  cancelRequestedAt: true,
  startedAt: true,
  completedAt: true,
  createdAt: true,
  runs: { select: { id: true, status: true, combinationIndex: true, startedAt: true, completedAt: true } },
} as const satisfies Prisma.MatrixSelect;

export type MatrixRow = Prisma.MatrixGetPayload<{ select: typeof matrixSelect }>;

export type MatrixSelection = { tags?: string[]; tag_match?: string; difficulty?: string | null; case_ids?: string[] | null };

/**
 * The axis names in the order given. jsonb keeps object keys sorted its own way, so the order is
 * stored apart (`options.axis_order`) and every object keyed by axis is rebuilt in it.
 */
export function axisOrder(m: Pick<MatrixRow, "axes" | "options">): string[] {
  const stored = (m.options as { axis_order?: unknown }).axis_order;
  const names = Object.keys((m.axes ?? {}) as object);
  return Array.isArray(stored) && stored.every((n) => typeof n === "string" && names.includes(n)) && stored.length === names.length
    ? (stored as string[])
    : names;
}

/** `values` with its keys in axis order. */
export function inAxisOrder<T>(values: Record<string, T>, order: string[]): Record<string, T> {
  const out: Record<string, T> = {};
  for (const name of order) if (name in values) out[name] = values[name]!;
  for (const [name, value] of Object.entries(values)) if (!(name in out)) out[name] = value;
  return out;
}

/** The matrix without per-combination statistics (lists); `status` follows its runs. */
export function toMatrixSummaryDto(m: MatrixRow, status: MatrixStatus): MatrixSummaryDto {
  const stored = (Array.isArray(m.combinations) ? m.combinations : []) as StoredCombination[];
  const starts = m.runs.map((r) => r.startedAt).filter((d): d is Date => d !== null);
  const startedAt = m.startedAt ?? (starts.length ? new Date(Math.min(...starts.map((d) => d.getTime()))) : null);
  const { axis_order: _order, ...selection } = m.options as MatrixSelection & { axis_order?: string[] };
  return {
    id: m.id,
    suite_id: m.suiteId,
    name: m.name,
    status,
    axes: inAxisOrder(m.axes as Axes, axisOrder(m)),
    trials: m.repetitions,
    repetitions: m.repetitions,
    concurrency: m.concurrency,
    selection: selection as MatrixSelection,
    total_combinations: stored.length,
    finished_combinations: m.runs.filter((r) => !["pending", "running"].includes(r.status)).length,
    cancel_requested: m.cancelRequestedAt !== null,
    started_at: iso(startedAt),
    completed_at: iso(m.completedAt),
    created_at: iso(m.createdAt)!,
  };
}

export type MatrixSummaryDto = z.output<typeof matrixSummary>;
export type MatrixDto = z.output<typeof matrix>;

export { combinationLabel };

/** One case × combination of the heat map: the verdict over its repetitions. */
export type MatrixCellDto = {
  index: number;
  /** passed | failed | error | skipped | pending | running, or mixed when repetitions disagree. */
  status: string;
  passed: number;
  total: number;
  /** The first repetition's case result (link to its transcript). */
  case_result_id: string | null;
  run_id: string;
};

export type MatrixCaseRowDto = { test_case_id: string | null; name: string; cells: MatrixCellDto[] };
export type MatrixTableDto = { cases: MatrixCaseRowDto[]; truncated: boolean };
