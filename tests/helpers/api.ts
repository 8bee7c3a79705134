import { expect } from "vitest";
import { NextRequest } from "next/server";

type Handler = (req: NextRequest, route: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** Calls a route handler exactly as Next would, with a real Request. */
export async function call(
  handler: Handler,
  opts: {
    url?: string;
    method?: string;
    token?: string | null;
    body?: unknown;
    rawBody?: string;
    contentType?: string;
    params?: Record<string, string>;
    headers?: Record<string, string>;
  } = {},
) {
  const headers = new Headers(opts.headers);
  if (opts.token) headers.set("authorization", `Bearer ${opts.token}`);
  let body: string | undefined;
  if (opts.rawBody !== undefined) {
    body = opts.rawBody;
    headers.set("content-type", opts.contentType ?? "text/plain");
  } else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers.set("content-type", "application/json");
  }
  const req = new NextRequest(new URL(opts.url ?? "/", "http://localhost"), { method: opts.method ?? "GET", headers, body });
  const res = await handler(req, { params: Promise.resolve(opts.params ?? {}) });
  const text = await res.text();
  // `any` on purpose: tests read arbitrary response shapes (json.data[0].id) and asserting on them is the test.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: res.status, json, text, headers: res.headers };
}

/**
 * Checks that GET, PATCH and DELETE on another workspace's resource answer 404 not_found (the
 * resource is hidden, not forbidden), and that a malformed id answers 404 too.
 */
export async function expectHiddenFromOtherWorkspace(
  single: { GET: Handler; PATCH: Handler; DELETE: Handler },
  opts: { token: string; foreignId: string; patch: unknown; badId: string },
) {
  for (const [handler, method] of [
    [single.GET, "GET"],
    [single.PATCH, "PATCH"],
    [single.DELETE, "DELETE"],
  ] as const) {
    const res = await call(handler, {
      method,
      token: opts.token,
      params: { id: opts.foreignId },
      body: method === "PATCH" ? opts.patch : undefined,
    });
    expect(res.status, `${method} other workspace`).toBe(404);
    expect(res.json.error.code).toBe("not_found");
    expect((await call(handler, { method, token: opts.token, params: { id: opts.badId } })).status).toBe(404);
  }
}

/**
 * Reads a cursor-paginated list to its end: `page(cursor)` fetches one page (`null`: the first)
 * and each page holds at most `limit` items. Answers every item in order and how many pages it took.
 */
export async function readAllPages<T>(page: (cursor: string | null) => Promise<{ data: T[]; next_cursor: string | null }>, limit: number) {
  const items: T[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const current = await page(cursor);
    expect(current.data.length).toBeLessThanOrEqual(limit);
    items.push(...current.data);
    cursor = current.next_cursor;
    pages++;
  } while (cursor);
  return { items, pages };
}
