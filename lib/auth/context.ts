import "server-only";
import { cache } from "react";
import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { auth } from "@/lib/auth";
import { cachedMemberContext, cachedSessionUser, sessionCookieKey } from "@/lib/auth/session-cache";
import { NotFoundError, UnauthorizedError } from "@/lib/errors";
import { requireRole, type Role, type WorkspaceContext } from "@/lib/auth/roles";
import { memberContext } from "@/lib/workspaces/service";

/** For server actions: the signed-in member's context, or a typed error. */
export async function actionContext(workspaceId: string, minRole: Role): Promise<WorkspaceContext> {
  const session = await auth();
  const userId = session?.user?.id;
  if (!userId) throw new UnauthorizedError();
  return memberContext(userId, workspaceId, minRole);
}

/**
 * For reads (GET routes, pages): the signed-in member's context (role at least viewer; callers
 * check theirs), with the session and the membership remembered for a few seconds
 * (./session-cache.ts says exactly how stale that can be); a typed error otherwise.
 */
export async function readContext(workspaceId: string, cookieHeader: string | null): Promise<WorkspaceContext> {
  const userId = await cachedSessionUser(sessionCookieKey(cookieHeader), async () => {
    const session = await auth();
    return { userId: session?.user?.id ?? null, expires: session?.expires ?? null };
  });
  if (!userId) throw new UnauthorizedError();
  return cachedMemberContext(userId, workspaceId, () => memberContext(userId, workspaceId, "viewer"));
}

/**
 * The session and the membership, looked up once per request: the workspace layout and the page
 * both ask for the context, and React's `cache` lets the second call reuse the first. Cached by
 * workspace only; the role is checked by `pageContext` on every call.
 */
const membershipForRequest = cache(async (workspaceId: string): Promise<WorkspaceContext> => {
  try {
    return await readContext(workspaceId, (await headers()).get("cookie"));
  } catch (err) {
    if (err instanceof UnauthorizedError) redirect("/sign-in");
    throw err;
  }
});

/** For pages: redirects to sign-in when signed out; NotFound/Forbidden propagate to error pages. */
export async function pageContext(workspaceId: string, minRole: Role = "viewer"): Promise<WorkspaceContext> {
  const ctx = await membershipForRequest(workspaceId);
  requireRole(ctx, minRole);
  return ctx;
}

/** For pages outside a workspace: the signed-in user's id, or a redirect to sign-in. */
export const requireUserId = cache(async (): Promise<string> => {
  const session = await auth();
  const userId = session?.user?.id;
  if (!userId) redirect("/sign-in");
  return userId;
});

/** For pages: a NotFoundError (unknown or foreign id) becomes the 404 page; anything else propagates to the error boundary. */
export function orNotFound<T>(promise: Promise<T>): Promise<T> {
  return promise.catch((err: unknown) => {
    if (err instanceof NotFoundError) notFound();
    throw err;
  });
}
