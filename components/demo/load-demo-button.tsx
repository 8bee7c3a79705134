"use client";
import { useRouter } from "next/navigation";
import { loadDemoAction } from "@/lib/demo/actions";
import { ActionButton } from "@/components/ui/action-button";

/** Creates the demo agent, suite and cases on the built-in demo model, then opens the suite. */
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
        onSuccess={(data) => router.push(`/w/${workspaceId}/suites/${data.suiteId}`)}
      >
        Load the demo suite
      </ActionButton>
      <p className="max-w-sm text-xs text-slate-500">
        A sample agent with 10 cases on the built-in demo model (canned answers, no API key needed) — run it to see how Assay works.
      </p>
    </div>
  );
}
