"use client";
import { useState, useTransition } from "react";
import { exportTestCasesAction } from "@/lib/test-cases/actions";

export type ExportFormat = "yaml" | "json" | "promptfoo" | "deepeval" | "langfuse";

/**
 * The suite's cases as a download: YAML or JSON (the test case format), or another tool's format;
 * with the last attempt's error, and a note naming the cases that format could not hold whole.
 */
export function useExportCases(workspaceId: string, suiteId: string) {
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const download = (format: ExportFormat) =>
    startTransition(async () => {
      setError(null);
      setNote(null);
      const r = await exportTestCasesAction(workspaceId, { suite_id: suiteId, format });
      if (!r.ok) {
        setError(r.error);
        return;
      }
      const left = r.data.not_exported;
      if (left.length > 0) {
        const named = left.slice(0, 3).map((c) => `"${c.name}" (${c.reason})`);
        setNote(
          `${left.length} case${left.length === 1 ? "" : "s"} could not be exported whole: ${named.join("; ")}${left.length > 3 ? "; …" : ""}`,
        );
      }
      const url = URL.createObjectURL(new Blob([r.data.body], { type: r.data.content_type }));
      const a = document.createElement("a");
      a.href = url;
      a.download = r.data.filename;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    });
  return { download, pending, error, note };
}
