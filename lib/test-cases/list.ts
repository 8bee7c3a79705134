import "server-only";
import { z } from "zod";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import { ValidationError } from "@/lib/errors";
import { cursorFields, decodeCursor, encodeCursor } from "@/lib/serialize";
import { PRESEEDED_TAGS, TEST_CASE_STATUSES, type TestCaseListQuery, type TestCaseStatus } from "@/lib/test-cases/schemas";
import { toTestCaseDto, type TestCaseDto, type TestCaseRow } from "@/lib/test-cases/dto";
import { requireLiveSuite } from "@/lib/test-cases/suite-guards";
import { lastVerdictLateral, NO_VERDICT_RANK } from "@/lib/test-cases/last-verdicts";

export type TestCaseListPage = {
  data: TestCaseDto[];
  next_cursor: string | null;
  counts: Record<TestCaseStatus, number> & { total: number };
};

/** The list's order: the suite's run order, or last verdict first (failed, error, passed, never run) then run order. */
export type TestCaseListSort = "order" | "verdict";

// `v` is the last-verdict rank, present only in the verdict order's cursors.
const cursorSchema = z.object({ s: cursorFields.int, id: cursorFields.id, v: cursorFields.int.optional() });

/**
 * The text search predicate. The expression is exactly the one of the trigram GIN index
 * "TestCase_search_trgm_idx", so PostgreSQL can use that index.
 */
export function searchPredicate(q: string): Prisma.Sql {
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return Prisma.sql`(coalesce("name", '') || ' ' || coalesce("description", '') || ' ' || coalesce("initialMessage", '')) ILIKE ${pattern}`;
}

/**
 * Lists a suite's live cases in sort order with keyset pagination, plus per-status counts for
 * the same tag/difficulty/text filters (the status filter does not narrow the counts).
 */
export async function listTestCases(
  ctx: WorkspaceContext,
  suiteId: string,
  query: TestCaseListQuery,
  sort: TestCaseListSort = "order",
): Promise<TestCaseListPage> {
  requireRole(ctx, "viewer");
  await requireLiveSuite(ctx, suiteId);
  const cursor = decodeCursor(query.cursor, cursorSchema);
  const byVerdict = sort === "verdict";
  // A cursor from the other order (a hand-edited URL) is stale, like any undecodable one.
  if (cursor && byVerdict !== (cursor.v !== undefined)) {
    throw new ValidationError("Invalid cursor", [{ path: "cursor", message: "This cursor belongs to the list in another order" }]);
  }

  const filters: Prisma.Sql[] = [
    Prisma.sql`"workspaceId" = ${ctx.workspaceId}::uuid`,
    Prisma.sql`"suiteId" = ${suiteId}::uuid`,
    Prisma.sql`"deletedAt" IS NULL`,
  ];
  if (query.tag.length > 0) {
    filters.push(query.tag_match === "all" ? Prisma.sql`"tags" @> ${query.tag}::text[]` : Prisma.sql`"tags" && ${query.tag}::text[]`);
  }
  if (query.difficulty) filters.push(Prisma.sql`"difficulty" = ${query.difficulty}::"Difficulty"`);
  if (query.q) filters.push(searchPredicate(query.q));

  const pageFilters = [...filters];
  if (query.status) pageFilters.push(Prisma.sql`"status" = ${query.status}::"TestCaseStatus"`);
  const rank = Prisma.sql`coalesce(lv."rank", ${NO_VERDICT_RANK}::int)`;
  if (cursor && byVerdict)
    pageFilters.push(Prisma.sql`(${rank}, tc."sortOrder", tc."id") > (${cursor.v}::int, ${cursor.s}::int, ${cursor.id}::uuid)`);
  else if (cursor) pageFilters.push(Prisma.sql`("sortOrder", "id") > (${cursor.s}::int, ${cursor.id}::uuid)`);

  const [rows, grouped] = await Promise.all([
    db.$queryRaw<(TestCaseRow & { rank: number })[]>`
      SELECT tc."id", tc."suiteId", tc."name", tc."description", tc."difficulty"::text AS "difficulty", tc."tags", tc."status"::text AS "status",
             tc."persona", tc."initialMessage", tc."userContext", tc."maxTurns", tc."expectedOutcomes", tc."expectedOutcomeLabels",
             tc."expectedToolCalls", tc."evaluationCriteriaOverride", tc."checks", tc."mode"::text AS "mode", tc."groundTruth",
             tc."evaluations", tc."sortOrder", tc."createdAt", tc."updatedAt", ${byVerdict ? rank : Prisma.sql`0`} AS "rank"
      FROM "TestCase" tc ${byVerdict ? lastVerdictLateral(ctx.workspaceId, "tc") : Prisma.empty}
      WHERE ${Prisma.join(pageFilters, " AND ")}
      ORDER BY ${byVerdict ? Prisma.sql`${rank}, ` : Prisma.empty}tc."sortOrder", tc."id"
      LIMIT ${query.limit + 1}`,
    db.$queryRaw<{ status: TestCaseStatus; n: number }[]>`
      SELECT "status"::text AS "status", count(*)::int AS "n"
      FROM "TestCase"
      WHERE ${Prisma.join(filters, " AND ")}
      GROUP BY "status"`,
  ]);

  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  const counts = { draft: 0, active: 0, archived: 0, total: 0 };
  for (const g of grouped) {
    if ((TEST_CASE_STATUSES as readonly string[]).includes(g.status)) counts[g.status] = g.n;
    counts.total += g.n;
  }
  return {
    data: page.map(toTestCaseDto),
    next_cursor:
      rows.length > query.limit && last
        ? encodeCursor({ s: last.sortOrder, id: last.id, ...(byVerdict ? { v: Number(last.rank) } : {}) })
        : null,
    counts,
  };
}

/** Tags to offer in a suite: those in use (live cases) and the pre-seeded ones, sorted. */
export async function listSuiteTags(ctx: WorkspaceContext, suiteId: string): Promise<string[]> {
  requireRole(ctx, "viewer");
  await requireLiveSuite(ctx, suiteId);
  const rows = await db.$queryRaw<{ tag: string }[]>`
    SELECT DISTINCT unnest("tags") AS "tag" FROM "TestCase"
    WHERE "workspaceId" = ${ctx.workspaceId}::uuid AND "suiteId" = ${suiteId}::uuid AND "deletedAt" IS NULL`;
  return [...new Set([...rows.map((r) => r.tag), ...PRESEEDED_TAGS])].sort();
}

/** Every live case id of a suite in list order (move up/down sends the whole order). One narrow query. */
export async function listTestCaseIds(ctx: WorkspaceContext, suiteId: string): Promise<string[]> {
  await requireLiveSuite(ctx, suiteId);
  const rows = await db.testCase.findMany({
    where: { suiteId, workspaceId: ctx.workspaceId, deletedAt: null },
    orderBy: [{ sortOrder: "asc" }, { id: "asc" }],
    select: { id: true },
  });
  return rows.map((r) => r.id);
}
