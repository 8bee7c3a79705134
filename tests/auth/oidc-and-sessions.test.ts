import { describe, expect, it } from "vitest";
import type { JWT } from "next-auth/jwt";
import { db } from "@/lib/db";
import { authCallbacks } from "@/lib/auth/callbacks";
import { checkOidcProfile, resolveOidcUser } from "@/lib/users/oidc";
import { changePassword, hashPassword } from "@/lib/users/service";
import { passwordHashStats, verifyPassword } from "@/lib/auth/password";
import { removeMember } from "@/lib/workspaces/members";
import { addMember, makeWorkspace } from "../helpers/factories";

type JwtArgs = Parameters<typeof authCallbacks.jwt>[0];
type SignInArgs = Parameters<typeof authCallbacks.signIn>[0];
const oidcAccount = { provider: "oidc", type: "oidc", providerAccountId: "x" } as SignInArgs["account"];
const jwt = (args: Partial<JwtArgs>) => authCallbacks.jwt({ token: {}, ...args } as JwtArgs);
const signInWith = (profile: Record<string, unknown>) =>
  authCallbacks.signIn({ user: { id: String(profile.sub) }, account: oidcAccount, profile } as SignInArgs);

describe("OIDC sign-in", () => {
  it("needs a verified email, and one in AUTH_OIDC_ALLOWED_DOMAINS when set", () => {
    const base = { sub: "s1", email: "Ann@Corp.example", email_verified: true };
    expect(checkOidcProfile(base, [])).toMatchObject({ ok: true, email: "ann@corp.example" });
    expect(checkOidcProfile({ ...base, email_verified: false }, [])).toEqual({ ok: false, reason: "unverified" });
    expect(checkOidcProfile({ ...base, email_verified: undefined }, [])).toEqual({ ok: false, reason: "unverified" });
    expect(checkOidcProfile({ ...base, email_verified: "false" }, [])).toEqual({ ok: false, reason: "unverified" });
    expect(checkOidcProfile({ ...base, email_verified: "true" }, [])).toMatchObject({ ok: true });
    expect(checkOidcProfile(base, ["corp.example"])).toMatchObject({ ok: true });
    expect(checkOidcProfile(base, ["other.example"])).toEqual({ ok: false, reason: "domain" });
    // Exact domains only: a look-alike or a subdomain is not the allowed domain.
    expect(checkOidcProfile({ ...base, email: "ann@evilcorp.example" }, ["corp.example"])).toEqual({ ok: false, reason: "domain" });
    expect(checkOidcProfile({ ...base, email: "ann@corp.example.evil" }, ["corp.example"])).toEqual({ ok: false, reason: "domain" });
    expect(checkOidcProfile({ ...base, email: undefined }, [])).toEqual({ ok: false, reason: "invalid" });
    expect(checkOidcProfile({ ...base, sub: "" }, [])).toEqual({ ok: false, reason: "invalid" });
  });

  it("the signIn callback refuses unverified emails and sends the reason to the sign-in page", async () => {
    expect(await signInWith({ sub: "u1", email: "new@example.test", email_verified: false })).toBe("/sign-in?error=oidc_unverified");
    expect(await db.user.count({ where: { email: "new@example.test" } })).toBe(0);
    expect(await authCallbacks.signIn({ user: { id: "x" }, account: { provider: "credentials" } } as SignInArgs)).toBe(true);
  });

  it("creates and links a new account, and finds it again by subject", async () => {
    expect(await signInWith({ sub: "sub-new", email: "Fresh@Example.test", email_verified: true, name: "Fresh" })).toBe(true);
    const user = await db.user.findUniqueOrThrow({ where: { email: "fresh@example.test" } });
    expect(user).toMatchObject({ oidcSubject: "sub-new", passwordHash: null, name: "Fresh" });
    const token = await jwt({ account: oidcAccount, profile: { sub: "sub-new", email: "fresh@example.test", email_verified: true } });
    expect(token).toMatchObject({ uid: user.id, sv: 0 });
  });

  it("never takes over an existing password account, or one linked to another subject", async () => {
    const { user } = await makeWorkspace("owner");
    await db.user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword("password123") } });
    const profile = { sub: "attacker-sub", email: user.email.toUpperCase(), email_verified: true };
    expect(await resolveOidcUser(profile, [])).toEqual({ ok: false, reason: "unlinked" });
    expect(await signInWith(profile)).toBe("/sign-in?error=oidc_unlinked");
    expect(await jwt({ account: oidcAccount, profile })).toBeNull();
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).oidcSubject).toBeNull();

    await resolveOidcUser({ sub: "first", email: "linked@example.test", email_verified: true }, []);
    expect(await resolveOidcUser({ sub: "second", email: "linked@example.test", email_verified: true }, [])).toEqual({
      ok: false,
      reason: "unlinked",
    });
  });

  it("links an account an earlier OIDC sign-in made (no password, no subject yet)", async () => {
    const legacy = await db.user.create({ data: { email: "legacy@example.test" } });
    const result = await resolveOidcUser({ sub: "legacy-sub", email: "legacy@example.test", email_verified: true }, []);
    expect(result).toMatchObject({ ok: true, user: { id: legacy.id } });
    expect((await db.user.findUniqueOrThrow({ where: { id: legacy.id } })).oidcSubject).toBe("legacy-sub");
  });
});

describe("session versions", () => {
  async function signedInToken(userId: string): Promise<JWT> {
    const token = await jwt({ user: { id: userId } });
    if (!token) throw new Error("expected a token");
    return token;
  }

  it("a session carries the user's version and ends when a member is removed", async () => {
    const { workspace, ctx } = await makeWorkspace("owner");
    const member = await addMember(workspace.id, "editor");
    const token = await signedInToken(member.user.id);
    expect(token).toMatchObject({ uid: member.user.id, sv: 0 });
    expect(await jwt({ token })).toEqual(token);
    const session = authCallbacks.session({ session: { user: {}, expires: "" }, token } as Parameters<typeof authCallbacks.session>[0]);
    expect(session).toMatchObject({ user: { id: member.user.id } });

    await removeMember(ctx, member.user.id);
    expect(await jwt({ token })).toBeNull();
    // Signing in again gives a session at the new version.
    expect(await jwt({ token: await signedInToken(member.user.id) })).toMatchObject({ sv: 1 });
  });

  it("a password change ends every session; tokens without a version or for a deleted user are refused", async () => {
    const { user } = await makeWorkspace("owner");
    await db.user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword("old-password") } });
    const token = await signedInToken(user.id);
    await expect(changePassword(user.id, { currentPassword: "nope", newPassword: "new-password" })).rejects.toMatchObject({
      issues: [{ path: "currentPassword" }],
    });
    expect(await jwt({ token })).toEqual(token);
    await changePassword(user.id, { currentPassword: "old-password", newPassword: "new-password" });
    expect(await jwt({ token })).toBeNull();
    expect(await jwt({ token: { uid: user.id } })).toBeNull();
    const gone = await signedInToken((await makeWorkspace()).user.id);
    await db.user.delete({ where: { id: gone.uid as string } });
    expect(await jwt({ token: gone })).toBeNull();
  });
});

describe("password hashing", () => {
  it("runs at most 4 argon2 operations at once", async () => {
    const hash = await hashPassword("password123");
    passwordHashStats.maxActive = 0;
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => verifyPassword(hash, i % 2 ? "password123" : "wrong")));
    expect(results.filter(Boolean)).toHaveLength(6);
    expect(passwordHashStats.maxActive).toBe(4);
  });
});
