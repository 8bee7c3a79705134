import { runApi, type ReportFormat } from "@/lib/runs/hooks";
import { ExportLinks } from "@/components/ui/export-links";

const FORMATS: { format: ReportFormat; label: string }[] = [
  { format: "json", label: "JSON" },
  { format: "markdown", label: "Markdown" },
  { format: "csv", label: "CSV" },
  { format: "junit", label: "JUnit XML" },
];

/** Download links for the run report (served as attachments by the session report route). */
export function RunExports({ workspaceId, runId }: { workspaceId: string; runId: string }) {
  return <ExportLinks label="Export run" formats={FORMATS} href={(f) => runApi.report(workspaceId, runId, f)} />;
}
