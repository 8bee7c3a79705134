import Link from "next/link";
import type { CaseSource } from "@/lib/test-cases/schemas";
import { formatDateTime } from "@/components/runs/format";

const TOOL_NAMES = {
  promptfoo: "promptfoo",
  langfuse: "Langfuse",
  deepeval: "DeepEval",
  "openai-jsonl": "OpenAI chat JSONL",
  inspect: "Inspect AI",
};

/**
 * On a drafted or imported case: where it came from. A conversation or case result is linked
 * while it is retained; an imported item names its tool and its id there (and its trace).
 */
export function CaseSourceNote({ workspaceId, source, retained }: { workspaceId: string; source: CaseSource; retained: boolean }) {
  if (source.type === "import") {
    return (
      <p className="mb-4 text-sm text-slate-600" data-testid="case-source">
        Imported from {TOOL_NAMES[source.format]}
        {source.item_id && (
          <>
            {" "}
            (item <code className="text-xs">{source.item_id}</code>
            {source.trace_id && (
              <>
                , trace <code className="text-xs">{source.trace_id}</code>
              </>
            )}
            )
          </>
        )}
        .
      </p>
    );
  }
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
