import { ExportLinks } from "@/components/ui/export-links";
import { comparisonApi, type ReportFormat } from "./paths";

const FORMATS: { format: ReportFormat; label: string }[] = [
  { format: "json", label: "JSON" },
  { format: "csv", label: "CSV" },
];

/** Download links for the comparison report (the session JSON and CSV), served to the signed-in user. */
export function ComparisonExports({ workspaceId, comparisonId }: { workspaceId: string; comparisonId: string }) {
  return <ExportLinks label="Export comparison" formats={FORMATS} href={(f) => comparisonApi.report(workspaceId, comparisonId, f)} />;
}
