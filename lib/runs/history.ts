import { Prisma } from "@/lib/generated/prisma/client";
import type { RunKind } from "@/lib/runs/schemas";

/**
 * A suite's history is made of its ordinary runs (manual, scheduled, API/CLI). A comparison's
 * arm runs and a matrix's combination runs are experiments: they belong to their comparison or
 * matrix and never count in the trend, the latest run, the suites list's figures, the regression
 * baseline or "changes since the previous run". These fragments say so in SQL, with the same
 * predicate as the partial history indexes (migration run_history), so the planner uses them.
 */
export function ordinaryRunSql(alias: string): Prisma.Sql {
  return Prisma.raw(`${alias}."comparisonId" IS NULL AND ${alias}."matrixId" IS NULL`);
}

export function experimentRunSql(alias: string): Prisma.Sql {
  return Prisma.raw(`(${alias}."comparisonId" IS NOT NULL OR ${alias}."matrixId" IS NOT NULL)`);
}

/** The runs a list of `kind` shows, as an `AND …` fragment (empty for all). */
export function runKindSql(alias: string, kind: RunKind): Prisma.Sql {
  if (kind === "all") return Prisma.empty;
  return Prisma.sql`AND ${kind === "ordinary" ? ordinaryRunSql(alias) : experimentRunSql(alias)}`;
}

/** The same predicates for Prisma's query builder. */
export const ORDINARY_RUN_WHERE = { comparisonId: null, matrixId: null } as const satisfies Prisma.RunWhereInput;
export function runKindWhere(kind: RunKind): Prisma.RunWhereInput {
  if (kind === "ordinary") return ORDINARY_RUN_WHERE;
  if (kind === "experiment") return { OR: [{ comparisonId: { not: null } }, { matrixId: { not: null } }] };
  return {};
}
