"use client";
import { useEffect, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { previewCleanupAction, runCleanupAction } from "@/lib/retention/actions";
import type { CleanupResult } from "@/lib/retention/dto";
import { Button } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { FormError } from "@/components/ui/field";
import { formatBytes } from "./format";

const summary = (r: CleanupResult) =>
  `${r.runs_deleted} runs, ${r.results_deleted} results, ${r.llm_calls_deleted} LLM calls, ${r.conversations_deleted} traffic conversations, ≈ ${formatBytes(r.bytes_freed_estimate)}`;

type Large = { runsToDelete: number; finishedRuns: number };

/**
 * "Preview cleanup" (a dry run) and "Run cleanup now" (after a confirmation). A cleanup that would
 * delete more than half of all finished runs comes back from the server unrun, and is asked about
 * again with its numbers before it goes ahead.
 */
export function CleanupPanel({ workspaceId }: { workspaceId: string }) {
  const router = useRouter();
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [large, setLarge] = useState<Large | null>(null);

  async function preview() {
    await act(async () => {
      const result = await previewCleanupAction(workspaceId, {});
      if (!result.ok) return setError(result.error);
      setMessage(`A cleanup now would delete ${summary(result.data)}.`);
      router.refresh();
    });
  }

  async function run(confirm: boolean) {
    await act(async () => {
      const result = await runCleanupAction(workspaceId, { confirm });
      if (!result.ok) return setError(result.error);
      if ("confirm" in result.data) return setLarge(result.data.confirm);
      setMessage(`Cleanup done: deleted ${summary(result.data.done)}.`);
      router.refresh();
    });
  }

  async function act(fn: () => Promise<void>) {
    setError(null);
    setMessage(null);
    setBusy(true);
    try {
      await fn();
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-3">
      <FormError message={error} />
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" disabled={busy} onClick={() => void preview()}>
          Preview cleanup
        </Button>
        <ConfirmButton
          variant="danger"
          disabled={busy}
          title="Run the cleanup now?"
          description="Runs past their retention are deleted with their results and LLM call logs. This cannot be undone."
          confirmLabel="Delete old runs"
          onConfirm={() => run(false)}
        >
          Run cleanup now
        </ConfirmButton>
      </div>
      {message && (
        <p role="status" className="text-sm text-slate-800">
          {message}
        </p>
      )}
      {large && <LargeCleanupDialog large={large} busy={busy} onCancel={() => setLarge(null)} onConfirm={() => run(true)} />}
    </div>
  );
}

/** The second question, with the numbers: the server refused to delete this much unasked. */
function LargeCleanupDialog({
  large,
  busy,
  onCancel,
  onConfirm,
}: {
  large: Large;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => Promise<void>;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (!ref.current?.open) ref.current?.showModal();
  }, []);
  const title = "Delete more than half of all runs?";
  return (
    <dialog
      ref={ref}
      onClose={onCancel}
      className="m-auto max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-md overflow-y-auto rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40"
      aria-label={title}
    >
      <div className="space-y-3 p-5">
        <h2 className="text-base font-semibold">{title}</h2>
        <p className="text-sm text-slate-600">
          This cleanup would delete {large.runsToDelete} of the {large.finishedRuns} finished runs of every workspace, with their results
          and LLM call logs. If that is more than you expected, cancel and check the retention settings first. This cannot be undone.
        </p>
        <div className="flex justify-end gap-2 pt-2">
          <Button variant="secondary" onClick={() => ref.current?.close()} disabled={busy}>
            Cancel
          </Button>
          <Button
            variant="danger"
            disabled={busy}
            onClick={async () => {
              await onConfirm();
              ref.current?.close();
            }}
          >
            {`Delete ${large.runsToDelete} runs`}
          </Button>
        </div>
      </div>
    </dialog>
  );
}
