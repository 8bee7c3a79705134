"use client";
import { useRouter } from "next/navigation";
import { loadDemoAction } from "@/lib/demo/actions";
import { ActionButton } from "@/components/ui/action-button";

/**
 * Creates the demo agent, suite and cases on the built-in demo model and starts its first run,
 * then opens that run live (or the suite, when the demo was already loaded).
 */
export function LoadDemoButton({ workspaceId }: { workspaceId: string }) {
  const router = useRouter();
  return (
    <div className="flex flex-col items-center gap-2">
      <ActionButton
        variant="secondary"
        align="center"
        pendingLabel="Loading the demo…"
        action={() => loadDemoAction(workspaceId, {})}
        refresh="never"
        onSuccess={(data) => router.push(data.runId ? `/w/${workspaceId}/runs/${data.runId}` : `/w/${workspaceId}/suites/${data.suiteId}`)}
      >
        Load the demo suite
      </ActionButton>
      <p className="max-w-sm text-xs text-slate-500">
        A sample support agent with 10 cases on the built-in demo model (rule-based answers, no API key needed). Loading it starts a first
        run you can watch.
      </p>
    </div>
  );
}
