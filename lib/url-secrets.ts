/**
 * URLs can carry credentials: userinfo (`https://user:pass@host`) and query keys (Azure
 * Functions' `?code=…`, signed URLs). Two rules use these helpers: URLs shown to members who
 * cannot manage the resource are masked, and stored secrets (API keys, HTTP headers) are
 * dropped when a URL moves to another origin, so a changed host never receives them. No
 * server-only imports: the forms use `sameOrigin` to warn before saving.
 */

export const MASK = "••••";

/** `scheme://host:port` (lower-case, default port omitted), or null when `url` does not parse. */
export function urlOrigin(url: string): string | null {
  try {
    const origin = new URL(url.trim()).origin;
    return origin === "null" ? null : origin;
  } catch {
    return null;
  }
}

/** Whether two URLs share scheme, host and port. An unparsable URL never matches. */
export function sameOrigin(a: string, b: string): boolean {
  const left = urlOrigin(a);
  return left !== null && left === urlOrigin(b);
}

/**
 * The URL with its userinfo, every query value and the fragment replaced by "••••"; query keys,
 * scheme, host and path stay readable. Text that is not a URL keeps only what precedes `?`/`#`.
 */
export function maskUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.replace(/[?#].*$/s, (rest) => (rest ? `${rest[0]}${MASK}` : ""));
  }
  const userinfo = parsed.username || parsed.password ? `${MASK}@` : "";
  const query = parsed.search
    ? `?${parsed.search
        .slice(1)
        .split("&")
        .map((pair) => `${pair.split("=")[0]}=${MASK}`)
        .join("&")}`
    : "";
  const hash = parsed.hash ? `#${MASK}` : "";
  return `${parsed.protocol}//${userinfo}${parsed.host}${parsed.pathname}${query}${hash}`;
}

/**
 * The URL without userinfo, query string and fragment (origin and path only), for records and
 * messages that anyone who sees the run may read; text that is not a URL is returned as it is.
 */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url;
  }
}

/** Whether `url` would be shown differently when masked (so it holds something to hide). */
export function hasUrlSecrets(url: string): boolean {
  return maskUrl(url) !== url;
}

/** A copy of a JSON snapshot (a run's agent or variant) with every `url`/`base_url` string masked. */
export function maskSnapshotUrls<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v: unknown) => maskSnapshotUrls(v)) as T;
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      (k === "url" || k === "base_url") && typeof v === "string" ? maskUrl(v) : maskSnapshotUrls(v),
    ]),
  ) as T;
}
