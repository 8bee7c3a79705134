import { beforeEach, describe, expect, it, vi } from "vitest";

// The action reads the session and the caller's address, and signs the session in again: a test decides all three.
const session = vi.hoisted(() => ({ userId: null as string | null }));
const request = vi.hoisted(() => ({ headers: new Headers() }));
const signIn = vi.hoisted(() => vi.fn(async (..._args: unknown[]) => undefined));
vi.mock("next/headers", () => ({
  headers: async () => request.headers,
  cookies: async () => ({ get: () => undefined, set: () => undefined }),
}));
vi.mock("@/lib/auth", () => ({
  auth: async () => (session.userId ? { user: { id: session.userId } } : null),
  currentUserId: async () => session.userId,
  signIn,
  signOut: vi.fn(),
}));

import { db } from "@/lib/db";
import { changePasswordAction } from "@/lib/auth/actions";
import { authCallbacks } from "@/lib/auth/callbacks";
import { AUTH_ATTEMPT_LIMIT } from "@/lib/auth/rate-limit";
import { passwordHashStats, verifyPassword } from "@/lib/auth/password";
import { hashPassword } from "@/lib/users/service";
import { makeWorkspace } from "../helpers/factories";

type JwtArgs = Parameters<typeof authCallbacks.jwt>[0];
const jwt = (args: Partial<JwtArgs>) => authCallbacks.jwt({ token: {}, ...args } as JwtArgs);

let n = 0;
beforeEach(() => {
  session.userId = null;
  request.headers = new Headers({ "x-forwarded-for": `192.0.2.${++n}` });
  signIn.mockReset();
});

const redirectTarget = (err: unknown) => String((err as { digest?: string }).digest ?? "").split(";")[2];

async function userWithPassword(password = "old-password") {
  const { user } = await makeWorkspace("owner");
  await db.user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(password) } });
  session.userId = user.id;
  return user;
}

const input = (over: Partial<{ currentPassword: string; newPassword: string; confirm: string }> = {}) => ({
  currentPassword: "old-password",
  newPassword: "new-password-1",
  confirm: "new-password-1",
  ...over,
});

describe("changePasswordAction", () => {
  it("refuses a signed-out caller", async () => {
    expect(await changePasswordAction(input())).toMatchObject({ ok: false, error: "Authentication required" });
  });

  it("answers a wrong current password at its field and changes nothing", async () => {
    const user = await userWithPassword();
    const result = await changePasswordAction(input({ currentPassword: "wrong-password" }));
    expect(result).toMatchObject({ ok: false, issues: [{ path: "currentPassword", message: "The current password is not correct" }] });
    const row = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.sessionVersion).toBe(0);
    expect(await verifyPassword(row.passwordHash, "old-password")).toBe(true);
    expect(signIn).not.toHaveBeenCalled();
  });

  it("puts a mismatched confirmation at `confirm` and a short new password at its field", async () => {
    await userWithPassword();
    expect(await changePasswordAction(input({ confirm: "something-else" }))).toMatchObject({
      ok: false,
      issues: [{ path: "confirm", message: "The passwords do not match" }],
    });
    const short = await changePasswordAction(input({ newPassword: "short", confirm: "short" }));
    expect(short).toMatchObject({ ok: false, issues: [{ path: "newPassword", message: "Use at least 8 characters" }] });
  });

  it("changes the password, ends other sessions and signs this one in again at the new version", async () => {
    const user = await userWithPassword();
    const otherSession = await jwt({ user: { id: user.id } });
    expect(otherSession).toMatchObject({ sv: 0 });

    const thrown = await changePasswordAction(input()).catch((err: unknown) => err);
    expect(redirectTarget(thrown)).toBe("/account?changed=1");
    const row = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.sessionVersion).toBe(1);
    expect(await verifyPassword(row.passwordHash, "new-password-1")).toBe(true);
    expect(await verifyPassword(row.passwordHash, "old-password")).toBe(false);
    // The other session is refused; this one gets a fresh token from signing in with the new password.
    expect(await jwt({ token: otherSession! })).toBeNull();
    expect(signIn).toHaveBeenCalledWith("credentials", { email: user.email, password: "new-password-1", redirect: false });
    expect(await jwt({ user: { id: user.id } })).toMatchObject({ uid: user.id, sv: 1 });
  });

  it("tells an account without a password (single sign-on only) that there is none to change", async () => {
    const { user } = await makeWorkspace("owner");
    session.userId = user.id;
    const result = await changePasswordAction(input());
    expect(result).toMatchObject({ ok: false, error: "This account signs in with single sign-on and has no password to change" });
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).sessionVersion).toBe(0);
  });

  it("is limited like sign-in: after 10 wrong guesses from one address the next is refused before any hashing", async () => {
    await userWithPassword();
    for (let i = 0; i < AUTH_ATTEMPT_LIMIT; i++) {
      expect(await changePasswordAction(input({ currentPassword: `guess-${i}` }))).toMatchObject({
        ok: false,
        issues: [{ path: "currentPassword" }],
      });
    }
    const before = passwordHashStats.verifications;
    const refused = await changePasswordAction(input());
    expect(refused).toMatchObject({ ok: false, error: expect.stringMatching(/^Too many attempts, try again in \d+ minutes?$/) });
    expect(passwordHashStats.verifications).toBe(before);
    expect(signIn).not.toHaveBeenCalled();
    // The lock is this address's: from another one the account's own counter is far from its ceiling.
    request.headers = new Headers({ "x-forwarded-for": "192.0.2.250" });
    await expect(changePasswordAction(input())).rejects.toMatchObject({ digest: expect.stringContaining("/account?changed=1") });
  });
});
