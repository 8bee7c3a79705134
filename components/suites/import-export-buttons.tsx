"use client";
import { useState, useTransition } from "react";
import { exportTestCasesAction } from "@/lib/test-cases/actions";
import { Button } from "@/components/ui/button";

/** Export buttons: the suite's cases as a YAML or JSON download (the test case format). */
export function ExportButtons({ workspaceId, suiteId }: { workspaceId: string; suiteId: string }) {
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
  return (
    <>
      <div className="inline-flex" role="group" aria-label="Export">
        <Button variant="secondary" className="rounded-r-none" disabled={pending} onClick={() => download("yaml")}>
          Export YAML
        </Button>
        <Button variant="secondary" className="-ml-px rounded-l-none" disabled={pending} onClick={() => download("json")}>
          Export JSON
        </Button>
      </div>
      {error && (
        <p role="status" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </>
  );
}
