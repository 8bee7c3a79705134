import type { PromptChange } from "@/lib/demo/guide";

/** The lines of the agent's system prompt that an edit removed and added, as a small diff. */
export function PromptChangeList({ change }: { change: PromptChange }) {
  return (
    <ul aria-label="System prompt changes" className="space-y-0.5 rounded-md bg-slate-50 p-2 font-mono text-xs break-words">
      {change.removed.map((line) => (
        <li key={`-${line}`} className="text-red-800">
          <span aria-hidden="true">− </span>
          <span className="sr-only">Removed: </span>
          {line}
        </li>
      ))}
      {change.added.map((line) => (
        <li key={`+${line}`} className="text-green-800">
          <span aria-hidden="true">+ </span>
          <span className="sr-only">Added: </span>
          {line}
        </li>
      ))}
    </ul>
  );
}
