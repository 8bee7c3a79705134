import { JsonBlock } from "./json-block";
import { prettyJson } from "./format";

type Snapshot = Record<string, unknown>;

const FIELDS: [key: string, label: string][] = [
  ["description", "Description"],
  ["difficulty", "Difficulty"],
  ["status", "Status"],
  ["initial_message", "Initial message"],
  ["persona", "Persona"],
  ["user_context", "User context"],
  ["max_turns", "Max turns"],
  ["expected_outcomes", "Expected outcomes"],
  ["expected_tool_calls", "Expected tool calls"],
  ["checks", "Checks"],
  ["mode", "Check mode"],
  ["evaluation_criteria_override", "Evaluation criteria override"],
  ["ground_truth", "Ground truth"],
  ["files", "Files"],
];

const isEmpty = (v: unknown) => v === null || v === undefined || v === "" || (Array.isArray(v) && v.length === 0);

/** The test case exactly as it ran (later edits never rewrite it). */
export function CaseSnapshot({ snapshot }: { snapshot: Snapshot }) {
  const present = FIELDS.filter(([k]) => !isEmpty(snapshot[k]));
  return (
    <div className="space-y-3">
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[12rem_1fr]">
        {present.map(([k, label]) => {
          const v = snapshot[k];
          return (
            <div key={k} className="contents">
              <dt className="text-slate-500">{label}</dt>
              <dd className="min-w-0">
                {typeof v === "object" ? (
                  <JsonBlock value={v} className="max-h-60" />
                ) : (
                  <span className="break-words whitespace-pre-wrap">{String(v)}</span>
                )}
              </dd>
            </div>
          );
        })}
      </dl>
      <details>
        <summary className="cursor-pointer text-xs text-indigo-700">Show the snapshot as JSON</summary>
        <JsonBlock value={prettyJson(snapshot)} className="mt-2" />
      </details>
    </div>
  );
}
