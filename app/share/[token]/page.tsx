import { connection } from "next/server";
import { loadSharedReport } from "@/lib/share-links/loaders";
import { SharedFrame, SharedLinkGone } from "@/components/share/shared-frame";
import { SharedRunReportView } from "@/components/share/shared-run-report";
import { SharedComparisonReportView } from "@/components/share/shared-comparison-report";

export const metadata = { title: "Shared report" };

/** A run report or a comparison shared by link: no session, no app shell, read-only. */
export default async function SharedReportPage({ params }: { params: Promise<{ token: string }> }) {
  await connection();
  const { token } = await params;
  const report = await loadSharedReport(token);
  if (!report) return <SharedLinkGone />;
  return (
    <SharedFrame>
      {report.kind === "run" ? <SharedRunReportView token={token} report={report} /> : <SharedComparisonReportView report={report} />}
    </SharedFrame>
  );
}
