"use client";
import { useState, useTransition } from "react";
import { exportTestCasesAction } from "@/lib/test-cases/actions";

/** The suite's cases as a YAML or JSON download (the test case format), with the last attempt's error. */
export function useExportCases(workspaceId: string, suiteId: string) {
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const download = (format: "yaml" | "json") =>
    startTransition(async () => {
      setError(null);
      const r = await exportTestCasesAction(workspaceId, { suite_id: suiteId, format });
      if (!r.ok) {
        setError(r.error);
        return;
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
  return { download, pending, error };
}
