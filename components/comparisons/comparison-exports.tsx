import { buttonClass } from "@/components/ui/button";
import { comparisonApi, type ReportFormat } from "./paths";

const FORMATS: { format: ReportFormat; label: string }[] = [
  { format: "json", label: "JSON" },
  { format: "csv", label: "CSV" },
];

/** Download links for the comparison report (the spec's session JSON and CSV), served to the signed-in user. */
export function ComparisonExports({ workspaceId, comparisonId }: { workspaceId: string; comparisonId: string }) {
  return (
    <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Export comparison">
      <span className="text-sm text-slate-600">Export:</span>
      {FORMATS.map((f) => (
        <a
          key={f.format}
          href={comparisonApi.report(workspaceId, comparisonId, f.format)}
          download
          className={buttonClass("secondary", "sm")}
        >
          {f.label}
        </a>
      ))}
    </div>
  );
}
