"use client";
import type { ImportFormat } from "@/lib/test-cases/schemas";

/** The import route's answer (lib/test-cases/import-file.ts ImportReport), as the dialog reads it. */
export type ImportReportData = {
  format: ImportFormat;
  dry_run: boolean;
  imported: number;
  would_import: number;
  skipped: number;
  errors: { index: number; path: string; message: string }[];
  items: { index: number; label: string; mapped: string[]; dropped: { field: string; reason: string }[]; error: string | null }[];
  notes: string[];
  test_cases?: { name: string }[];
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The headline of a preview or an import: what was (or would be) created and what was left out. */
export function reportSummary(r: ImportReportData, item = "item"): string {
  const invalid = r.skipped > 0 ? ` ${plural(r.skipped, item)} cannot be imported.` : "";
  if (r.dry_run) return `Preview: ${plural(r.would_import, "test case")} would be created.${invalid}`;
  return `Imported ${plural(r.imported, "test case")}.${r.skipped > 0 ? ` Skipped ${plural(r.skipped, `invalid ${item}`)}.` : ""}`;
}

/**
 * Per source item: its case (or why it has none), what was carried over and what was dropped, so
 * a team moving from another tool sees exactly what it gets before and after the import.
 */
export function ImportReport({ report }: { report: ImportReportData }) {
  const issuesByItem = new Map<number, string[]>();
  for (const e of report.errors) {
    const list = issuesByItem.get(e.index) ?? [];
    list.push(e.path ? `${e.path}: ${e.message}` : e.message);
    issuesByItem.set(e.index, list);
  }
  const droppedCount = report.items.reduce((n, i) => n + i.dropped.length, 0);
  return (
    <section aria-label="Import report" className="space-y-3 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm">
      <p className="font-medium text-slate-800" data-testid="import-summary">
        {reportSummary(report)}
        {droppedCount > 0 && ` ${plural(droppedCount, "field")} not carried over (listed below).`}
      </p>
      {report.notes.length > 0 && (
        <ul aria-label="Notes" className="list-disc space-y-1 pl-5 text-slate-700">
          {report.notes.map((n, k) => (
            <li key={k}>{n}</li>
          ))}
        </ul>
      )}
      {report.items.length > 0 ? (
        // Focusable: a scrolling list must be reachable by keyboard.
        <ol
          aria-label="Items"
          tabIndex={0}
          className="max-h-72 space-y-2 overflow-y-auto focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          {report.items.map((item) => {
            const issues = issuesByItem.get(item.index) ?? [];
            const failed = item.error !== null || issues.length > 0;
            return (
              <li key={item.index} className="rounded border border-slate-200 bg-white px-2 py-1.5">
                <p className="font-medium break-words">
                  <span className={failed ? "text-red-700" : "text-green-800"}>{failed ? "✗" : "✓"}</span> {item.label}
                </p>
                {item.error && <p className="text-red-700">{item.error}</p>}
                {issues.length > 0 && !item.error && (
                  <ul className="list-disc pl-5 text-red-700">
                    {issues.map((m, k) => (
                      <li key={k}>{m}</li>
                    ))}
                  </ul>
                )}
                {item.mapped.length > 0 && (
                  <p className="break-words text-slate-600">
                    <span className="sr-only">Mapped: </span>
                    {item.mapped.join(" · ")}
                  </p>
                )}
                {item.dropped.length > 0 && (
                  <ul aria-label="Not carried over" className="list-disc pl-5 text-amber-800">
                    {item.dropped.map((d, k) => (
                      <li key={k} className="break-words">
                        Not carried over: <code className="text-xs">{d.field}</code> — {d.reason}
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            );
          })}
        </ol>
      ) : (
        report.errors.length > 0 && (
          <ul aria-label="Import errors" tabIndex={0} className="max-h-48 list-disc overflow-y-auto pl-5 text-red-700">
            {report.errors.map((e, k) => (
              <li key={k}>
                Case #{e.index + 1}
                {e.path ? ` · ${e.path}` : ""}: {e.message}
              </li>
            ))}
          </ul>
        )
      )}
    </section>
  );
}
