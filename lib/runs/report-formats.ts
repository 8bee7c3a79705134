export const REPORT_FORMATS = ["json", "markdown", "csv", "junit"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
