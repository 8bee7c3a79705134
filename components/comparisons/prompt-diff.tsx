import { Badge } from "@/components/ui/card";

/** A line diff of two prompts (longest common subsequence), for the Compare dialog's "changed" marker. */
export type DiffLine = { kind: "same" | "added" | "removed"; text: string };

/** Above this many lines per side the table would be large; compare only the counts. */
const MAX_LINES = 1500;

export function lineDiff(before: string, after: string): DiffLine[] | null {
  const a = before.split("\n");
  const b = after.split("\n");
  if (a.length > MAX_LINES || b.length > MAX_LINES) return null;
  // lcs[i][j] = length of the LCS of a[i..] and b[j..]
  const lcs: Uint16Array[] = Array.from({ length: a.length + 1 }, () => new Uint16Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ kind: "same", text: a[i]! });
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) {
      out.push({ kind: "removed", text: a[i++]! });
    } else {
      out.push({ kind: "added", text: b[j++]! });
    }
  }
  while (i < a.length) out.push({ kind: "removed", text: a[i++]! });
  while (j < b.length) out.push({ kind: "added", text: b[j++]! });
  return out;
}

/**
 * "Changed" marker under a prompt that differs from its agent's: the added/removed line counts
 * and the diff itself behind a disclosure. Renders nothing while the prompt is the agent's own.
 */
export function PromptDiff({ original, current }: { original: string; current: string }) {
  if (original === current) return null;
  const diff = lineDiff(original, current);
  const added = diff?.filter((l) => l.kind === "added").length ?? 0;
  const removed = diff?.filter((l) => l.kind === "removed").length ?? 0;
  return (
    <div className="space-y-1" data-testid="prompt-diff">
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <Badge tone="amber">Changed from the agent&apos;s prompt</Badge>
        {diff && (
          <span className="text-slate-600">
            <span className="text-green-700">+{added}</span> / <span className="text-red-700">−{removed}</span> lines
          </span>
        )}
      </div>
      {diff && (
        <details className="text-xs">
          <summary className="cursor-pointer text-indigo-700">Show the diff</summary>
          <pre className="mt-1 max-h-48 overflow-auto rounded-md border border-slate-200 bg-slate-50 p-2 font-mono leading-5 whitespace-pre-wrap">
            {diff.map((l, k) => (
              <div
                key={k}
                className={
                  l.kind === "added"
                    ? "bg-green-50 text-green-800"
                    : l.kind === "removed"
                      ? "bg-red-50 text-red-800 line-through"
                      : "text-slate-600"
                }
              >
                <span aria-hidden="true">{l.kind === "added" ? "+ " : l.kind === "removed" ? "− " : "  "}</span>
                <span className="sr-only">{l.kind === "added" ? "Added: " : l.kind === "removed" ? "Removed: " : ""}</span>
                {l.text || " "}
              </div>
            ))}
          </pre>
        </details>
      )}
    </div>
  );
}
