import { beforeEach, describe, expect, it, vi } from "vitest";

// Actions read the caller's address from next/headers and sign in through next-auth; a test decides both.
const request = vi.hoisted(() => ({ headers: new Headers({ "x-forwarded-for": "203.0.113.7" }) }));
vi.mock("next/headers", () => ({
  headers: async () => request.headers,
  cookies: async () => ({ get: () => undefined, set: () => undefined }),
}));
const signIn = vi.hoisted(() => vi.fn(async (..._args: unknown[]) => undefined));
vi.mock("@/lib/auth", () => ({ auth: async () => null, currentUserId: async () => null, signIn, signOut: vi.fn() }));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));

import { db } from "@/lib/db";
import { hashToken } from "@/lib/crypto";
import {
  AUTH_ATTEMPT_LIMIT,
  attemptKeys,
  consumeAttempt,
  peekAttempts,
  refundAttempt,
  tooManyAttemptsMessage,
} from "@/lib/auth/rate-limit";
import { authorizeCredentials, TooManySignInAttempts } from "@/lib/auth/callbacks";
import { clientIp } from "@/lib/auth/client-ip";
import { passwordHashStats } from "@/lib/auth/password";
import { setupAction, signInAction } from "@/lib/auth/actions";
import { acceptInvitationAction } from "@/lib/workspaces/settings-actions";
import { acceptInvitationWithNewAccount } from "@/lib/workspaces/invitations";
import { createFirstAdmin } from "@/lib/workspaces/service";
import { ConflictError, ValidationError } from "@/lib/errors";
import { makeWorkspace } from "../helpers/factories";

let n = 0;
const freshIp = () => `198.51.100.${++n}`;

beforeEach(() => {
  request.headers = new Headers({ "x-forwarded-for": freshIp() });
  signIn.mockReset();
});

function credentialsRequest(ip: string) {
  return new Request("http://localhost/api/auth/callback/credentials", { method: "POST", headers: { "x-forwarded-for": ip } });
}

describe("attempt counters", () => {
  it("allow 10 attempts per key in the window, then refuse with the time left", async () => {
    const keys = attemptKeys({ ip: freshIp(), email: "Counter@Example.test" });
    expect(keys[1]).toBe("email:counter@example.test");
    for (let i = 0; i < AUTH_ATTEMPT_LIMIT; i++) expect(await consumeAttempt(keys)).toEqual({ ok: true });
    expect(await peekAttempts(keys)).toMatchObject({ ok: false });
    const refused = await consumeAttempt(keys);
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.retryAfterSeconds).toBeGreaterThan(14 * 60);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(15 * 60);
    }
    expect(tooManyAttemptsMessage(899)).toBe("Too many attempts, try again in 15 minutes");
    expect(tooManyAttemptsMessage(30)).toBe("Too many attempts, try again in 1 minute");
    const rows = await db.authRateLimit.findMany({ where: { key: { in: keys } } });
    expect(rows.map((r) => r.count)).toEqual([11, 11]);
  });

  it("counts per IP and per email separately, and a window that ended starts again", async () => {
    const ip = freshIp();
    for (let i = 0; i < AUTH_ATTEMPT_LIMIT; i++) await consumeAttempt(attemptKeys({ ip, email: `user${i}@example.test` }));
    // The IP is used up, whatever the email.
    expect((await consumeAttempt(attemptKeys({ ip, email: "another@example.test" }))).ok).toBe(false);
    // Another IP with a fresh email is fine.
    expect((await consumeAttempt(attemptKeys({ ip: freshIp(), email: "another2@example.test" }))).ok).toBe(true);
    await db.authRateLimit.update({ where: { key: `ip:${ip}` }, data: { resetAt: new Date(Date.now() - 1000) } });
    expect((await consumeAttempt(attemptKeys({ ip }))).ok).toBe(true);
    expect((await db.authRateLimit.findUniqueOrThrow({ where: { key: `ip:${ip}` } })).count).toBe(1);
  });

  it("counts concurrent attempts exactly (one statement per attempt)", async () => {
    const keys = attemptKeys({ email: "burst@example.test" });
    const results = await Promise.all(Array.from({ length: 25 }, () => consumeAttempt(keys)));
    expect(results.filter((r) => r.ok)).toHaveLength(AUTH_ATTEMPT_LIMIT);
  });

  it("a refund gives an attempt back", async () => {
    const keys = attemptKeys({ email: "refund@example.test" });
    await consumeAttempt(keys);
    await refundAttempt(keys);
    expect((await db.authRateLimit.findUniqueOrThrow({ where: { key: keys[0]! } })).count).toBe(0);
  });
});

describe("client IP", () => {
  it("uses the first X-Forwarded-For entry only behind a trusted proxy", () => {
    const h = new Headers({ "x-forwarded-for": "203.0.113.1, 10.0.0.2" });
    expect(clientIp(h, true)).toBe("203.0.113.1");
    expect(clientIp(h, false)).toBe("10.0.0.2");
    expect(clientIp(new Headers({ "x-forwarded-for": "::ffff:127.0.0.1" }), false)).toBe("127.0.0.1");
    expect(clientIp(new Headers(), false)).toBeNull();
  });
});

describe("password sign-in (Credentials provider)", () => {
  it("refuses the 11th failed attempt for an email before verifying any password, and a success costs nothing", async () => {
    const { user } = await makeWorkspace("owner");
    const { hashPassword } = await import("@/lib/auth/password");
    await db.user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword("right-password") } });

    // Successful sign-ins give their attempt back.
    for (let i = 0; i < 3; i++) {
      expect(await authorizeCredentials({ email: user.email, password: "right-password" }, credentialsRequest(freshIp()))).toMatchObject({
        id: user.id,
      });
    }
    for (let i = 0; i < AUTH_ATTEMPT_LIMIT; i++) {
      expect(await authorizeCredentials({ email: user.email, password: "wrong" }, credentialsRequest(freshIp()))).toBeNull();
    }
    const verifications = passwordHashStats.verifications;
    const refused = authorizeCredentials({ email: user.email.toUpperCase(), password: "right-password" }, credentialsRequest(freshIp()));
    await expect(refused).rejects.toBeInstanceOf(TooManySignInAttempts);
    await expect(refused).rejects.toMatchObject({ code: "rate_limited", retryAfterSeconds: expect.any(Number) });
    expect(passwordHashStats.verifications).toBe(verifications);
  });

  it("the sign-in form shows the wait as its form error", async () => {
    signIn.mockRejectedValueOnce(new TooManySignInAttempts(14 * 60 + 5));
    expect(await signInAction({ email: "a@example.test", password: "x" })).toEqual({
      ok: false,
      error: "Too many attempts, try again in 15 minutes",
      issues: [],
    });
  });
});

describe("setup and invite acceptance", () => {
  it("setup: refused when already set up before hashing, and rate-limited per IP", async () => {
    await makeWorkspace("owner");
    const hashes = passwordHashStats.hashes;
    const input = { email: "late@example.test", password: "password123", workspaceName: "Late" };
    await expect(createFirstAdmin(input)).rejects.toBeInstanceOf(ConflictError);
    expect(await setupAction(input)).toMatchObject({ ok: false, error: "Assay is already set up" });
    expect(passwordHashStats.hashes).toBe(hashes);

    for (let i = 0; i < AUTH_ATTEMPT_LIMIT - 1; i++) await setupAction({ ...input, email: `late${i}@example.test` });
    expect(await setupAction({ ...input, email: "other@example.test" })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Too many attempts, try again in 1[45] minutes$/),
    });
  });

  it("invite acceptance: an invalid, used or taken invitation is refused before hashing", async () => {
    const { workspace, user } = await makeWorkspace("owner");
    const hashes = passwordHashStats.hashes;
    await expect(acceptInvitationWithNewAccount({ token: "inv_" + "n".repeat(40), password: "password123" })).rejects.toBeInstanceOf(
      ValidationError,
    );
    const token = "inv_" + "t".repeat(40);
    await db.invitation.create({
      data: {
        workspaceId: workspace.id,
        email: user.email,
        role: "editor",
        tokenHash: hashToken(token),
        expiresAt: new Date(Date.now() + 60_000),
      },
    });
    await expect(acceptInvitationWithNewAccount({ token, password: "password123" })).rejects.toBeInstanceOf(ConflictError);
    expect(passwordHashStats.hashes).toBe(hashes);
  });

  it("invite acceptance is rate-limited per IP with a form error", async () => {
    const bad = { token: "inv_" + "q".repeat(40), password: "password123" };
    for (let i = 0; i < AUTH_ATTEMPT_LIMIT; i++) {
      expect(await acceptInvitationAction(bad)).toMatchObject({ ok: false, error: expect.stringContaining("invalid") });
    }
    expect(await acceptInvitationAction(bad)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Too many attempts, try again in \d+ minutes$/),
    });
  });
});
