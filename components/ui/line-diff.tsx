import { cn } from "./cn";

/**
 * A line diff of two texts (longest common subsequence) and its rendering: removed lines struck
 * through in red, added lines in green, each also marked in words for screen readers and with
 * +/− for sighted readers, so colour is never the only signal. Text is rendered as text.
 */

export type DiffLine = { kind: "same" | "added" | "removed"; text: string };

/** Above this many lines per side the LCS table would be large; callers show both texts instead. */
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

/** How many lines a diff adds and removes. */
export function diffCounts(diff: DiffLine[]): { added: number; removed: number } {
  return {
    added: diff.filter((l) => l.kind === "added").length,
    removed: diff.filter((l) => l.kind === "removed").length,
  };
}

/** A diff as a scrollable block of lines; `label` names it for assistive technology. */
export function LineDiffView({ diff, label, className }: { diff: DiffLine[]; label?: string; className?: string }) {
  return (
    <pre
      aria-label={label}
      className={cn(
        "max-h-48 overflow-auto rounded-md border border-slate-200 bg-slate-50 p-2 font-mono text-xs leading-5 break-words whitespace-pre-wrap",
        className,
      )}
    >
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
  );
}
