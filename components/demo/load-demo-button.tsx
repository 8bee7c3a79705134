"use client";
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { loadDemoAction } from "@/lib/demo/actions";
import { Button } from "@/components/ui/button";

/** Creates the demo agent, suite and cases on the built-in demo model, then opens the suite. */
export function LoadDemoButton({ workspaceId }: { workspaceId: string }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="flex flex-col items-center gap-2">
      <Button
        variant="secondary"
        disabled={pending}
        onClick={() =>
          start(async () => {
            setError(null);
            const result = await loadDemoAction(workspaceId, {});
            if (!result.ok) setError(result.error);
            else router.push(`/w/${workspaceId}/suites/${result.data.suiteId}`);
          })
        }
      >
        {pending ? "Loading the demo…" : "Load the demo suite"}
      </Button>
      <p className="max-w-sm text-xs text-slate-500">
        A sample agent with 10 cases on the built-in demo model (canned answers, no API key needed) — run it to see how Assay works.
      </p>
      {error && <p className="text-sm text-red-600">{error}</p>}
    </div>
  );
}
