import type { TranscriptMessage } from "@/lib/evaluation/types";
import { cn } from "@/components/ui/cn";
import { Disclosure, JsonBlock } from "./json-block";

/**
 * The conversation as a chat: user and agent bubbles, the system prompt collapsed, tool calls
 * expandable with their arguments and the mocked tool response. Turn N (`#turn-N`) is
 * transcript[N - 1], the numbering the judge's evidence turns use.
 */
export function Transcript({
  messages,
  simulated,
  idPrefix = "",
}: {
  messages: TranscriptMessage[];
  simulated: boolean;
  /** Prefixes the turn anchors when several transcripts share a page (`baseline-turn-3`). */
  idPrefix?: string;
}) {
  if (messages.length === 0) return <p className="text-sm text-slate-500">No messages: the conversation did not take place.</p>;
  const toolResults = new Map<string, { content: string | null; turn: number }>();
  messages.forEach((m, i) => {
    if (m.role === "tool" && m.tool_call_id) toolResults.set(m.tool_call_id, { content: m.content, turn: i + 1 });
  });
  const toolNames = new Map<string, string>();
  for (const m of messages) for (const c of m.tool_calls ?? []) toolNames.set(c.id, c.name);

  return (
    <ol className="space-y-3" aria-label="Transcript">
      {messages.map((m, i) => {
        const turn = i + 1;
        const anchor = `${idPrefix}turn-${turn}`;
        if (m.role === "system") {
          return (
            <li key={anchor} id={anchor} className="scroll-mt-4 rounded-md target:ring-2 target:ring-amber-400">
              <Disclosure summary={<span className="text-slate-600">System prompt · turn {turn}</span>}>
                <p className="text-sm whitespace-pre-wrap text-slate-700">{m.content}</p>
              </Disclosure>
            </li>
          );
        }
        if (m.role === "tool") {
          const name = m.name ?? (m.tool_call_id ? toolNames.get(m.tool_call_id) : undefined) ?? "tool";
          return (
            <li key={anchor} id={anchor} className="mr-16 ml-6 scroll-mt-4 rounded-md target:ring-2 target:ring-amber-400">
              <Disclosure
                summary={
                  <span className="text-slate-600">
                    Tool result · {name} · turn {turn}
                  </span>
                }
              >
                <JsonBlock value={m.content ?? ""} label={`Tool result of ${name}`} />
              </Disclosure>
            </li>
          );
        }
        const isUser = m.role === "user";
        return (
          <li
            key={anchor}
            id={anchor}
            className={cn(
              "flex scroll-mt-4 rounded-md p-0.5 target:bg-amber-50 target:ring-2 target:ring-amber-400",
              isUser ? "justify-end" : "justify-start",
            )}
          >
            <div
              className={cn(
                "max-w-[80%] rounded-lg px-3 py-2 text-sm shadow-sm",
                isUser ? "bg-indigo-600 text-white" : "border border-slate-200 bg-white text-slate-900",
              )}
            >
              <p className={cn("mb-1 text-xs font-medium", isUser ? "text-indigo-100" : "text-slate-500")}>
                {isUser ? (simulated ? "Simulated user" : "User") : "Agent"} · turn {turn}
              </p>
              {m.content ? (
                <p className="break-words whitespace-pre-wrap">{m.content}</p>
              ) : !m.tool_calls?.length ? (
                <p className="italic opacity-70">(empty message)</p>
              ) : null}
              {m.tool_calls && m.tool_calls.length > 0 && (
                <div className="mt-2 space-y-1.5">
                  {m.tool_calls.map((call) => {
                    const result = toolResults.get(call.id);
                    return (
                      <Disclosure
                        key={call.id}
                        className="text-slate-900"
                        summary={<span className="font-mono text-xs">Tool call: {call.name}</span>}
                      >
                        <p className="text-xs font-medium text-slate-500">Arguments</p>
                        <JsonBlock value={call.arguments || "{}"} label={`Arguments of ${call.name}`} />
                        <p className="text-xs font-medium text-slate-500">Mocked response{result ? ` (turn ${result.turn})` : ""}</p>
                        {result ? (
                          <JsonBlock value={result.content ?? ""} label={`Mocked response of ${call.name}`} />
                        ) : (
                          <p className="text-xs text-slate-500">No response recorded.</p>
                        )}
                      </Disclosure>
                    );
                  })}
                </div>
              )}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
