/**
 * Where to go after signing in. `callbackUrl` (or any `next`/redirect parameter) comes from the
 * address bar, so it is accepted only when it resolves to this app's own origin; anything else
 * (`//evil.example`, `/\evil.example`, `https://evil.example`, `javascript:…`) falls back to `/`.
 * Returns a path (with query and hash), never an absolute URL.
 */
export function safeCallbackPath(value: string | null | undefined, origin: string): string {
  if (!value) return "/";
  let base: URL;
  let target: URL;
  try {
    base = new URL(origin);
    target = new URL(value, base);
  } catch {
    return "/";
  }
  if (target.origin !== base.origin || !target.pathname.startsWith("/")) return "/";
  const path = `${target.pathname}${target.search}${target.hash}`;
  // A path that still begins with two slashes would be read as another host by the browser.
  return path.startsWith("//") ? "/" : path;
}
