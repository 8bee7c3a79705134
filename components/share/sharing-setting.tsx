"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { FormError } from "@/components/ui/field";
import { setSharingEnabledAction } from "@/lib/share-links/actions";

/**
 * The workspace's sharing switch (admins): off by default. On, editors can make read-only links
 * to run reports and comparisons; off, every existing link stops working at once.
 */
export function SharingSetting({ workspaceId, enabled, canEdit }: { workspaceId: string; enabled: boolean; canEdit: boolean }) {
  const router = useRouter();
  const [on, setOn] = useState(enabled);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="space-y-2">
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          className="mt-0.5 size-4"
          checked={on}
          disabled={!canEdit || pending}
          onChange={async (e) => {
            // The box follows the click at once and goes back if the server refuses.
            const next = e.target.checked;
            setOn(next);
            setPending(true);
            setError(null);
            const result = await setSharingEnabledAction(workspaceId, { enabled: next });
            setPending(false);
            if (result.ok) {
              setOn(result.data.sharingEnabled);
              router.refresh();
            } else {
              setOn(!next);
              setError(result.error);
            }
          }}
        />
        <span>
          <span className="font-medium">Allow read-only share links</span>
          <span className="block text-slate-600">
            Editors can then share a run report or a comparison with people who have no account: the link shows verdicts, failure reasons,
            responses and transcripts (not the agent&apos;s system prompt, settings, keys or members). Links expire after at most 90 days
            and can be revoked; turning this off stops every link at once.
          </span>
        </span>
      </label>
      {!canEdit && <p className="text-xs text-slate-500">Only admins can change this.</p>}
      <FormError message={error} />
    </div>
  );
}
