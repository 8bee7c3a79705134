/**
 * Cross-site request refusal for the session routes (lib/api/handler.ts `withSession`): the
 * browser sends the session cookie with any request to this app, also one a page of another site
 * (or another port of the same host) starts with a form or `fetch`, so a request that changes
 * something must show it comes from this app's own pages. The rule is the one Next.js applies to
 * server actions:
 * - `Origin` present: its host must be the request's `Host` or `X-Forwarded-Host` (behind a
 *   reverse proxy). `Origin: null` (sandboxed frames, opaque redirects) is refused.
 * - no `Origin`: `Sec-Fetch-Site` must be `same-origin` or `none` (typed or bookmarked).
 * - neither header: allowed. Every current browser sends one of them with a POST; what sends
 *   neither is a script with its own cookie, not a page riding on the user's.
 * ASSAY_TRUST_PROXY does not change this: a page of another site cannot set `X-Forwarded-Host`
 * (not a header a cross-site request may carry without the server's consent).
 */

export const CROSS_SITE_REFUSED = "Cross-site request refused: this route only answers Assay's own pages";

export function isSameOriginRequest(headers: Headers): boolean {
  const origin = headers.get("origin");
  if (origin !== null) {
    const originHost = hostOf(origin);
    if (!originHost) return false;
    return [headers.get("host"), firstEntry(headers.get("x-forwarded-host"))].some((h) => h !== null && h.toLowerCase() === originHost);
  }
  const site = headers.get("sec-fetch-site");
  return site === null || site === "same-origin" || site === "none";
}

/** `host[:port]` of an Origin header, lower-case; null for `null` and anything unparsable. */
function hostOf(origin: string): string | null {
  if (origin === "null") return null;
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return null;
  }
}

function firstEntry(value: string | null): string | null {
  const first = value?.split(",")[0]?.trim();
  return first ? first : null;
}
