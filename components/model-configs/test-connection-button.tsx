"use client";
import { useState } from "react";
import { testModelConfigAction } from "@/lib/model-configs/actions";
import type { ConnectionResult } from "@/lib/model-configs/dto";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";

/** Calls the saved endpoint and shows the outcome next to the button. */
export function TestConnectionButton({
  workspaceId,
  configId,
  size = "md",
}: {
  workspaceId: string;
  configId: string;
  size?: "sm" | "md";
}) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ConnectionResult | { ok: false; message: string } | null>(null);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button
        variant="secondary"
        size={size}
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setResult(null);
          try {
            const res = await testModelConfigAction(workspaceId, { id: configId });
            setResult(res.ok ? res.data : { ok: false, message: res.error });
          } catch {
            setResult({ ok: false, message: "The test could not be started. Reload the page and try again." });
          } finally {
            setBusy(false);
          }
        }}
      >
        {busy ? "Testing…" : "Test connection"}
      </Button>
      {result && (
        <p aria-live="polite" data-testid="connection-result" className={cn("text-sm", result.ok ? "text-green-700" : "text-red-700")}>
          {result.ok ? "✓ " : "✗ "}
          {result.message}
        </p>
      )}
    </div>
  );
}
