/**
 * The one wrapper for route handlers: `withApi` (bearer API key, for /api/v1) and `withSession`
 * (the signed-in user, for the browser's JSON routes under /api/w) do authentication, the role
 * check, path ids, zod parsing of query and body, and one error envelope, so each route reads as
 * its handler. Key rule: domain errors reach the client with their status and message; anything
 * else is logged and answered with a generic 500.
 */
import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import { z } from "zod";
import YAML from "yaml";
import { DomainError, NotFoundError, PayloadTooLargeError, UnauthorizedError, ValidationError, zodIssues } from "@/lib/errors";
import { actionContext, readContext } from "@/lib/auth/context";
import { hasRole, type Role, type WorkspaceContext } from "@/lib/auth/roles";
import { ForbiddenError } from "@/lib/errors";
import { authenticateApiKey } from "@/lib/api-keys/service";
import { isUuid } from "@/lib/ids";
import { logger } from "@/lib/logger";
import { withWorkspaceScope } from "@/lib/tenant-scope";
import { MAX_BODY_BYTES } from "@/lib/validation/limits";
import { findInvalidText } from "@/lib/validation/text";
import { CROSS_SITE_REFUSED, isSameOriginRequest } from "./same-origin";

type Params = Record<string, string>;

type HandlerArgs<Q, B> = {
  req: NextRequest;
  ctx: WorkspaceContext;
  params: Params;
  query: Q;
  body: B;
};

type ApiResult = Response | { status?: number; json: unknown };

type HandlerOptions<QS extends z.ZodType, BS extends z.ZodType> = {
  role: Role;
  query?: QS;
  body?: BS;
  /** Accept a YAML body when the content type says so (imports). */
  allowYaml?: boolean;
  /** Ingest-only API keys may call this route (the OTLP traces endpoint); every other route refuses them (403). */
  ingest?: boolean;
  /** Largest body accepted, in bytes (default MAX_BODY_BYTES, 1 MB); larger ones get a 413 before they are read in full. */
  maxBytes?: number;
  handler: (args: HandlerArgs<z.output<QS>, z.output<BS>>) => Promise<ApiResult>;
};

/**
 * Route handler wrapper for /api/v1: bearer API key → workspace context (401), role (403),
 * path ids (404 when malformed), bodies over 1 MB refused (413) before they are read in full,
 * query and JSON body parsed with zod (400 with issue paths; a NUL character, a lone surrogate or
 * nesting deeper than 64 levels anywhere is a 400 naming each path), and one error envelope: `{"error": {"code", "message", "issues": [{path, message}]}}`.
 * The handler runs in the key's workspace scope (row-level security, lib/tenant-scope.ts).
 */
export function withApi<QS extends z.ZodType = z.ZodUndefined, BS extends z.ZodType = z.ZodUndefined>(opts: HandlerOptions<QS, BS>) {
  return routeHandler(opts, (req) => authenticate(req));
}

/**
 * The same wrapper for the browser's own JSON routes (TanStack Query): the signed-in user's
 * session instead of an API key, for the workspace named by the `workspaceId` path segment.
 * The session cookie goes along with any request the browser makes, also one started by another
 * site, so anything but a read must come from this app's own pages (403 otherwise), as Next.js
 * checks for server actions (lib/api/same-origin.ts).
 */
export function withSession<QS extends z.ZodType = z.ZodUndefined, BS extends z.ZodType = z.ZodUndefined>(opts: HandlerOptions<QS, BS>) {
  return routeHandler(opts, async (req, params) => {
    // Reads (the live pages poll every second) may use a session and membership a few seconds
    // old (lib/auth/session-cache.ts); anything that writes looks both up afresh.
    if (req.method === "GET" || req.method === "HEAD") return readContext(params.workspaceId ?? "", req.headers.get("cookie"));
    if (!isSameOriginRequest(req.headers)) throw new ForbiddenError(CROSS_SITE_REFUSED);
    return actionContext(params.workspaceId ?? "", "viewer");
  });
}

function routeHandler<QS extends z.ZodType, BS extends z.ZodType>(
  opts: HandlerOptions<QS, BS>,
  authenticateRequest: (req: NextRequest, params: Params) => Promise<WorkspaceContext>,
) {
  return async (req: NextRequest, route: { params: Promise<Params> }): Promise<Response> => {
    try {
      const ctx = await authenticateRequest(req, (await route.params) ?? {});
      if (ctx.keyScope === "ingest" && !opts.ingest) {
        throw new ForbiddenError("This API key may only send traces (POST /api/v1/otlp/v1/traces)");
      }
      if (!hasRole(ctx.role, opts.role)) throw new ForbiddenError("Your role does not allow this");
      const params = (await route.params) ?? {};
      for (const [name, value] of Object.entries(params)) {
        if (name === "id" || name.endsWith("Id")) {
          if (!isUuid(value)) throw new NotFoundError();
        }
      }
      // Every query value, also those a route reads itself (repeated `tag`s), before anything uses one.
      rejectInvalidQuery(req.nextUrl.searchParams);
      const query = opts.query ? parseWith(opts.query, Object.fromEntries(req.nextUrl.searchParams), "query") : undefined;
      const body = opts.body
        ? parseWith(
            opts.body,
            rejectInvalidText(await readBody(req, opts.allowYaml ?? false, opts.maxBytes ?? MAX_BODY_BYTES), "body"),
            "body",
          )
        : undefined;
      // The key (or session) lookup above ran unscoped; from here every query through `db` is
      // limited to this workspace's rows by PostgreSQL as well (lib/tenant-scope.ts).
      const result = await withWorkspaceScope(ctx.workspaceId, () =>
        opts.handler({
          req,
          ctx,
          params,
          query: query as z.output<QS>,
          body: body as z.output<BS>,
        }),
      );
      if (result instanceof Response) return result;
      if (result.status === 204) return new Response(null, { status: 204 });
      return NextResponse.json(result.json, { status: result.status ?? 200 });
    } catch (err) {
      return errorResponse(err);
    }
  };
}

async function authenticate(req: NextRequest): Promise<WorkspaceContext> {
  const header = req.headers.get("authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  if (!match) throw new UnauthorizedError("Missing bearer API key (Authorization: Bearer <key>)");
  const ctx = await authenticateApiKey(match[1]!);
  if (!ctx) throw new UnauthorizedError("Invalid, expired or revoked API key");
  return ctx;
}

/** A NUL character or lone surrogate in any query name or value (repeated ones too) → 400 naming the parameter. */
function rejectInvalidQuery(params: URLSearchParams) {
  const issues = [...params].flatMap(([name, value]) => findInvalidText({ [name]: value }));
  if (issues.length > 0) throw new ValidationError("Invalid query", issues);
}

/** 400 naming every path with a NUL character, a lone surrogate or too deep nesting (PostgreSQL cannot store the first two). */
function rejectInvalidText<T>(value: T, where: "query" | "body"): T {
  const issues = findInvalidText(value);
  if (issues.length > 0) throw new ValidationError(`Invalid ${where}`, issues);
  return value;
}

/**
 * The body as text, refused with a 413 once it is known to exceed `maxBytes`: from its
 * Content-Length before reading anything, else (chunked) as soon as the running byte count
 * passes the limit, so an oversized body is never buffered or parsed in full.
 */
export async function readBodyText(req: Request, maxBytes: number): Promise<string> {
  return (await readBodyBytes(req, maxBytes)).toString("utf8");
}

/**
 * The body's bytes, refused the same way; the 413 reports `limitBytes`, so `maxBytes` may exceed
 * it to leave room for an envelope (a multipart upload's boundaries and headers).
 */
export async function readBodyBytes(req: Request, maxBytes: number, limitBytes = maxBytes): Promise<Buffer> {
  const declared = req.headers.get("content-length");
  if (declared !== null && /^\s*\d+\s*$/.test(declared) && Number(declared) > maxBytes) throw new PayloadTooLargeError(limitBytes);
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new PayloadTooLargeError(limitBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

async function readBody(req: NextRequest, allowYaml: boolean, maxBytes: number): Promise<unknown> {
  const text = await readBodyText(req, maxBytes);
  if (text.trim() === "") return undefined;
  const type = req.headers.get("content-type") ?? "";
  if (allowYaml && /yaml|yml/i.test(type)) {
    try {
      return YAML.parse(text);
    } catch (err) {
      throw new ValidationError(`Body is not valid YAML: ${(err as Error).message}`, [{ path: "", message: "invalid YAML" }]);
    }
  }
  try {
    return JSON.parse(text);
  } catch {
    if (allowYaml) {
      try {
        return YAML.parse(text);
      } catch {
        /* fall through */
      }
    }
    throw new ValidationError("Body is not valid JSON", [{ path: "", message: "invalid JSON" }]);
  }
}

function parseWith<S extends z.ZodType>(schema: S, value: unknown, where: "query" | "body"): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new ValidationError(`Invalid ${where}`, zodIssues(parsed.error));
  }
  return parsed.data;
}

export function errorResponse(err: unknown): Response {
  if (err instanceof DomainError) {
    return NextResponse.json({ error: { code: err.code, message: err.message, issues: err.issues } }, { status: err.status });
  }
  logger.error({ err }, "unhandled API error");
  return NextResponse.json({ error: { code: "internal_error", message: "Something went wrong on our side", issues: [] } }, { status: 500 });
}

export function listResponse<T>(data: T[], nextCursor: string | null) {
  return { json: { data, next_cursor: nextCursor } };
}
