/**
 * Route handlers for the shapes most /api/v1 routes share (a page of a list, and get, update and
 * delete of one resource by its `id` path segment), built on `withApi` so that a route file names
 * only its role, schema and service call. Routes that do more write `withApi` out themselves.
 */
import "server-only";
import type { z } from "zod";
import type { Role, WorkspaceContext } from "@/lib/auth/roles";
import { listResponse, withApi } from "./handler";

type Page = { data: unknown[]; next_cursor: string | null };

/** GET a page of a list: `list` gets the parsed query and the path params; the answer is `{data, next_cursor}`. */
export function listRoute<QS extends z.ZodType>(
  role: Role,
  query: QS,
  list: (ctx: WorkspaceContext, query: z.output<QS>, params: Record<string, string>) => Promise<Page>,
) {
  return withApi({
    role,
    query,
    handler: async ({ ctx, params, query }) => {
      const page = await list(ctx, query, params);
      return listResponse(page.data, page.next_cursor);
    },
  });
}

/** GET one resource by its `id` path segment. */
export function getByIdRoute(role: Role, get: (ctx: WorkspaceContext, id: string) => Promise<unknown>) {
  return withApi({ role, handler: async ({ ctx, params }) => ({ json: await get(ctx, params.id!) }) });
}

/** PATCH one resource by its `id` path segment with the parsed body; answers the updated resource. */
export function updateByIdRoute<BS extends z.ZodType>(
  role: Role,
  body: BS,
  update: (ctx: WorkspaceContext, id: string, body: z.output<BS>) => Promise<unknown>,
) {
  return withApi({ role, body, handler: async ({ ctx, params, body }) => ({ json: await update(ctx, params.id!, body) }) });
}

/** DELETE one resource by its `id` path segment → 204. */
export function deleteByIdRoute(role: Role, remove: (ctx: WorkspaceContext, id: string) => Promise<unknown>) {
  return withApi({
    role,
    handler: async ({ ctx, params }) => {
      await remove(ctx, params.id!);
      return { status: 204, json: null };
    },
  });
}
