/** Shared pieces of the public (snake_case) JSON representation. */
import { z } from "zod";
import { ValidationError } from "@/lib/errors";
import { TEXT_LIMITS } from "@/lib/validation/limits";
import { findInvalidText } from "@/lib/validation/text";

export function iso(d: Date | null | undefined): string | null {
  return d ? d.toISOString() : null;
}

/** Opaque keyset cursors: base64url of JSON. */
export function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64url");
}

const CURSOR_MESSAGE = "Invalid cursor: pass the next_cursor of the previous page unchanged";

/**
 * The cursor's value, checked by `schema` (uuids, ISO dates, integers in range: every field the
 * query will use), or null when there is none. Anything else — not base64url, not JSON, the
 * wrong shape, text PostgreSQL cannot compare (NUL) — is a ValidationError naming `cursor`
 * (400), never a database error. Loaders catch it to show the first page for a stale link.
 */
export function decodeCursor<T>(cursor: string | undefined, schema: z.ZodType<T>): T | null {
  if (!cursor) return null;
  const invalid = () => new ValidationError("Invalid cursor", [{ path: "cursor", message: CURSOR_MESSAGE }]);
  if (cursor.length > TEXT_LIMITS.cursor || !/^[A-Za-z0-9_-]+={0,2}$/.test(cursor)) throw invalid();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalid();
  }
  if (findInvalidText(value).length > 0) throw invalid();
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalid();
  return parsed.data;
}

/** Cursor field building blocks: a row id and a timestamp as the list encoded them, an int4 sort key. */
export const cursorFields = {
  id: z.uuid(),
  timestamp: z.iso.datetime({ offset: true }),
  int: z
    .number()
    .int()
    .min(-(2 ** 31))
    .max(2 ** 31 - 1),
};

/** The page of `limit` rows out of the `limit + 1` read, and the next page's cursor (the last row's key) when there are more. */
function keysetPage<T>(rows: T[], limit: number, keyOf: (last: T) => object): { page: T[]; next_cursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { page, next_cursor: rows.length > limit && last ? encodeCursor(keyOf(last)) : null };
}

const newestFirstCursor = z.object({ c: cursorFields.timestamp, id: cursorFields.id });

/**
 * Keyset pagination newest first on (createdAt, id), the order of every history list (runs,
 * comparisons, matrices, alerts, webhook deliveries): `where` is the filter after the cursor's
 * row (empty without one), `orderBy` the matching order, and `page` cuts the `limit + 1` rows
 * read into the page and the next page's cursor.
 */
export const newestFirst = {
  where(cursor: string | undefined) {
    const c = decodeCursor(cursor, newestFirstCursor);
    return c ? { OR: [{ createdAt: { lt: new Date(c.c) } }, { createdAt: new Date(c.c), id: { lt: c.id } }] } : {};
  },
  orderBy: [{ createdAt: "desc" as const }, { id: "desc" as const }],
  page<T extends { createdAt: Date; id: string }>(rows: T[], limit: number) {
    return keysetPage(rows, limit, (last) => ({ c: last.createdAt.toISOString(), id: last.id }));
  },
};

type NewestFirstQuery = { where: ReturnType<typeof newestFirst.where>; orderBy: typeof newestFirst.orderBy; take: number };

/**
 * One page of a newest-first list (`limit` already bounded by the route's query schema): `read`
 * runs the query with the keyset's filter, order and `take`, adding its own scope and select.
 */
export async function pageNewestFirst<T extends { createdAt: Date; id: string }>(
  q: { cursor?: string; limit: number },
  read: (query: NewestFirstQuery) => Promise<T[]>,
): Promise<{ page: T[]; next_cursor: string | null }> {
  const rows = await read({ where: newestFirst.where(q.cursor), orderBy: newestFirst.orderBy, take: q.limit + 1 });
  return newestFirst.page(rows, q.limit);
}

const byNameCursor = z.object({ name: z.string(), id: cursorFields.id });

/**
 * Keyset pagination by (name, id) ascending, the order of a workspace's named resources (agents,
 * model configurations): `where`, `orderBy` and `page` as in `newestFirst`.
 */
const byName = {
  where(cursor: string | undefined) {
    const c = decodeCursor(cursor, byNameCursor);
    return c ? { OR: [{ name: { gt: c.name } }, { name: c.name, id: { gt: c.id } }] } : {};
  },
  orderBy: [{ name: "asc" as const }, { id: "asc" as const }],
  page<T extends { name: string; id: string }>(rows: T[], limit: number) {
    return keysetPage(rows, limit, (last) => ({ name: last.name, id: last.id }));
  },
};

type ByNameQuery = { where: ReturnType<typeof byName.where>; orderBy: typeof byName.orderBy; take: number };

/**
 * One page of a name-ordered list (`limit` 1–200, 50 by default): `read` runs the query with the
 * keyset's filter, order and `take`, adding its own scope and select.
 */
export async function pageByName<T extends { name: string; id: string }>(
  opts: { cursor?: string; limit?: number },
  read: (query: ByNameQuery) => Promise<T[]>,
): Promise<{ page: T[]; next_cursor: string | null }> {
  const limit = Math.min(Math.max(opts.limit ?? 50, 1), 200);
  const rows = await read({ where: byName.where(opts.cursor), orderBy: byName.orderBy, take: limit + 1 });
  return byName.page(rows, limit);
}
