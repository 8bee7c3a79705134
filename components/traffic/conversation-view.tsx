import Link from "next/link";
import type { ConversationDto } from "@/lib/traffic/dto";
import { Card, Section } from "@/components/ui/card";
import { Stat } from "@/components/ui/stat";
import { Transcript } from "@/components/runs/transcript";
import { JsonBlock } from "@/components/runs/json-block";
import { formatDateTime, formatDuration, formatNumber } from "@/components/runs/format";

/**
 * One conversation of real traffic, read like a case result: its figures, the transcript (turns,
 * tool calls and their results, the system prompt apart), the tool calls with durations, and the
 * spans that ended in error.
 */
export function ConversationView({ workspaceId, conversation: c }: { workspaceId: string; conversation: ConversationDto }) {
  return (
    <div className="space-y-4">
      <Card className="space-y-3 p-5">
        {c.has_error && (
          <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
            <p className="font-medium">Errors in this conversation</p>
            <ul className="mt-1 list-disc pl-5">
              {c.errors.map((e, i) => (
                <li key={i} className="whitespace-pre-wrap">
                  {e}
                </li>
              ))}
            </ul>
          </div>
        )}
        <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-4 lg:grid-cols-8">
          <Stat label="Service" value={c.service_name ?? "—"} />
          <Stat label="Model" value={c.model ?? "—"} />
          <Stat label="User turns" value={formatNumber(c.user_turns)} />
          <Stat label="Input tokens" value={formatNumber(c.input_tokens)} />
          <Stat label="Output tokens" value={formatNumber(c.output_tokens)} />
          <Stat label="Agent latency" value={formatDuration(c.latency_ms)} />
          <Stat label="Model calls" value={formatNumber(c.llm_calls)} />
          <Stat label="Started" value={formatDateTime(c.started_at)} />
        </dl>
        <p className="text-xs text-slate-500">
          {c.conversation_id ? `Conversation id ${c.conversation_id}` : "No conversation id: one trace"} · {c.span_count} spans ·{" "}
          {c.trace_ids.length} {c.trace_ids.length === 1 ? "trace" : "traces"}
          {c.agent && (
            <>
              {" "}
              · agent{" "}
              <Link href={`/w/${workspaceId}/agents/${c.agent.id}`} className="text-indigo-700 underline">
                {c.agent.name}
              </Link>
            </>
          )}
        </p>
      </Card>
      <div className="grid gap-4 xl:grid-cols-2">
        <Card className="min-w-0 space-y-3 p-5">
          <h2 className="text-base font-semibold">Transcript</h2>
          <Transcript messages={c.messages} authorship={{ simulated: false, authoredOpening: false }} />
        </Card>
        <div className="min-w-0 space-y-4">
          <Section title="Tool calls">
            {c.tool_calls.length === 0 ? (
              <p className="text-sm text-slate-600">The agent called no tool.</p>
            ) : (
              <ol aria-label="Tool calls in order" className="space-y-3">
                {c.tool_calls.map((t, i) => (
                  <li key={`${t.id}-${i}`} className="space-y-1.5 rounded-md border border-slate-200 p-3 text-sm">
                    <p className="flex flex-wrap items-baseline justify-between gap-2">
                      <code className="font-medium text-slate-900">{t.name}</code>
                      <span className="text-xs text-slate-600 tabular-nums">{formatDuration(t.duration_ms)}</span>
                    </p>
                    <JsonBlock value={t.arguments} />
                    <p className="text-xs break-words whitespace-pre-wrap text-slate-700">
                      <span className="font-medium">Result: </span>
                      {t.error ? <span className="text-red-700">{t.error}</span> : (t.result ?? "—")}
                    </p>
                  </li>
                ))}
              </ol>
            )}
          </Section>
        </div>
      </div>
    </div>
  );
}
