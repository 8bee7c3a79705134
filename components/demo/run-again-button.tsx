"use client";
import { useRouter } from "next/navigation";
import { startRunAction } from "@/lib/runs/actions";
import { ActionButton } from "@/components/ui/action-button";

/** Starts a run of the suite with the default options and opens its live page. */
export function RunAgainButton({ workspaceId, suiteId }: { workspaceId: string; suiteId: string }) {
  const router = useRouter();
  return (
    <ActionButton
      pendingLabel="Starting…"
      action={() => startRunAction(workspaceId, { suite_id: suiteId })}
      refresh="never"
      onSuccess={(run) => router.push(`/w/${workspaceId}/runs/${run.id}`)}
    >
      Run the suite again
    </ActionButton>
  );
}
