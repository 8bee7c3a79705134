import { Button } from "@/components/ui/button";

/** A live list's failed read, in place of its rows' status line: what could not be loaded, why, and a retry. */
export function LoadError({ what, error, onRetry }: { what: string; error: Error; onRetry: () => void }) {
  return (
    <div
      role="status"
      className="mb-3 flex items-center justify-between rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700"
    >
      <span>
        Could not load {what}: {error.message}
      </span>
      <Button size="sm" variant="secondary" onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}
