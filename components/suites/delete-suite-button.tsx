"use client";
import { DeleteButton } from "@/components/ui/delete-button";
import { deleteSuiteAction } from "@/lib/suites/actions";

/** Soft-deletes the suite after confirmation, then returns to the suite list. */
export function DeleteSuiteButton({ workspaceId, suiteId, suiteName }: { workspaceId: string; suiteId: string; suiteName: string }) {
  return (
    <DeleteButton
      noun="suite"
      name={suiteName}
      description="The suite moves to the trash with its test cases. You can restore it from there."
      action={() => deleteSuiteAction(workspaceId, { id: suiteId })}
      redirectTo={`/w/${workspaceId}/suites`}
    />
  );
}
