"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { restoreSuiteAction } from "@/lib/suites/actions";

/** Restores a suite from the trash; a name conflict is shown next to the button. */
export function RestoreSuiteButton({ workspaceId, suiteId, suiteName }: { workspaceId: string; suiteId: string; suiteName: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="flex flex-col items-end gap-1">
      <Button
        size="sm"
        variant="secondary"
        disabled={busy}
        aria-label={`Restore ${suiteName}`}
        onClick={async () => {
          setBusy(true);
          setError(null);
          try {
            const result = await restoreSuiteAction(workspaceId, { id: suiteId });
            if (result.ok) router.refresh();
            else setError(result.error);
          } finally {
            setBusy(false);
          }
        }}
      >
        Restore
      </Button>
      {error && (
        <p role="status" className="max-w-sm text-right text-xs text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
