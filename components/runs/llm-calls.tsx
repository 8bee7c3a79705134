import type { CaseResultDetail } from "@/lib/runs/dto";
import { Badge } from "@/components/ui/card";
import { formatDuration } from "./format";
import { Disclosure, JsonBlock } from "./json-block";

type LlmCall = CaseResultDetail["llm_calls"][number];

/** The assistant message content of a raw chat completion, when the response is one. */
function answerOf(raw: string | null): string | null {
  if (!raw) return null;
  try {
    const body = JSON.parse(raw) as { choices?: { message?: { content?: unknown } }[] };
    const content = body.choices?.[0]?.message?.content;
    return typeof content === "string" && content !== "" ? content : null;
  } catch {
    return null;
  }
}

/** Every model call of the case (agent, simulator, judge, metrics) with its exact request and raw response. */
export function LlmCalls({ calls }: { calls: LlmCall[] }) {
  if (calls.length === 0) return <p className="text-sm text-slate-500">No model calls were recorded for this case.</p>;
  return (
    <ol className="space-y-2" aria-label="LLM calls">
      {calls.map((c, i) => (
        <li key={c.id}>
          <Disclosure
            summary={
              <span className="inline-flex flex-wrap items-center gap-2">
                <span className="font-medium">
                  {i + 1}. {c.purpose}
                </span>
                {c.model && <span className="font-mono text-xs text-slate-600">{c.model}</span>}
                <span className="text-xs text-slate-500">
                  {c.attempts} attempt{c.attempts === 1 ? "" : "s"} · {formatDuration(c.latency_ms)}
                </span>
                {c.cached && <Badge tone="blue">cached</Badge>}
                {c.error && <Badge tone="red">error</Badge>}
              </span>
            }
          >
            {c.error && <p className="text-sm text-red-700">Error: {c.error}</p>}
            <p className="text-xs font-medium text-slate-500">Request</p>
            <JsonBlock value={c.request} label={`Request of call ${i + 1}`} />
            {answerOf(c.response) !== null && (
              <>
                <p className="text-xs font-medium text-slate-500">Answer</p>
                <JsonBlock value={answerOf(c.response)} label={`Answer of call ${i + 1}`} />
              </>
            )}
            <p className="text-xs font-medium text-slate-500">Raw response</p>
            {c.response === null ? (
              <p className="text-xs text-slate-500">No response.</p>
            ) : (
              <JsonBlock value={c.response} label={`Response of call ${i + 1}`} />
            )}
          </Disclosure>
        </li>
      ))}
    </ol>
  );
}
