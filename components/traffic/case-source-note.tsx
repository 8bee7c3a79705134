import Link from "next/link";
import type { CaseSource } from "@/lib/test-cases/schemas";
import { formatDateTime } from "@/components/runs/format";

/** On a drafted case: where it came from, linked while that conversation or case result is retained. */
export function CaseSourceNote({ workspaceId, source, retained }: { workspaceId: string; source: CaseSource; retained: boolean }) {
  const href =
    source.type === "conversation"
      ? `/w/${workspaceId}/traffic/${source.conversation_id}`
      : `/w/${workspaceId}/runs/${source.run_id}/cases/${source.case_result_id}`;
  const what =
    source.type === "conversation"
      ? `a conversation${source.service ? ` of ${source.service}` : ""} from ${formatDateTime(source.time)}`
      : `a case result from ${formatDateTime(source.time)}`;
  return (
    <p className="mb-4 text-sm text-slate-600" data-testid="case-source">
      Made from{" "}
      {retained ? (
        <Link href={href} className="text-indigo-700 underline">
          {what}
        </Link>
      ) : (
        <>
          {what} <span className="text-slate-500">(no longer retained)</span>
        </>
      )}
      .
    </p>
  );
}
