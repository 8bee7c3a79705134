"use client";
import { useEffect, useRef } from "react";
import { useQueryClient, type QueryKey } from "@tanstack/react-query";
import { cn } from "./cn";

/**
 * The parts every live page shares (a run, a comparison, a matrix, a case result): they poll
 * their query while the thing runs, so the header, the "paused" notice and the last refresh on
 * finishing are the same wherever something is watched.
 */

/** The title line (the name and its status badge), the lines under it, and the cancel action while it runs. */
export function LiveHeader({
  title,
  action,
  className,
  children,
}: {
  title: React.ReactNode;
  /** Shown on the right, kept from shrinking (the cancel button). */
  action?: React.ReactNode;
  /** Classes of the text column. */
  className?: string;
  children?: React.ReactNode;
}) {
  return (
    <div className="flex items-start justify-between gap-4">
      <div className={cn("min-w-0 flex-1", className)}>
        <h1 className="flex flex-wrap items-center gap-3 text-xl font-semibold text-slate-900">{title}</h1>
        {children}
      </div>
      {action && <div className="shrink-0">{action}</div>}
    </div>
  );
}

/** Says that polling failed (the page keeps what it last showed) while the query retries. */
export function LiveUpdatesPaused({ error, retrying = true }: { error: Error | null; retrying?: boolean }) {
  if (!error) return null;
  return (
    <p role="status" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-800">
      Live updates paused: {error.message}
      {retrying && ". Retrying…"}
    </p>
  );
}

/** Why the watched thing failed (`what`: "run", "comparison"), read out as a status; nothing while it has not. */
export function FailureNotice({ what, message }: { what: string; message: string | null | undefined }) {
  if (!message) return null;
  return (
    <div role="status" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      <span className="font-medium">The {what} failed: </span>
      {message}
    </div>
  );
}

/**
 * When the watched thing stops being active, invalidates everything under `queryKey` once more:
 * the parts that polled on their own (last rows, charts, summary) then show their final state.
 */
export function useRefreshWhenFinished(active: boolean, queryKey: QueryKey) {
  const queryClient = useQueryClient();
  const wasActive = useRef(active);
  const key = JSON.stringify(queryKey);
  useEffect(() => {
    if (wasActive.current && !active) void queryClient.invalidateQueries({ queryKey: JSON.parse(key) as QueryKey });
    wasActive.current = active;
  }, [active, queryClient, key]);
}
