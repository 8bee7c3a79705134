"use client";
import { ActionButton } from "@/components/ui/action-button";
import { restoreSuiteAction } from "@/lib/suites/actions";

/** Restores a suite from the trash; a name conflict is shown next to the button. */
export function RestoreSuiteButton({ workspaceId, suiteId, suiteName }: { workspaceId: string; suiteId: string; suiteName: string }) {
  return (
    <ActionButton
      size="sm"
      variant="secondary"
      align="end"
      aria-label={`Restore ${suiteName}`}
      action={() => restoreSuiteAction(workspaceId, { id: suiteId })}
    >
      Restore
    </ActionButton>
  );
}
