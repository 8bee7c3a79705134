"use client";
import { Button } from "./button";

/** The props Next.js passes to an `error.tsx` boundary. */
export type RouteErrorProps = { error: Error & { digest?: string }; reset: () => void };

/**
 * What a route's `error.tsx` shows when its page threw: which thing could not be loaded, a
 * generic reason (the real error stays in the server log) and a retry. Each boundary only names
 * its thing, so every page fails the same way.
 */
export function RouteError({ title, reset }: { title: string; reset: () => void }) {
  return (
    <div className="rounded-lg border border-red-200 bg-red-50 p-6 text-sm text-red-800">
      <p className="font-medium">{title}</p>
      <p className="mt-1">Something went wrong on our side. Try again in a moment.</p>
      <Button className="mt-4" variant="secondary" onClick={() => reset()}>
        Try again
      </Button>
    </div>
  );
}
