/**
 * The Auth.js pieces with Assay's rules, kept apart from NextAuth() so tests can call them:
 * - `authorizeCredentials`: the rate limit (per IP and per email) before any password hashing;
 * - `signIn`: an OIDC sign-in needs a verified email in an allowed domain and never takes over a
 *   password account (lib/users/oidc.ts); refusals go back to the sign-in page with a reason;
 * - `jwt`: the token carries the local user id and the user's session version, and on every
 *   later request the version is compared with the database (one primary-key lookup), so a
 *   password change or a removal from a workspace ends every session at once;
 * - `redirect`: only this app's own origin (lib/auth/redirect.ts).
 */
import "server-only";
// From @auth/core (what next-auth re-exports) so the module also loads outside Next, in tests.
import { CredentialsSignin } from "@auth/core/errors";
import type { NextAuthConfig } from "next-auth";
import { z } from "zod";
import { authenticateWithPassword, sessionVersionOf } from "@/lib/users/service";
import { resolveOidcUser, type OidcProfile } from "@/lib/users/oidc";
import { attemptKeys, consumeAttempt, refundAttempt } from "./rate-limit";
import { clientIp } from "./client-ip";
import { safeCallbackPath } from "./redirect";

const credentialsInput = z.object({ email: z.email(), password: z.string().min(1) });

/** Thrown from `authorize` when the attempt is over the limit; the sign-in action shows the wait. */
export class TooManySignInAttempts extends CredentialsSignin {
  override code = "rate_limited";
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super();
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export async function authorizeCredentials(raw: Partial<Record<string, unknown>>, request: Request) {
  const parsed = credentialsInput.safeParse(raw);
  if (!parsed.success) return null;
  const keys = attemptKeys({ ip: clientIp(request.headers), email: parsed.data.email });
  const verdict = await consumeAttempt(keys);
  if (!verdict.ok) throw new TooManySignInAttempts(verdict.retryAfterSeconds);
  const user = await authenticateWithPassword(parsed.data.email, parsed.data.password);
  if (!user) return null;
  await refundAttempt(keys);
  return { id: user.id, email: user.email, name: user.name };
}

type Callbacks = NonNullable<NextAuthConfig["callbacks"]>;

export const authCallbacks = {
  async signIn({ account, profile }) {
    if (account?.provider !== "oidc") return true;
    const result = await resolveOidcUser((profile ?? {}) as OidcProfile);
    return result.ok ? true : `/sign-in?error=oidc_${result.reason}`;
  },

  async jwt({ token, user, account, profile }) {
    if (account?.provider === "oidc") {
      // Resolved again here (the signIn callback cannot hand data over): finds the linked account.
      const result = await resolveOidcUser((profile ?? {}) as OidcProfile);
      if (!result.ok) return null;
      token.uid = result.user.id;
      token.sv = result.user.sessionVersion;
      return token;
    }
    if (user?.id) {
      const version = await sessionVersionOf(user.id);
      if (version === null) return null;
      token.uid = user.id;
      token.sv = version;
      return token;
    }
    // Every later request: the session is as current as the user's session version.
    if (typeof token.uid !== "string" || typeof token.sv !== "number") return null;
    const version = await sessionVersionOf(token.uid);
    return version === token.sv ? token : null;
  },

  session({ session, token }) {
    if (typeof token.uid === "string") session.user.id = token.uid;
    return session;
  },

  redirect({ url, baseUrl }) {
    return new URL(safeCallbackPath(url, baseUrl), baseUrl).toString();
  },
} satisfies Callbacks;
