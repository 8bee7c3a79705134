import { describe, expect, it, vi } from "vitest";

// Auth.js itself does not load under Vitest (next-auth resolves "next/server" without an
// extension); this stand-in runs the real Credentials `authorize` and answers as Auth.js does:
// a redirect to the sign-in page with ?error=CredentialsSignin&code=… when it throws or refuses.
vi.mock("@/lib/auth", async () => {
  const { authorizeCredentials } = await import("@/lib/auth/callbacks");
  const { CredentialsSignin } = await import("@auth/core/errors");
  return {
    handlers: {
      GET: vi.fn(),
      POST: async (req: Request) => {
        const form = Object.fromEntries((await req.formData()).entries());
        try {
          const user = await authorizeCredentials(form, req);
          if (!user) throw new CredentialsSignin();
          return Response.redirect("http://localhost/", 302);
        } catch (err) {
          const code = err instanceof CredentialsSignin ? err.code : "unknown";
          return Response.redirect(`http://localhost/sign-in?error=CredentialsSignin&code=${code}`, 302);
        }
      },
    },
  };
});

import { NextRequest } from "next/server";
import { POST } from "@/lib/auth/route-handlers";
import { AUTH_ATTEMPT_CEILING, AUTH_ATTEMPT_LIMIT } from "@/lib/auth/rate-limit";

function post(ip: string, email: string, password = "wrong") {
  return POST(
    new NextRequest("http://localhost/api/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": ip },
      body: new URLSearchParams({ email, password }),
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
