import { describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { API_CONTENT_SECURITY_POLICY, STATIC_SECURITY_HEADERS, contentSecurityPolicy, newNonce } from "@/lib/security-headers";
import { proxy } from "@/proxy";

describe("security headers", () => {
  it("builds a nonce policy for pages with the required directives", () => {
    const csp = contentSecurityPolicy("abc123");
    expect(csp).toContain("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    expect(csp).not.toContain("unsafe-eval");
    for (const d of [
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "connect-src 'self'",
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "object-src 'none'",
    ]) {
      expect(csp).toContain(d);
    }
    expect(contentSecurityPolicy("n", { dev: true })).toContain("'unsafe-eval'");
    expect(API_CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
  });

  it("makes a fresh 128-bit nonce each time", () => {
    const a = newNonce();
    expect(Buffer.from(a, "base64")).toHaveLength(16);
    expect(newNonce()).not.toBe(a);
  });

  it("lists the static headers", () => {
    const byKey = Object.fromEntries(STATIC_SECURITY_HEADERS.map((h) => [h.key, h.value]));
    expect(byKey).toMatchObject({
      "X-Frame-Options": "DENY",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "strict-origin-when-cross-origin",
    });
  });

  it("the proxy puts the same nonce policy on the request (for Next's scripts) and on the response", () => {
    const res = proxy(new NextRequest("http://localhost/sign-in"));
    const csp = res.headers.get("content-security-policy")!;
    const nonce = /'nonce-([^']+)'/.exec(csp)![1];
    expect(nonce).toBeTruthy();
    // NextResponse.next({ request: { headers } }) forwards overridden request headers this way.
    expect(res.headers.get("x-middleware-request-x-nonce")).toBe(nonce);
    expect(res.headers.get("x-middleware-request-content-security-policy")).toBe(csp);
    const other = proxy(new NextRequest("http://localhost/sign-in")).headers.get("content-security-policy");
    expect(other).not.toBe(csp);
  });
});
