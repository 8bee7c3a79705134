/**
 * Users: password sign-in (`authenticateWithPassword`, with the same timing for unknown emails),
 * password changes, the per-user session version that signs a user out everywhere, and the
 * public user fields. OIDC sign-in lives in ./oidc.ts. Called by Auth.js in lib/auth, workspace
 * setup, invitations, member removal and the workspace layout. Key rule: emails are normalised
 * before every lookup, and password hashes never leave this module.
 */
import "server-only";
import { db, type Tx } from "@/lib/db";
import { ValidationError } from "@/lib/errors";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { invalidateSessionCache } from "@/lib/auth/session-cache";

export const userPublicSelect = { id: true, email: true, name: true } as const;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function authenticateWithPassword(email: string, password: string) {
  const user = await db.user.findUnique({ where: { email: normaliseEmail(email) } });
  // Verify against a dummy hash when the user is unknown so timing does not reveal accounts.
  const ok = await verifyPassword(user?.passwordHash ?? DUMMY_HASH, password);
  return user && ok ? { id: user.id, email: user.email, name: user.name } : null;
}

const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$0wJ8M1y0o3Kk8yI6b0tN0m3f1m8r9q7Jb8aZ8o6m1Uc";

/** The version every session of this user must carry; null when the user no longer exists. */
export async function sessionVersionOf(userId: string): Promise<number | null> {
  const row = await db.user.findUnique({ where: { id: userId }, select: { sessionVersion: true } });
  return row?.sessionVersion ?? null;
}

/** Ends every session of the user (each is refused on its next request). */
export async function revokeSessions(userId: string, tx: Tx | typeof db = db): Promise<void> {
  await tx.user.updateMany({ where: { id: userId }, data: { sessionVersion: { increment: 1 } } });
  // Inside a caller's transaction the caller forgets again once it commits (lib/auth/session-cache.ts).
  invalidateSessionCache();
}

/**
 * Changes a password after checking the current one; every existing session ends (the caller
 * re-issues its own). Returns the email so the caller can sign the user in again. An account
 * that signs in only through OIDC has no password to change.
 */
export async function changePassword(userId: string, input: { currentPassword: string; newPassword: string }): Promise<{ email: string }> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { email: true, passwordHash: true } });
  if (user && !user.passwordHash) {
    throw new ValidationError("This account signs in with single sign-on and has no password to change");
  }
  if (!user || !(await verifyPassword(user.passwordHash, input.currentPassword))) {
    const message = "The current password is not correct";
    throw new ValidationError(message, [{ path: "currentPassword", message }]);
  }
  const passwordHash = await hashPassword(input.newPassword);
  await db.user.update({ where: { id: userId }, data: { passwordHash, sessionVersion: { increment: 1 } } });
  invalidateSessionCache();
  return { email: user.email };
}

/** The account page: who is signed in and whether they have a password (OIDC-only accounts do not). */
export async function accountOf(userId: string): Promise<{ email: string; name: string | null; hasPassword: boolean } | null> {
  const row = await db.user.findUnique({ where: { id: userId }, select: { email: true, name: true, passwordHash: true } });
  return row && { email: row.email, name: row.name, hasPassword: row.passwordHash !== null };
}

export async function getUser(id: string) {
  return db.user.findUnique({ where: { id }, select: userPublicSelect });
}

export { hashPassword };
