"use client";
import { useEffect } from "react";
import { usePathname } from "next/navigation";

/**
 * Sessions end after ASSAY_SESSION_IDLE_HOURS without activity. Server components cannot renew
 * the session cookie, so while the user moves around the app this asks Auth.js's session
 * endpoint (which re-issues the cookie for another idle period) at most every 5 minutes.
 * Navigation is the activity: a tab left open does not keep a session alive.
 */
const RENEW_EVERY_MS = 5 * 60 * 1000;
let lastRenewal = 0;

export function SessionKeepalive() {
  const pathname = usePathname();
  useEffect(() => {
    const now = Date.now();
    if (now - lastRenewal < RENEW_EVERY_MS) return;
    lastRenewal = now;
    fetch("/api/auth/session", { credentials: "same-origin", cache: "no-store" }).catch(() => undefined);
  }, [pathname]);
  return null;
}
