// The credentials callback through the real route handlers and the real Auth.js (CSRF check,
// Credentials provider, redirect with ?error=CredentialsSignin&code=…), as a browser posts it.
import { beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { GET, POST } from "@/lib/auth/route-handlers";
import { AUTH_ATTEMPT_CEILING, AUTH_ATTEMPT_LIMIT } from "@/lib/auth/rate-limit";

/** Auth.js's double-submit CSRF pair: the token for the form and the cookie that signs it. */
let csrf: { token: string; cookie: string };
beforeAll(async () => {
  const res = await GET(new NextRequest("http://localhost/api/auth/csrf"));
  expect(res.status).toBe(200);
  const token = ((await res.json()) as { csrfToken: string }).csrfToken;
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .find((c) => c.includes("csrf-token="));
  if (!token || !cookie) throw new Error("Auth.js gave no CSRF token");
  csrf = { token, cookie };
});

function post(ip: string, email: string, password = "wrong") {
  return POST(
    new NextRequest("http://localhost/api/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": ip, cookie: csrf.cookie },
      body: new URLSearchParams({ email, password, csrfToken: csrf.token }),
    }),
  );
}

describe("POST /api/auth/callback/credentials", () => {
  it("answers 429 with Retry-After once an (email, address) pair has used its attempts, and only for that pair", async () => {
    for (let i = 0; i < AUTH_ATTEMPT_LIMIT; i++) {
      const res = await post("192.0.2.50", "victim@example.test");
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toContain("code=credentials");
    }
    const res = await post("192.0.2.50", "VICTIM@example.test");
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(await res.json()).toEqual({
      error: { code: "rate_limited", message: expect.stringMatching(/^Too many attempts, try again in 1[45] minutes$/), issues: [] },
    });
    // The same email from another address, and another email from this address, are not locked.
    expect((await post("192.0.2.51", "victim@example.test")).status).toBe(302);
    expect((await post("192.0.2.50", "someone-else@example.test")).status).toBe(302);
  });

  it("answers 429 per email whatever the address once the email's ceiling is reached", async () => {
    for (let i = 0; i < AUTH_ATTEMPT_CEILING; i++) {
      expect((await post(`198.51.100.${i}`, "target@example.test")).status).toBe(302);
    }
    const res = await post("192.0.2.200", "TARGET@example.test");
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});
