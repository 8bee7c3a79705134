"use client";
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { deleteTestCaseAction, duplicateTestCaseAction, setTestCaseStatusAction } from "@/lib/test-cases/actions";
import type { TestCaseStatus } from "@/lib/test-cases/schemas";
import { Button } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { StatusBadge } from "./status-badge";
import type { TestCaseDto } from "@/lib/test-cases/dto";
import type { ActionResult } from "@/lib/actions/safe-action";

const TRANSITIONS: Record<TestCaseStatus, { label: string; to: TestCaseStatus | "restore"; title?: string }[]> = {
  draft: [
    { label: "Activate", to: "active" },
    { label: "Archive", to: "archived" },
  ],
  active: [
    { label: "Back to draft", to: "draft" },
    { label: "Archive", to: "archived" },
  ],
  archived: [{ label: "Restore", to: "restore", title: "Restores the case as active when it can run, else as a draft" }],
};

/** One-click status changes, duplicate and delete for the edit page. */
export function CaseStatusBar({
  workspaceId,
  suiteId,
  testCase,
  dirty,
}: {
  workspaceId: string;
  suiteId: string;
  testCase: TestCaseDto;
  dirty: boolean;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const suiteUrl = `/w/${workspaceId}/suites/${suiteId}`;
  const archived = testCase.status === "archived";

  const run = <T,>(fn: () => Promise<ActionResult<T>>, after: (data: T) => void) =>
    startTransition(async () => {
      setError(null);
      const result = await fn();
      if (!result.ok) setError(result.error);
      else after(result.data);
    });

  return (
    <div className="mb-5 space-y-2">
      <div className="flex flex-wrap items-center gap-2 rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm">
        <span className="text-sm text-slate-600">Status</span>
        <StatusBadge status={testCase.status} />
        <div className="ml-2 flex flex-wrap gap-2" role="group" aria-label="Change status">
          {TRANSITIONS[testCase.status].map((t) => (
            <Button
              key={t.label}
              size="sm"
              variant={t.to === "active" || t.to === "restore" ? "primary" : "secondary"}
              title={t.title}
              disabled={pending || dirty}
              onClick={() =>
                run(
                  () => setTestCaseStatusAction(workspaceId, { id: testCase.id, status: t.to }),
                  () => router.refresh(),
                )
              }
            >
              {t.label}
            </Button>
          ))}
        </div>
        {!archived && (
          <div className="ml-auto flex gap-2">
            <Button
              size="sm"
              variant="secondary"
              disabled={pending}
              onClick={() =>
                run(
                  () => duplicateTestCaseAction(workspaceId, { id: testCase.id }),
                  (copy) => router.push(`${suiteUrl}/cases/${copy.id}?notice=duplicated`),
                )
              }
            >
              Duplicate
            </Button>
            <ConfirmButton
              size="sm"
              variant="danger"
              disabled={pending}
              title="Delete this test case?"
              description={`"${testCase.name}" will be removed from the suite. You can undo this right after.`}
              confirmLabel="Delete"
              onConfirm={async () => {
                const result = await deleteTestCaseAction(workspaceId, { id: testCase.id });
                if (!result.ok) setError(result.error);
                else router.push(`${suiteUrl}?deleted=${testCase.id}`);
              }}
            >
              Delete
            </ConfirmButton>
          </div>
        )}
      </div>
      {dirty && <p className="text-xs text-slate-500">You have unsaved changes: save or discard them before changing the status.</p>}
      {error && (
        <p role="status" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
