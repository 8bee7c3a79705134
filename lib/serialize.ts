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

const newestFirstCursor = z.object({ c: cursorFields.timestamp, id: cursorFields.id });

/**
 * Keyset pagination newest first on (createdAt, id), the order of every history list (runs,
 * comparisons, matrices): `where` is the filter after the cursor's row (empty without one),
 * `orderBy` the matching order, and `page` cuts the `limit + 1` rows read into the page and the
 * next page's cursor.
 */
export const newestFirst = {
  where(cursor: string | undefined) {
    const c = decodeCursor(cursor, newestFirstCursor);
    return c ? { OR: [{ createdAt: { lt: new Date(c.c) } }, { createdAt: new Date(c.c), id: { lt: c.id } }] } : {};
  },
  orderBy: [{ createdAt: "desc" as const }, { id: "desc" as const }],
  page<T extends { createdAt: Date; id: string }>(rows: T[], limit: number): { page: T[]; next_cursor: string | null } {
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { page, next_cursor: rows.length > limit && last ? encodeCursor({ c: last.createdAt.toISOString(), id: last.id }) : null };
  },
};
