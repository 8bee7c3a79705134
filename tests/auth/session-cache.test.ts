import { afterEach, describe, expect, it, vi } from "vitest";
import type { WorkspaceContext } from "@/lib/auth/roles";
import {
  cachedMemberContext,
  cachedSessionUser,
  invalidateSessionCache,
  sessionCookieKey,
  SESSION_CACHE_TTL_MS,
} from "@/lib/auth/session-cache";

const ctx = (role: WorkspaceContext["role"]): WorkspaceContext => ({ workspaceId: "w1", role, userId: "u1", apiKeyId: null });

describe("session cache (reads only)", () => {
  afterEach(() => {
    vi.useRealTimers();
    invalidateSessionCache();
  });

  it("keys on the session cookie(s) only", () => {
    expect(sessionCookieKey(null)).toBeNull();
    expect(sessionCookieKey("theme=dark")).toBeNull();
    expect(sessionCookieKey("theme=dark; authjs.session-token=abc")).toBe("authjs.session-token=abc");
    expect(sessionCookieKey("__Secure-authjs.session-token.1=b; __Secure-authjs.session-token.0=a")).toBe(
      "__Secure-authjs.session-token.0=a; __Secure-authjs.session-token.1=b",
    );
  });

  it("remembers a session for at most the TTL, never a signed-out answer, never without a cookie", async () => {
    vi.useFakeTimers();
    const resolve = vi.fn(async () => ({ userId: "u1" }));
    expect(await cachedSessionUser("authjs.session-token=a", resolve)).toBe("u1");
    expect(await cachedSessionUser("authjs.session-token=a", resolve)).toBe("u1");
    expect(resolve).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(SESSION_CACHE_TTL_MS);
    await cachedSessionUser("authjs.session-token=a", resolve);
    expect(resolve).toHaveBeenCalledTimes(2);
    const none = vi.fn(async () => ({ userId: null }));
    await cachedSessionUser("authjs.session-token=b", none);
    await cachedSessionUser("authjs.session-token=b", none);
    expect(none).toHaveBeenCalledTimes(2);
    await cachedSessionUser(null, resolve);
    await cachedSessionUser(null, resolve);
    expect(resolve).toHaveBeenCalledTimes(4);
  });

  it("does not outlive the session's expiry", async () => {
    vi.useFakeTimers();
    const resolve = vi.fn(async () => ({ userId: "u1", expires: new Date(Date.now() + 1_000).toISOString() }));
    await cachedSessionUser("authjs.session-token=a", resolve);
    vi.advanceTimersByTime(1_000);
    await cachedSessionUser("authjs.session-token=a", resolve);
    expect(resolve).toHaveBeenCalledTimes(2);
  });

  it("remembers memberships per user and workspace, forgets them on any change, and never caches a refusal", async () => {
    const resolve = vi.fn(async () => ctx("editor"));
    expect((await cachedMemberContext("u1", "w1", resolve)).role).toBe("editor");
    await cachedMemberContext("u1", "w1", resolve);
    expect(resolve).toHaveBeenCalledTimes(1);
    await cachedMemberContext("u2", "w1", resolve);
    await cachedMemberContext("u1", "w2", resolve);
    expect(resolve).toHaveBeenCalledTimes(3);
    invalidateSessionCache();
    await cachedMemberContext("u1", "w1", resolve);
    expect(resolve).toHaveBeenCalledTimes(4);
    const refuse = vi.fn(async (): Promise<WorkspaceContext> => {
      throw new Error("not a member");
    });
    await expect(cachedMemberContext("u3", "w1", refuse)).rejects.toThrow();
    await expect(cachedMemberContext("u3", "w1", refuse)).rejects.toThrow();
    expect(refuse).toHaveBeenCalledTimes(2);
  });

  it("does not store a lookup that started before a change", async () => {
    let release!: () => void;
    const slow = vi.fn(() => new Promise<WorkspaceContext>((r) => (release = () => r(ctx("admin")))));
    const pending = cachedMemberContext("u1", "w1", slow);
    invalidateSessionCache(); // e.g. the member was demoted meanwhile
    release();
    expect((await pending).role).toBe("admin");
    const fresh = vi.fn(async () => ctx("viewer"));
    expect((await cachedMemberContext("u1", "w1", fresh)).role).toBe("viewer");
  });
});
