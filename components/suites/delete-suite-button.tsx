"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { deleteSuiteAction } from "@/lib/suites/actions";

/** Soft-deletes the suite after confirmation, then returns to the suite list. */
export function DeleteSuiteButton({ workspaceId, suiteId, suiteName }: { workspaceId: string; suiteId: string; suiteName: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="space-y-2">
      <ConfirmButton
        variant="danger"
        title={`Delete suite "${suiteName}"?`}
        description="The suite moves to the trash with its test cases. You can restore it from there."
        confirmLabel="Delete"
        onConfirm={async () => {
          setError(null);
          const result = await deleteSuiteAction(workspaceId, { id: suiteId });
          if (!result.ok) {
            setError(result.error);
            return;
          }
          router.push(`/w/${workspaceId}/suites`);
          router.refresh();
        }}
      >
        Delete suite
      </ConfirmButton>
      {error && (
        <p role="status" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
