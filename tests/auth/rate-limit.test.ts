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
  AUTH_ATTEMPT_CEILING,
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
  it("allow 10 attempts per (email, address) in the window, then refuse with the time left", async () => {
    const ip = freshIp();
    const keys = attemptKeys({ ip, email: "Counter@Example.test" });
    expect(keys).toEqual([`ip:${ip}`, "email:counter@example.test", `email+ip:counter@example.test ${ip}`]);
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
    expect(rows.map((r) => r.count)).toEqual([11, 11, 11]);
  });

  it("lock (email, address) pairs: the same email from another address and another email from the same address still go ahead", async () => {
    const ip = freshIp();
    for (let i = 0; i < AUTH_ATTEMPT_LIMIT; i++) await consumeAttempt(attemptKeys({ ip, email: "pair@example.test" }));
    expect((await consumeAttempt(attemptKeys({ ip, email: "pair@example.test" }))).ok).toBe(false);
    expect((await peekAttempts(attemptKeys({ ip: freshIp(), email: "pair@example.test" }))).ok).toBe(true);
    expect((await consumeAttempt(attemptKeys({ ip: freshIp(), email: "pair@example.test" }))).ok).toBe(true);
    expect((await consumeAttempt(attemptKeys({ ip, email: "other-pair@example.test" }))).ok).toBe(true);
    // A window that ended starts again.
    const pair = `email+ip:pair@example.test ${ip}`;
    await db.authRateLimit.update({ where: { key: pair }, data: { resetAt: new Date(Date.now() - 1000) } });
    expect((await consumeAttempt(attemptKeys({ ip, email: "pair@example.test" }))).ok).toBe(true);
    expect((await db.authRateLimit.findUniqueOrThrow({ where: { key: pair } })).count).toBe(1);
  });

  it("keep a ceiling of 100 per email over every address, and 100 per address over every email", async () => {
    for (let i = 0; i < AUTH_ATTEMPT_CEILING; i++) {
      expect((await consumeAttempt(attemptKeys({ ip: `192.0.2.${i}`, email: "ceiling@example.test" }))).ok).toBe(true);
    }
    const fresh = attemptKeys({ ip: freshIp(), email: "ceiling@example.test" });
    expect(await peekAttempts(fresh)).toMatchObject({ ok: false, retryAfterSeconds: expect.any(Number) });
    expect((await consumeAttempt(fresh)).ok).toBe(false);

    const ip = freshIp();
    for (let i = 0; i < AUTH_ATTEMPT_CEILING; i++) {
      expect((await consumeAttempt(attemptKeys({ ip, email: `spray${i}@example.test` }))).ok).toBe(true);
    }
    expect((await consumeAttempt(attemptKeys({ ip, email: "spray-next@example.test" }))).ok).toBe(false);
    expect((await consumeAttempt(attemptKeys({ ip }))).ok).toBe(false);
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
  it("refuses the 11th failed attempt for an email from one address before verifying any password, and a success costs nothing", async () => {
    const { user } = await makeWorkspace("owner");
    const { hashPassword } = await import("@/lib/auth/password");
    await db.user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword("right-password") } });
    const ip = freshIp();

    // Successful sign-ins give their attempt back.
    for (let i = 0; i < 3; i++) {
      expect(await authorizeCredentials({ email: user.email, password: "right-password" }, credentialsRequest(ip))).toMatchObject({
        id: user.id,
      });
    }
    for (let i = 0; i < AUTH_ATTEMPT_LIMIT; i++) {
      expect(await authorizeCredentials({ email: user.email, password: "wrong" }, credentialsRequest(ip))).toBeNull();
    }
    const verifications = passwordHashStats.verifications;
    const refused = authorizeCredentials({ email: user.email.toUpperCase(), password: "right-password" }, credentialsRequest(ip));
    await expect(refused).rejects.toBeInstanceOf(TooManySignInAttempts);
    await expect(refused).rejects.toMatchObject({ code: "rate_limited", retryAfterSeconds: expect.any(Number) });
    expect(passwordHashStats.verifications).toBe(verifications);
  });

  it("someone else's wrong passwords do not lock the user out: only their (email, address) pair is locked", async () => {
    const { user } = await makeWorkspace("owner");
    const { hashPassword } = await import("@/lib/auth/password");
    await db.user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword("right-password") } });
    const attacker = freshIp();
    for (let i = 0; i < AUTH_ATTEMPT_LIMIT; i++) {
      expect(await authorizeCredentials({ email: user.email, password: `guess-${i}` }, credentialsRequest(attacker))).toBeNull();
    }
    await expect(authorizeCredentials({ email: user.email, password: "guess" }, credentialsRequest(attacker))).rejects.toBeInstanceOf(
      TooManySignInAttempts,
    );
    // The user, at their own address, signs in.
    expect(await authorizeCredentials({ email: user.email, password: "right-password" }, credentialsRequest(freshIp()))).toMatchObject({
      id: user.id,
    });
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

    // The address's ceiling: one attempt above, then 99 more with other emails.
    for (let i = 0; i < AUTH_ATTEMPT_CEILING - 1; i++) await setupAction({ ...input, email: `late${i}@example.test` });
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
    for (let i = 0; i < AUTH_ATTEMPT_CEILING; i++) {
      expect(await acceptInvitationAction(bad)).toMatchObject({ ok: false, error: expect.stringContaining("invalid") });
    }
    expect(await acceptInvitationAction(bad)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Too many attempts, try again in \d+ minutes$/),
    });
  });
});
