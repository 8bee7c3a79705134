"use client";
import { useEffect, useState } from "react";

/** The current time, ticking every `intervalMs` while `live`; null until mounted (no hydration mismatch). */
export function useNow(live: boolean, intervalMs = 1_000): number | null {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    if (!live) return;
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [live, intervalMs]);
  return now;
}
