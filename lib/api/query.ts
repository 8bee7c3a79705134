import { z } from "zod";
import { TEXT_LIMITS } from "@/lib/validation/limits";

/**
 * Query-string building blocks shared by the route schemas in `lib/<feature>/schemas.ts`.
 * No `server-only` here: the OpenAPI builder and client code import these too.
 */

/** `cursor` + `limit`, the page fields of a list route, with the route's page size bounds (default 1–200, 50). */
export function pageFields({ max = 200, fallback = 50 }: { max?: number; fallback?: number } = {}) {
  return {
    cursor: z.string().max(TEXT_LIMITS.cursor).optional(),
    limit: z.coerce.number().int().min(1).max(max).default(fallback),
  };
}

/** `cursor` + `limit`: the page fields of every list route. */
export const paginationQuery = z.object(pageFields());

/** A whole-number query parameter whose errors name it (`limit must be at most 200`). */
export function wholeNumberQuery(name: string, min: number, max: number) {
  return z.coerce
    .number({ error: `${name} must be a whole number` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} must be at least ${min}`)
    .max(max, `${name} must be at most ${max}`);
}

/**
 * A boolean query flag: `?name=true|false` (absent = false). Query values are strings, so
 * `z.coerce.boolean()` would read "false" as true; this accepts only the listed spellings and
 * says so in the error. `numeric` also accepts `1`/`0` (kept where the API always took them).
 */
export function booleanQuery(name: string, { numeric = false }: { numeric?: boolean } = {}) {
  const values = numeric ? (["true", "false", "1", "0"] as const) : (["true", "false"] as const);
  return z
    .enum(values, { error: `${name} must be true or false` })
    .optional()
    .transform((v) => v === "true" || v === "1");
}
