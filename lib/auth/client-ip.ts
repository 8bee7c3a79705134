import "server-only";
import { headers } from "next/headers";
import { env } from "@/lib/env";

/**
 * The client address for rate limits. Next.js puts the socket address into X-Forwarded-For when
 * the request has none; behind a reverse proxy that address is the proxy's, so with
 * ASSAY_TRUST_PROXY=true the first X-Forwarded-For entry (which the proxy must set, not append
 * to) is the client. Without it the last entry is used: on a directly exposed server a client
 * that sends its own header picks its per-IP bucket, but the per-email limit still holds.
 */
export function clientIp(h: Headers, trustProxy: boolean = env.ASSAY_TRUST_PROXY): string | null {
  const entries = (h.get("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const raw = trustProxy ? entries[0] : entries[entries.length - 1];
  if (!raw) return null;
  return raw.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "").slice(0, 64);
}

/** In a server action or page: the caller's address, or null outside a request. */
export async function requestIp(): Promise<string | null> {
  try {
    return clientIp(await headers());
  } catch {
    return null;
  }
}

/** In a server action: this app's origin as the browser sees it (for same-origin checks). */
export async function requestOrigin(): Promise<string> {
  try {
    const h = await headers();
    const host = h.get("x-forwarded-host") ?? h.get("host") ?? "localhost";
    const proto = h.get("x-forwarded-proto") ?? "http";
    return `${proto.split(",")[0]!.trim()}://${host.split(",")[0]!.trim()}`;
  } catch {
    return "http://localhost";
  }
}
