/**
 * Users: password sign-in (`authenticateWithPassword`, with the same timing for unknown emails),
 * OIDC users found or created by email, and the public user fields. Called by Auth.js in
 * lib/auth/index.ts, workspace setup, invitations and the workspace layout. Key rule: emails are
 * normalised before every lookup, and password hashes never leave this module.
 */
import "server-only";
import { db } from "@/lib/db";
import { hashPassword, verifyPassword } from "@/lib/auth/password";

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

/** OIDC sign-in: the account is identified by its verified email. */
export async function findOrCreateOidcUser(email: string, name: string | null) {
  const normalised = normaliseEmail(email);
  return db.user.upsert({
    where: { email: normalised },
    create: { email: normalised, name },
    update: {},
    select: userPublicSelect,
  });
}

export async function getUser(id: string) {
  return db.user.findUnique({ where: { id }, select: userPublicSelect });
}

export { hashPassword };
