/**
 * Auth.js (next-auth) set-up: email + password credentials, an optional OIDC provider from env,
 * and JWT sessions that carry the local user id and session version (rules in ./callbacks.ts). Exports `auth`, `signIn`, `signOut`, the route
 * `handlers` and `currentUserId`. Called by app/api/auth, the home redirect, the sign-in and
 * sign-out actions (./actions.ts) and ./context.ts. Key rule: this only says who the
 * user is — pages, actions and routes check the workspace and role themselves (./context.ts,
 * lib/api/handler.ts); middleware is never the guard.
 */
import "server-only";
import NextAuth, { type NextAuthConfig } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { env, oidcEnabled } from "@/lib/env";
import { authCallbacks, authorizeCredentials } from "./callbacks";

const providers: NextAuthConfig["providers"] = [
  Credentials({
    credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
    authorize: authorizeCredentials,
  }),
];

if (oidcEnabled) {
  providers.push({
    id: "oidc",
    name: env.AUTH_OIDC_NAME ?? "Single sign-on",
    type: "oidc",
    issuer: env.AUTH_OIDC_ISSUER,
    clientId: env.AUTH_OIDC_ID,
    clientSecret: env.AUTH_OIDC_SECRET,
  });
}

export const { handlers, auth, signIn, signOut } = NextAuth({
  trustHost: true,
  secret: env.AUTH_SECRET ?? env.ASSAY_SECRET,
  // Rolling idle timeout: each session request re-issues the cookie for another maxAge
  // (components/auth/session-keepalive.tsx asks for it while the app is in use).
  session: { strategy: "jwt", maxAge: Math.round(env.ASSAY_SESSION_IDLE_HOURS * 3600), updateAge: 0 },
  pages: { signIn: "/sign-in" },
  providers,
  callbacks: authCallbacks,
});

/** The signed-in user's id, or null. */
export async function currentUserId(): Promise<string | null> {
  const session = await auth();
  return session?.user?.id ?? null;
}
