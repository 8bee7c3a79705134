/**
 * A few seconds' memory of who a session cookie is and what role its user has in a workspace,
 * for the read requests a dashboard tab repeats every second (the live run page polls three JSON
 * routes a second, lib/runs/hooks.ts). Without it each poll decrypts the session's JWE and
 * encrypts it again (Auth.js's session action), looks up the user's session version and then the
 * membership: about a third of the web process's CPU under 50 viewers.
 *
 * Rules:
 * - Keyed by the session cookie's exact value (a new or re-issued cookie is a miss) and, for
 *   the membership, by user and workspace: nothing is shared between users or workspaces.
 * - Only successes are remembered (a refusal is never cached: a new member gets in at once).
 * - Entries live SESSION_CACHE_TTL_MS (5 s) at most, and never past the session's own expiry.
 * - Any change of a membership or of a user's session version in this process (role change,
 *   removal, leaving, password change, revoked sessions) forgets everything at once, and a
 *   lookup that started before such a change is not stored. So the staleness is: in the process
 *   that made the change, none; in another web process, at most 5 s (a removed member, a revoked
 *   session or a demoted role can still read for up to 5 s there).
 * - Used for reads only (GET routes and pages); server actions and writes always look up afresh.
 * Kept on globalThis: route handlers and pages are separate bundles with their own module copies.
 */
import "server-only";
import type { WorkspaceContext } from "@/lib/auth/roles";

export const SESSION_CACHE_TTL_MS = 5_000;
const MAX_ENTRIES = 5_000;

type Entry<T> = { value: T; expiresAt: number };
type State = { epoch: number; sessions: Map<string, Entry<string>>; members: Map<string, Entry<WorkspaceContext>> };

const g = globalThis as unknown as { assaySessionCache?: State };
const state: State = (g.assaySessionCache ??= {
  epoch: 0,
  sessions: new Map<string, Entry<string>>(),
  members: new Map<string, Entry<WorkspaceContext>>(),
});

/** Forgets every remembered session and membership (after a membership or session-version change). */
export function invalidateSessionCache(): void {
  state.epoch++;
  state.sessions.clear();
  state.members.clear();
}

function get<T>(map: Map<string, Entry<T>>, key: string): T | undefined {
  const hit = map.get(key);
  if (!hit) return undefined;
  if (hit.expiresAt <= Date.now()) {
    map.delete(key);
    return undefined;
  }
  return hit.value;
}

function put<T>(map: Map<string, Entry<T>>, key: string, value: T, epoch: number, notAfter = Infinity): void {
  if (epoch !== state.epoch) return;
  if (map.size >= MAX_ENTRIES) map.clear();
  map.set(key, { value, expiresAt: Math.min(Date.now() + SESSION_CACHE_TTL_MS, notAfter) });
}

const SESSION_COOKIE = /^(__Secure-)?authjs\.session-token(\.\d+)?$/;

/** The session cookie(s) of a Cookie header, as one key; null without one. */
export function sessionCookieKey(cookieHeader: string | null): string | null {
  if (!cookieHeader) return null;
  const parts = cookieHeader
    .split(";")
    .map((c) => c.trim())
    .filter((c) => SESSION_COOKIE.test(c.slice(0, c.indexOf("=") >>> 0)));
  return parts.length > 0 ? parts.sort().join("; ") : null;
}

/** The user id of a session cookie: remembered, else `resolve()` (Auth.js), remembered when it names a user. */
export async function cachedSessionUser(
  cookieKey: string | null,
  resolve: () => Promise<{ userId: string | null; expires?: string | null }>,
): Promise<string | null> {
  if (cookieKey) {
    const hit = get(state.sessions, cookieKey);
    if (hit) return hit;
  }
  const epoch = state.epoch;
  const { userId, expires } = await resolve();
  if (cookieKey && userId) {
    const until = expires ? Date.parse(expires) : NaN;
    put(state.sessions, cookieKey, userId, epoch, Number.isFinite(until) ? until : Infinity);
  }
  return userId;
}

/** A member's context in a workspace: remembered, else `resolve()` (which throws when not a member). */
export async function cachedMemberContext(
  userId: string,
  workspaceId: string,
  resolve: () => Promise<WorkspaceContext>,
): Promise<WorkspaceContext> {
  const key = `${userId}\u0000${workspaceId}`;
  const hit = get(state.members, key);
  if (hit) return { ...hit };
  const epoch = state.epoch;
  const ctx = await resolve();
  put(state.members, key, { ...ctx }, epoch);
  return ctx;
}
