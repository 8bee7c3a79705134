"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { previewCleanupAction, runCleanupAction } from "@/lib/retention/actions";
import type { CleanupResult } from "@/lib/retention/dto";
import { Button } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { FormError } from "@/components/ui/field";
import { formatBytes } from "./format";

const summary = (r: CleanupResult) =>
  `${r.runs_deleted} runs, ${r.results_deleted} results, ${r.llm_calls_deleted} LLM calls, ≈ ${formatBytes(r.bytes_freed_estimate)}`;

/** "Preview cleanup" (a dry run) and "Run cleanup now" (after a confirmation). */
export function CleanupPanel({ workspaceId }: { workspaceId: string }) {
  const router = useRouter();
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function act(kind: "preview" | "run") {
    setError(null);
    setMessage(null);
    setBusy(true);
    try {
      const result = kind === "preview" ? await previewCleanupAction(workspaceId, {}) : await runCleanupAction(workspaceId, {});
      if (!result.ok) return setError(result.error);
      setMessage(
        kind === "preview" ? `A cleanup now would delete ${summary(result.data)}.` : `Cleanup done: deleted ${summary(result.data)}.`,
      );
      router.refresh();
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-3">
      <FormError message={error} />
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" disabled={busy} onClick={() => void act("preview")}>
          Preview cleanup
        </Button>
        <ConfirmButton
          variant="danger"
          disabled={busy}
          title="Run the cleanup now?"
          description="Runs past their retention are deleted with their results and LLM call logs. This cannot be undone."
          confirmLabel="Delete old runs"
          onConfirm={() => act("run")}
        >
          Run cleanup now
        </ConfirmButton>
      </div>
      {message && (
        <p role="status" className="text-sm text-slate-800">
          {message}
        </p>
      )}
    </div>
  );
}
