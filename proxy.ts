/**
 * Next 16's proxy (formerly middleware): gives every page request a fresh CSP nonce. The policy
 * goes on the request too, where Next reads the nonce and puts it on its own scripts (pages are
 * rendered per request: they read the session), and on the response for the browser. The static
 * headers (frame, sniffing, referrer) come from next.config.ts for every response. Not an auth
 * guard: pages, actions and route handlers check the session themselves.
 */
import { NextResponse, type NextRequest } from "next/server";
import { env } from "@/lib/env";
import { contentSecurityPolicy, newNonce } from "@/lib/security-headers";

export function proxy(request: NextRequest) {
  const nonce = newNonce();
  const policy = contentSecurityPolicy(nonce, { dev: env.NODE_ENV === "development" });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", policy);
  return response;
}

export const config = {
  // Pages only: API responses get a fixed no-content policy from next.config.ts, and static
  // files carry no inline script. Prefetches reuse the page's policy.
  matcher: [
    {
      source: "/((?!api/|_next/static|_next/image|favicon.ico).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
