export const REPORT_FORMATS = ["json", "markdown", "csv", "junit"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export const REPORT_EXTENSIONS: Record<ReportFormat, string> = { json: "json", markdown: "md", csv: "csv", junit: "xml" };

/**
 * "assay-checkout-bot-run-42.json": the suite's name and the run's number, as people name the
 * run. The suite name is user text going into a Content-Disposition header and a file system, so
 * it is cut down to lowercase ASCII letters, digits and single dashes (accents folded, at most 60
 * characters); nothing can close the header's quotes or name a directory.
 */
export function reportFilename(suiteName: string, runNumber: number, format: ReportFormat): string {
  const slug = suiteName
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, 60)
    .replace(/^-+|-+$/g, "");
  return `assay-${slug || "suite"}-run-${runNumber}.${REPORT_EXTENSIONS[format]}`;
}
