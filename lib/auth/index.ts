/**
 * Auth.js (next-auth) set-up: email + password credentials, an optional OIDC provider from env,
 * and JWT sessions that carry the local user id. Exports `auth`, `signIn`, `signOut`, the route
 * `handlers` and `currentUserId`. Called by app/api/auth, the home redirect, the sign-in and
 * sign-out actions (./actions.ts) and ./context.ts. Key rule: this only says who the
 * user is — pages, actions and routes check the workspace and role themselves (./context.ts,
 * lib/api/handler.ts); middleware is never the guard.
 */
import "server-only";
import NextAuth, { type NextAuthConfig } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { env, oidcEnabled } from "@/lib/env";
import { authenticateWithPassword, findOrCreateOidcUser } from "@/lib/users/service";

const credentialsInput = z.object({ email: z.email(), password: z.string().min(1) });

const providers: NextAuthConfig["providers"] = [
  Credentials({
    credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
    async authorize(raw) {
      const parsed = credentialsInput.safeParse(raw);
      if (!parsed.success) return null;
      const user = await authenticateWithPassword(parsed.data.email, parsed.data.password);
      return user ? { id: user.id, email: user.email, name: user.name } : null;
    },
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
  session: { strategy: "jwt" },
  pages: { signIn: "/sign-in" },
  providers,
  callbacks: {
    async jwt({ token, user, account }) {
      if (account?.provider === "oidc" && token.email) {
        const local = await findOrCreateOidcUser(token.email, token.name ?? null);
        token.uid = local.id;
      } else if (user?.id) {
        token.uid = user.id;
      }
      return token;
    },
    session({ session, token }) {
      if (typeof token.uid === "string") session.user.id = token.uid;
      return session;
    },
  },
});

/** The signed-in user's id, or null. */
export async function currentUserId(): Promise<string | null> {
  const session = await auth();
  return session?.user?.id ?? null;
}
