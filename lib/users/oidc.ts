/**
 * OIDC sign-in → the local account. The identity provider's profile must say the email is
 * verified and, when AUTH_OIDC_ALLOWED_DOMAINS is set, be in one of those domains. An account is
 * found by its linked OIDC subject (`sub`); a new address gets a new account linked to it. An
 * existing password account (or one linked to another subject) is never taken over by an OIDC
 * sign-in with the same email: that is refused with "unlinked", and its owner keeps signing in
 * with the password. Called by the Auth.js signIn/jwt callbacks (lib/auth/callbacks.ts).
 */
import "server-only";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { isUniqueViolation } from "@/lib/errors";
import { normaliseEmail } from "./service";

export type OidcProfile = { sub?: unknown; email?: unknown; email_verified?: unknown; name?: unknown };
export type OidcRefusal = "invalid" | "unverified" | "domain" | "unlinked";
export type OidcUser = { id: string; email: string; name: string | null; sessionVersion: number };
export type OidcResult = { ok: true; user: OidcUser } | { ok: false; reason: OidcRefusal };

const userSelect = { id: true, email: true, name: true, sessionVersion: true } as const;

/** Messages the sign-in page shows for `?error=<reason>` after a refused OIDC sign-in. */
export const oidcRefusalMessages: Record<OidcRefusal, string> = {
  invalid: "Single sign-on did not return an email address.",
  unverified: "Your identity provider has not verified this email address, so Assay cannot sign you in with it.",
  domain: "This email domain is not allowed to sign in to this Assay instance.",
  unlinked:
    "An Assay account with this email already exists and signs in with a password. Sign in with your password; single sign-on is not linked to that account.",
};

/** The checks that need no database: a subject, a verified email, an allowed domain. */
export function checkOidcProfile(
  profile: OidcProfile,
  allowedDomains: readonly string[],
): { ok: true; sub: string; email: string; name: string | null } | { ok: false; reason: OidcRefusal } {
  const sub = typeof profile.sub === "string" && profile.sub !== "" ? profile.sub : null;
  const email = typeof profile.email === "string" && profile.email.includes("@") ? normaliseEmail(profile.email) : null;
  if (!sub || !email) return { ok: false, reason: "invalid" };
  // Some providers (AWS Cognito) send the claim as the string "true".
  if (profile.email_verified !== true && profile.email_verified !== "true") return { ok: false, reason: "unverified" };
  const domain = email.slice(email.lastIndexOf("@") + 1);
  if (allowedDomains.length > 0 && !allowedDomains.includes(domain)) return { ok: false, reason: "domain" };
  return { ok: true, sub, email, name: typeof profile.name === "string" ? profile.name : null };
}

export async function resolveOidcUser(
  profile: OidcProfile,
  allowedDomains: readonly string[] = env.AUTH_OIDC_ALLOWED_DOMAINS,
): Promise<OidcResult> {
  const checked = checkOidcProfile(profile, allowedDomains);
  if (!checked.ok) return checked;
  const { sub, email, name } = checked;

  const linked = await db.user.findUnique({ where: { oidcSubject: sub }, select: userSelect });
  if (linked) return { ok: true, user: linked };

  const byEmail = await db.user.findUnique({ where: { email }, select: { ...userSelect, passwordHash: true, oidcSubject: true } });
  if (!byEmail) {
    try {
      const user = await db.user.create({ data: { email, name, oidcSubject: sub }, select: userSelect });
      return { ok: true, user };
    } catch (err) {
      // A concurrent first sign-in created it: resolve again (it is linked to this subject or refused).
      if (isUniqueViolation(err)) return resolveOidcUser(profile, allowedDomains);
      throw err;
    }
  }
  // An account made by an OIDC sign-in before subjects were recorded has no password: link it now.
  if (byEmail.passwordHash === null && byEmail.oidcSubject === null) {
    const { count } = await db.user.updateMany({
      where: { id: byEmail.id, oidcSubject: null, passwordHash: null },
      data: { oidcSubject: sub },
    });
    if (count === 1)
      return { ok: true, user: { id: byEmail.id, email: byEmail.email, name: byEmail.name, sessionVersion: byEmail.sessionVersion } };
  }
  return { ok: false, reason: "unlinked" };
}
