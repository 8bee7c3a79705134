"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { deleteModelConfigAction } from "@/lib/model-configs/actions";
import { ConfirmButton } from "@/components/ui/confirm-button";

/**
 * Deletes after confirmation. When agents or suites use the configuration, the dialog says so
 * and confirming deletes anyway (force); otherwise a concurrent new use is refused by the server.
 */
export function DeleteModelConfigButton({
  workspaceId,
  config,
  usage,
  redirectTo,
}: {
  workspaceId: string;
  config: { id: string; name: string };
  usage: { agents: number; suites: number };
  redirectTo?: string;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const inUse = usage.agents + usage.suites > 0;
  const uses = [usage.agents ? `${usage.agents} agent${usage.agents === 1 ? "" : "s"}` : null, usage.suites ? `${usage.suites} suite${usage.suites === 1 ? "" : "s"}` : null]
    .filter(Boolean)
    .join(" and ");
  return (
    <span className="inline-flex flex-col items-end gap-1">
      <ConfirmButton
        variant="danger"
        size="sm"
        title={`Delete "${config.name}"?`}
        description={
          inUse
            ? `It is used by ${uses}. They will be left without a model configuration until you choose another one.`
            : "This cannot be undone."
        }
        confirmLabel={inUse ? "Delete anyway" : "Delete"}
        onConfirm={async () => {
          setError(null);
          const res = await deleteModelConfigAction(workspaceId, { id: config.id, force: inUse });
          if (!res.ok) {
            setError(res.error);
            return;
          }
          if (redirectTo) router.push(redirectTo);
          router.refresh();
        }}
      >
        Delete
      </ConfirmButton>
      {error && <span className="text-xs text-red-700">{error}</span>}
    </span>
  );
}
