"use client";
import { useEffect, useState } from "react";

/** The current time, ticking every `intervalMs` while `live`; null until mounted (no hydration mismatch). */
export function useNow(live: boolean, intervalMs = 1_000): number | null {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    // Read the clock only after mount: the server render and the first client render both show
    // null, so hydration matches; the effect then fills in the real time.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setNow(Date.now());
    if (!live) return;
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [live, intervalMs]);
  return now;
}
