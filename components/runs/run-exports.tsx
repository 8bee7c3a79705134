import { runApi, type ReportFormat } from "@/lib/runs/hooks";
import { buttonClass } from "@/components/ui/button";

const FORMATS: { format: ReportFormat; label: string }[] = [
  { format: "json", label: "JSON" },
  { format: "markdown", label: "Markdown" },
  { format: "csv", label: "CSV" },
  { format: "junit", label: "JUnit XML" },
];

/** Download links for the run report (served as attachments by the session report route). */
export function RunExports({ workspaceId, runId }: { workspaceId: string; runId: string }) {
  return (
    <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Export run">
      <span className="text-sm text-slate-600">Export:</span>
      {FORMATS.map((f) => (
        <a key={f.format} href={runApi.report(workspaceId, runId, f.format)} download className={buttonClass("secondary", "sm")}>
          {f.label}
        </a>
      ))}
    </div>
  );
}
