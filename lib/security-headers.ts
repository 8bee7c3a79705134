/**
 * The app's security headers, in one place: the static ones that next.config.ts `headers()` puts
 * on every page and API response, and the per-request Content-Security-Policy that ../proxy.ts
 * builds with a fresh nonce for Next's scripts (so no inline script runs without it). Pure
 * functions without server-only imports: the proxy and next.config.ts import them, and
 * tests/security-headers.test.ts checks them.
 */

/** Sent on every response (pages, API, static files). */
export const STATIC_SECURITY_HEADERS: { key: string; value: string }[] = [
  { key: "X-Frame-Options", value: "DENY" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
];

/** The public share pages (/share/<token>): the token is in the address, so no referrer leaves them, and no search engine keeps them. */
export const SHARE_PAGE_HEADERS: { key: string; value: string }[] = [
  { key: "Referrer-Policy", value: "no-referrer" },
  { key: "X-Robots-Tag", value: "noindex, nofollow" },
];

/** API responses are JSON, files or text: nothing in them may load or run anything, nor be framed. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** A fresh, unguessable nonce per request (128 bits, base64). */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/**
 * The page policy. Scripts: only Next's own, carrying this request's nonce ('strict-dynamic'
 * lets them load their chunks). Styles allow inline because Tailwind and Recharts set style
 * attributes. In development React needs eval for its debugging stack traces.
 */
export function contentSecurityPolicy(nonce: string, opts: { dev?: boolean } = {}): string {
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", `'nonce-${nonce}'`, "'strict-dynamic'", ...(opts.dev ? ["'unsafe-eval'"] : [])],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:"],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "frame-ancestors": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "object-src": ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}

/**
 * The interactive API reference at /api/docs (a page outside proxy.ts's matcher, like every
 * /api route): its two scripts are files the app serves itself, so 'self' is all script-src
 * needs, without a nonce. The reference injects its own styles, reads the OpenAPI document and
 * lets a reader try an operation against this same origin; nothing else may load, and no
 * request may leave the origin.
 */
export const API_DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
].join("; ");
