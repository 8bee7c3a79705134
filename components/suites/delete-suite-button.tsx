"use client";
import { ActionButton } from "@/components/ui/action-button";
import { deleteSuiteAction } from "@/lib/suites/actions";

/** Soft-deletes the suite after confirmation, then returns to the suite list. */
export function DeleteSuiteButton({ workspaceId, suiteId, suiteName }: { workspaceId: string; suiteId: string; suiteName: string }) {
  return (
    <ActionButton
      variant="danger"
      confirm={{
        title: `Delete suite "${suiteName}"?`,
        description: "The suite moves to the trash with its test cases. You can restore it from there.",
        confirmLabel: "Delete",
      }}
      action={() => deleteSuiteAction(workspaceId, { id: suiteId })}
      redirectTo={`/w/${workspaceId}/suites`}
    >
      Delete suite
    </ActionButton>
  );
}
