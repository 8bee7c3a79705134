import { splitTurns, type TranscriptTurn } from "@/lib/evaluation/transcript";
import type { TranscriptMessage } from "@/lib/evaluation/types";
import { splitAttachedFiles, type FileAttachment } from "@/lib/files/layout";
import type { ProcessedFileInput } from "@/lib/files/types";
import { Disclosure, JsonBlock } from "./json-block";
import { Attachments } from "./attachments";

/** A stored transcript message; the first user message also lists the case's attached files. */
export type TranscriptEntry = TranscriptMessage & { attachments?: FileAttachment[] };

/** Who wrote the user messages of a case: the opening is the test author's unless the simulated user wrote it. */
export type UserAuthorship = {
  /** The case has a persona: user messages after the first are the simulated user's. */
  simulated: boolean;
  /** The case gave its own initial_message (a persona case without one lets the simulated user open). */
  authoredOpening: boolean;
};

/**
 * The conversation as a chat, grouped into turns: Turn N (`#turn-N`) is the N-th user message and
 * everything the agent did in reply — its messages, tool calls (expandable with their arguments
 * and the mocked response) and tool results. That is the numbering of the result's `turns` count
 * and of the judge's evidence turns. The system prompt is not a turn: it is shown apart,
 * collapsed (`#system-prompt`). Files attached to the first user message are collapsed
 * attachments with their content rendered as markdown; the message keeps the text the agent saw.
 */
export function Transcript({
  messages,
  authorship,
  files = [],
  idPrefix = "",
}: {
  messages: TranscriptEntry[];
  authorship: UserAuthorship;
  /** The case result's processed files (sizes and page counts of the attachments). */
  files?: ProcessedFileInput[];
  /** Prefixes the anchors when several transcripts share a page (`baseline-turn-3`). */
  idPrefix?: string;
}) {
  if (messages.length === 0) return <p className="text-sm text-slate-500">No messages: the conversation did not take place.</p>;
  const { system, turns } = splitTurns(messages);
  const toolNames = new Map<string, string>();
  const toolResults = new Map<string, string | null>();
  for (const m of messages) {
    for (const c of m.tool_calls ?? []) toolNames.set(c.id, c.name);
    if (m.role === "tool" && m.tool_call_id) toolResults.set(m.tool_call_id, m.content);
  }
  const firstUser = messages.findIndex((m) => m.role === "user");

  return (
    <div className="space-y-3">
      {system.length > 0 && (
        <div id={`${idPrefix}system-prompt`} className="scroll-mt-4 rounded-md target:ring-2 target:ring-amber-400">
          <Disclosure summary={<span className="text-slate-600">System prompt · the agent&apos;s instructions, not a turn</span>}>
            {system.map(({ message, index }) => (
              <p key={index} className="text-sm whitespace-pre-wrap text-slate-700">
                {message.content}
              </p>
            ))}
          </Disclosure>
        </div>
      )}
      {turns.length === 0 ? (
        <p className="text-sm text-slate-500">No turns: the conversation ended before the first user message.</p>
      ) : (
        <ol className="space-y-3" aria-label="Transcript">
          {turns.map((turn) => (
            <Turn key={turn.number} turn={turn} idPrefix={idPrefix}>
              {turn.messages.map(({ message: m, index }) =>
                m.role === "tool" ? (
                  <ToolResult key={index} message={m} name={toolName(m, toolNames)} />
                ) : m.role === "user" ? (
                  <UserMessage
                    key={index}
                    message={m}
                    labelId={`${idPrefix}message-${index + 1}`}
                    label={userLabel(index === firstUser, authorship)}
                    files={index === firstUser ? files : []}
                  />
                ) : (
                  <AgentMessage key={index} message={m} labelId={`${idPrefix}message-${index + 1}`} toolResults={toolResults} />
                ),
              )}
            </Turn>
          ))}
        </ol>
      )}
    </div>
  );
}

/** Who wrote the user messages, read from the test case snapshot the result ran with. */
export function authorshipOf(snapshot: Record<string, unknown>): UserAuthorship {
  const initial = snapshot.initial_message;
  return { simulated: Boolean(snapshot.persona), authoredOpening: typeof initial === "string" && initial.trim() !== "" };
}

const BUBBLES = {
  user: {
    row: "flex justify-end",
    box: "max-w-[85%] min-w-0 rounded-lg bg-indigo-600 px-3 py-2 text-sm text-white shadow-sm",
    label: "mb-1 text-xs font-medium text-indigo-100",
  },
  agent: {
    row: "flex justify-start",
    box: "max-w-[85%] min-w-0 rounded-lg border border-slate-200 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm",
    label: "mb-1 text-xs font-medium text-slate-500",
  },
};

/** One message of the conversation: a group named by its author's label, on the author's side. */
function Bubble({
  side,
  labelId,
  label,
  children,
}: {
  side: keyof typeof BUBBLES;
  labelId: string;
  label: string;
  children: React.ReactNode;
}) {
  const style = BUBBLES[side];
  return (
    <div className={style.row}>
      <div role="group" aria-labelledby={labelId} className={style.box}>
        <p id={labelId} className={style.label}>
          {label}
        </p>
        {children}
      </div>
    </div>
  );
}

/**
 * "Authored first message" / "Simulated user" for a persona case; "Authored question" for a
 * single-turn one; "User" for every message of a real user (traffic: nobody authored it).
 */
export function userLabel(isFirst: boolean, { simulated, authoredOpening }: UserAuthorship): string {
  if (!simulated) return isFirst && authoredOpening ? "Authored question" : "User";
  return isFirst && authoredOpening ? "Authored first message" : "Simulated user";
}

function Turn({ turn, idPrefix, children }: { turn: TranscriptTurn; idPrefix: string; children: React.ReactNode }) {
  const anchor = `${idPrefix}turn-${turn.number}`;
  const replied = turn.messages.some((m) => m.message.role === "assistant");
  return (
    <li
      id={anchor}
      aria-labelledby={`${anchor}-label`}
      className="scroll-mt-4 space-y-2 rounded-lg border border-slate-200 p-2.5 target:border-amber-400 target:bg-amber-50 target:ring-2 target:ring-amber-400"
    >
      <p id={`${anchor}-label`} className="text-xs font-semibold text-slate-500">
        Turn {turn.number}
      </p>
      {children}
      {!replied && <p className="text-xs text-slate-500 italic">No reply from the agent in this turn.</p>}
    </li>
  );
}

function toolName(m: TranscriptMessage, toolNames: Map<string, string>): string {
  return m.name ?? (m.tool_call_id ? toolNames.get(m.tool_call_id) : undefined) ?? "tool";
}

function ToolResult({ message, name }: { message: TranscriptMessage; name: string }) {
  return (
    <div className="mr-16 ml-6">
      <Disclosure summary={<span className="text-slate-600">Tool result · {name}</span>}>
        <JsonBlock value={message.content ?? ""} label={`Tool result of ${name}`} />
      </Disclosure>
    </div>
  );
}

function UserMessage({
  message,
  labelId,
  label,
  files,
}: {
  message: TranscriptEntry;
  labelId: string;
  label: string;
  files: ProcessedFileInput[];
}) {
  const attachments = message.attachments ?? [];
  const split = attachments.length > 0 && message.content ? splitAttachedFiles(message.content, attachments.length) : null;
  const text = split ? split.message : message.content;
  return (
    <Bubble side="user" labelId={labelId} label={label}>
      {text ? <p className="break-words whitespace-pre-wrap">{text}</p> : <p className="italic opacity-70">(empty message)</p>}
      {split && <Attachments attachments={attachments} blocks={split.files} files={files} />}
    </Bubble>
  );
}

/** The agent's message (or, never today, a system message in the middle of the conversation). */
function AgentMessage({
  message: m,
  labelId,
  toolResults,
}: {
  message: TranscriptMessage;
  labelId: string;
  toolResults: Map<string, string | null>;
}) {
  return (
    <Bubble side="agent" labelId={labelId} label={m.role === "system" ? "System" : "Agent"}>
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
                <p className="text-xs font-medium text-slate-500">Mocked response</p>
                {result !== undefined ? (
                  <JsonBlock value={result ?? ""} label={`Mocked response of ${call.name}`} />
                ) : (
                  <p className="text-xs text-slate-500">No response recorded.</p>
                )}
              </Disclosure>
            );
          })}
        </div>
      )}
    </Bubble>
  );
}
