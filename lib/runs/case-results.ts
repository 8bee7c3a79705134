/**
 * Reading a run's case results without ever holding the whole run: one page per query, keyset
 * on (position, variant), and only the columns the reader shows. The API list (transcripts only
 * on `include=transcript`), the reports' cursors
 * (./report.ts: results in position order, or grouped by test case with their trials) and one
 * case with its transcript and LLM calls (the run page's table is ./case-table.ts). Every query
 * is scoped by `workspaceId`.
 */
import "server-only";
import { z } from "zod";
import type pg from "pg";
import { db, scopedPoolTransaction } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { NotFoundError } from "@/lib/errors";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { isUuid } from "@/lib/ids";
import { withWorkspaceScope } from "@/lib/tenant-scope";
import { cursorFields, decodeCursor, encodeCursor } from "@/lib/serialize";
import type { CaseResultListQuery } from "@/lib/runs/schemas";
import { caseResultSelect, caseResultWithTranscriptSelect, toCaseResultDto, type CaseResultDetail, type LlmCallDto } from "@/lib/runs/dto";

/**
 * A read for the live run page's polls, on the raw pg pool in a read-only transaction declared to
 * the workspace (lib/db.ts, `scopedPoolTransaction`): about a tenth of the CPU of the same reads
 * through Prisma (each of which is its own batch transaction). The statements still filter on
 * `workspaceId` themselves: RLS is the second line, not the first. Statements are named
 * (prepared once per connection, then only bound and executed).
 */
export function scopedPoolRead<T>(workspaceId: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return scopedPoolTransaction(workspaceId, fn, { readOnly: true });
}

const resultCursor = z.object({ p: cursorFields.int, v: z.enum(["baseline", "variant"]) });
type ResultKey = z.infer<typeof resultCursor>;

/** NotFoundError unless the run exists in the workspace (one indexed lookup, no columns read). */
async function requireRun(ctx: WorkspaceContext, runId: string): Promise<void> {
  if (!isUuid(runId)) throw new NotFoundError("Run");
  const run = await db.run.findFirst({ where: { id: runId, workspaceId: ctx.workspaceId }, select: { id: true } });
  if (!run) throw new NotFoundError("Run");
}

/** Rows after `key` in (position, variant) order: a run's cases interleave baseline and variant per position. */
function after(key: ResultKey | null | undefined): Prisma.CaseResultWhereInput {
  if (!key) return {};
  return key.v === "baseline"
    ? { OR: [{ position: { gt: key.p } }, { position: key.p, variant: "variant" as const }] }
    : { position: { gt: key.p } };
}

/**
 * The filters a reader may apply, in SQL: status uses the (runId, status) index; a tag filter is
 * the tags GIN index's `has` (intersected with the run's rows).
 */
function resultWhere(ctx: WorkspaceContext, runId: string, q: Pick<CaseResultListQuery, "status" | "variant" | "tag" | "trial">) {
  return {
    runId,
    workspaceId: ctx.workspaceId,
    ...(q.status ? { status: q.status } : {}),
    ...(q.variant ? { variant: q.variant } : {}),
    ...(q.tag ? { tags: { has: q.tag } } : {}),
    ...(q.trial !== undefined ? { repetition: q.trial } : {}),
  } satisfies Prisma.CaseResultWhereInput;
}

const resultOrder = [{ position: "asc" }, { variant: "asc" }] satisfies Prisma.CaseResultOrderByWithRelationInput[];

function pageOf<T extends { position: number; variant: "baseline" | "variant" }>(rows: T[], limit: number) {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { page, next_cursor: rows.length > limit && last ? encodeCursor({ p: last.position, v: last.variant }) : null };
}

/**
 * Case results of a run in case order, filterable by status, variant and tag, keyset-paginated.
 * The transcript is read (and returned) only when `include` names it.
 */
export async function listCaseResults(ctx: WorkspaceContext, runId: string, q: CaseResultListQuery) {
  await requireRun(ctx, runId);
  const cursor = decodeCursor(q.cursor, resultCursor);
  const rows = await db.caseResult.findMany({
    where: { ...resultWhere(ctx, runId, q), ...after(cursor) },
    orderBy: resultOrder,
    take: q.limit + 1,
    select: q.include?.includes("transcript") ? caseResultWithTranscriptSelect : caseResultSelect,
  });
  const { page, next_cursor } = pageOf(rows, q.limit);
  return { data: page.map(toCaseResultDto), next_cursor };
}

/**
 * Every case result of a run, `pageSize` rows per query in case order, without transcripts, each
 * with the tools its transcript called (computed in SQL). The next page is read only when the
 * consumer asks for it, so a report written to a stream holds one page at a time. The caller
 * checked the run. A streamed body is read after its route handler returned, outside the
 * request's workspace scope: each page re-enters it (lib/tenant-scope.ts).
 */
export async function* caseResultPages(ctx: WorkspaceContext, runId: string, pageSize: number) {
  let key: ResultKey | null = null;
  for (;;) {
    const rows = await withWorkspaceScope(ctx.workspaceId, () =>
      db.caseResult.findMany({
        where: { ...resultWhere(ctx, runId, {}), ...after(key) },
        orderBy: resultOrder,
        take: pageSize,
        select: caseResultSelect,
      }),
    );
    if (rows.length === 0) return;
    const tools = await withWorkspaceScope(ctx.workspaceId, () =>
      transcriptToolNames(
        ctx,
        rows.map((r) => r.id),
      ),
    );
    yield rows.map((r) => ({ ...toCaseResultDto(r), tools_called: tools.get(r.id) ?? [] }));
    if (rows.length < pageSize) return;
    const last = rows[rows.length - 1]!;
    key = { p: last.position, v: last.variant };
  }
}

/**
 * The key a test case's results in one run share (one per trial): the test case, else its
 * snapshot's id when the case was deleted, else the result itself (a result without either
 * stands alone). Results of the two variants of a position are apart (grouped with the variant).
 */
export const REPORT_CASE_KEY = Prisma.sql`coalesce(c."testCaseId"::text, c."caseSnapshot"->>'id', c."id"::text)`;

/** A group of the run's results: their ids in trial order, the case's first position and its variant. */
type CaseGroupRow = { ids: string[]; pos: number; variant: string };

/**
 * A run's case results grouped by test case: each group is a case's trials in trial order, the
 * groups in case order (a case's first position, then variant). A page holds whole cases and at
 * most `pageSize` results (at least one case, however many trials it has). Plain runs interleave
 * trials (trial 0 of every case first), so each page groups in SQL and reads only its own rows;
 * the next page is read when the consumer asks for it. The caller checked the run.
 */
export async function* caseResultGroupPages(ctx: WorkspaceContext, runId: string, pageSize: number) {
  let cursor: { p: number; v: string } | null = null;
  for (;;) {
    const groups: CaseGroupRow[] = await withWorkspaceScope(
      ctx.workspaceId,
      () =>
        db.$queryRaw<CaseGroupRow[]>`
        SELECT array_agg(c."id"::text ORDER BY c."repetition", c."position") AS ids, min(c."position")::int AS pos, c."variant"::text AS variant
        FROM "CaseResult" c
        WHERE c."runId" = ${runId}::uuid AND c."workspaceId" = ${ctx.workspaceId}::uuid
        GROUP BY ${REPORT_CASE_KEY}, c."variant"
        ${cursor ? Prisma.sql`HAVING (min(c."position"), c."variant"::text) > (${cursor.p}::int, ${cursor.v}::text)` : Prisma.empty}
        ORDER BY pos, variant
        LIMIT ${pageSize}::int`,
    );
    if (groups.length === 0) return;
    let taken = 0;
    let count = 0;
    while (count < groups.length && (count === 0 || taken + groups[count]!.ids.length <= pageSize)) taken += groups[count++]!.ids.length;
    const page = groups.slice(0, count);
    const ids = page.flatMap((g) => g.ids);
    const rows = await withWorkspaceScope(ctx.workspaceId, () =>
      db.caseResult.findMany({ where: { ...resultWhere(ctx, runId, {}), id: { in: ids } }, select: caseResultSelect }),
    );
    const tools = await withWorkspaceScope(ctx.workspaceId, () => transcriptToolNames(ctx, ids));
    const byId = new Map(rows.map((r) => [r.id, r]));
    yield page.map((g) =>
      g.ids.flatMap((id) => {
        const r = byId.get(id);
        return r ? [{ ...toCaseResultDto(r), tools_called: tools.get(id) ?? [] }] : [];
      }),
    );
    if (count === groups.length && groups.length < pageSize) return;
    const last = page[page.length - 1]!;
    cursor = { p: last.pos, v: last.variant };
  }
}

/**
 * The tools the agent called in each case, in transcript order (the execution model's `tool_calls`), computed
 * by PostgreSQL so a report never reads a transcript into memory. Keyed by case result id.
 */
async function transcriptToolNames(ctx: WorkspaceContext, ids: string[]): Promise<Map<string, string[]>> {
  if (ids.length === 0) return new Map();
  const rows = await db.$queryRaw<{ id: string; tools: (string | null)[] }[]>`
    SELECT c."id", array(
             SELECT call->>'name'
             FROM jsonb_array_elements(CASE WHEN jsonb_typeof(c."transcript") = 'array' THEN c."transcript" ELSE '[]'::jsonb END)
                    WITH ORDINALITY AS m(message, i),
                  jsonb_array_elements(CASE WHEN jsonb_typeof(m.message->'tool_calls') = 'array' THEN m.message->'tool_calls' ELSE '[]'::jsonb END)
                    WITH ORDINALITY AS t(call, j)
             ORDER BY m.i, t.j) AS tools
    FROM "CaseResult" c
    WHERE c."id" = ANY(${ids}::uuid[]) AND c."workspaceId" = ${ctx.workspaceId}::uuid`;
  return new Map(rows.map((r) => [r.id, r.tools as string[]]));
}

/** One case result with its transcript and every LLM call's exact request and raw response. */
export async function getCaseResult(ctx: WorkspaceContext, id: string): Promise<CaseResultDetail> {
  if (!isUuid(id)) throw new NotFoundError("Case result");
  return scopedPoolRead(ctx.workspaceId, (client) => caseResultDetailOn(client, ctx, id));
}

const ENUM_COLUMNS = new Set(["variant", "status", "stage"]);
/** caseResultWithTranscriptSelect's columns by name (enums as their text, as Prisma returns them). */
const DETAIL_COLUMNS = Object.keys(caseResultWithTranscriptSelect)
  .map((c) => (ENUM_COLUMNS.has(c) ? `c."${c}"::text AS "${c}"` : `c."${c}"`))
  .join(", ");

/** An LLM call as pg returns it: the DTO's fields, with the request as parsed JSON and the time as a Date. */
type LlmCallRow = Omit<LlmCallDto, "request" | "created_at"> & { request: unknown; created_at: Date };

/** getCaseResult on a client inside `scopedPoolRead`: two statements, the case and its calls. */
export async function caseResultDetailOn(client: pg.PoolClient, ctx: WorkspaceContext, id: string): Promise<CaseResultDetail> {
  if (!isUuid(id)) throw new NotFoundError("Case result");
  const [row] = (
    await client.query<Parameters<typeof toCaseResultDto>[0]>({
      name: "assay_case_result_detail",
      text: `SELECT ${DETAIL_COLUMNS} FROM "CaseResult" c WHERE c."id" = $1::uuid AND c."workspaceId" = $2::uuid`,
      values: [id, ctx.workspaceId],
    })
  ).rows;
  if (!row) throw new NotFoundError("Case result");
  const calls = (
    await client.query<LlmCallRow>({
      name: "assay_case_result_calls",
      text: `
        SELECT l."id", l."purpose", l."model", l."request", l."response", l."error", l."attempts",
               l."latencyMs" AS latency_ms, l."cached", l."createdAt" AS created_at
        FROM "LlmCall" l
        WHERE l."caseResultId" = $1::uuid AND l."workspaceId" = $2::uuid
        ORDER BY l."createdAt"`,
      values: [id, ctx.workspaceId],
    })
  ).rows;
  return {
    ...toCaseResultDto(row),
    transcript: row.transcript as Prisma.JsonValue,
    llm_calls: calls.map((c) => ({
      id: c.id,
      purpose: c.purpose,
      model: c.model,
      request: c.request as Prisma.JsonValue,
      response: c.response,
      error: c.error,
      attempts: c.attempts,
      latency_ms: c.latency_ms,
      cached: c.cached,
      created_at: c.created_at.toISOString(),
    })),
  };
}
