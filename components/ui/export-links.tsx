import { buttonClass } from "./button";

/**
 * "Export:" and one download link per report format (a run's JSON, Markdown, CSV…), grouped
 * under `label` for screen readers; `href` gives each format's download URL.
 */
export function ExportLinks<F extends string>({
  label,
  formats,
  href,
}: {
  label: string;
  formats: readonly { format: F; label: string }[];
  href: (format: F) => string;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2" role="group" aria-label={label}>
      <span className="text-sm text-slate-600">Export:</span>
      {formats.map((f) => (
        <a key={f.format} href={href(f.format)} download className={buttonClass("secondary", "sm")}>
          {f.label}
        </a>
      ))}
    </div>
  );
}
