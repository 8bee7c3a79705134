"use client";
import { useEffect, useState, useTransition } from "react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { restoreTestCaseAction } from "@/lib/test-cases/actions";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { CREATED_PARAM } from "./created-case";

const MESSAGES: Record<string, string> = {
  created: "Test case created.",
  saved: "Test case saved.",
  duplicated: "Test case duplicated as a draft. You are editing the copy.",
};

/**
 * One-off confirmations after a redirect (?notice=…), and "Undo" after a delete (?deleted=<id>).
 * The parameters are dropped from the address bar at once, so the URL stays shareable; the
 * message stays until the next navigation.
 */
export function CaseNotice({
  workspaceId,
  base,
  notice,
  deletedId,
  canEdit,
  className,
}: {
  workspaceId: string;
  base: string;
  notice?: string;
  deletedId?: string;
  canEdit: boolean;
  className?: string;
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [shown] = useState(() => ({ text: notice ? MESSAGES[notice] : undefined, deletedId }));

  // Drop the one-off parameters through the router, not window.history: the router keeps its own
  // copy of the URL and writes it back to the address bar on its next update, so a history-only
  // edit could be undone (seen under load). The notice stays: `shown` keeps it for this mount.
  const searchParams = useSearchParams();
  const pathname = usePathname();
  useEffect(() => {
    if (!searchParams.has("notice") && !searchParams.has("deleted") && !searchParams.has(CREATED_PARAM)) return;
    const rest = new URLSearchParams(searchParams);
    rest.delete("notice");
    rest.delete("deleted");
    rest.delete(CREATED_PARAM);
    const query = rest.toString();
    router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
  }, [searchParams, pathname, router]);

  if (!shown.text && !shown.deletedId) return null;
  return (
    <div
      role="status"
      className={cn(
        "flex flex-wrap items-center gap-3 rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-800",
        className,
      )}
    >
      <span>{shown.deletedId ? "Test case deleted." : shown.text}</span>
      {shown.deletedId && canEdit && (
        <Button
          size="sm"
          variant="secondary"
          disabled={pending}
          onClick={() =>
            startTransition(async () => {
              const r = await restoreTestCaseAction(workspaceId, { id: shown.deletedId! });
              if (!r.ok) setError(r.error);
              else router.push(`${base}/cases/${shown.deletedId}`);
            })
          }
        >
          Undo
        </Button>
      )}
      {error && <span className="text-red-700">{error}</span>}
    </div>
  );
}
