import type { Metadata } from "next";
import Link from "next/link";
import { orNotFound, pageContext } from "@/lib/auth/context";
import { loadCalibrationPage } from "@/lib/review/suite-loaders";
import { PageHeader } from "@/components/ui/page-header";
import { buttonClass } from "@/components/ui/button";
import { suiteCrumbs } from "@/components/suites/suite-crumbs";
import { AgreementByLevel, CalibrationHistory, CurrentJudge, Disagreements } from "@/components/review/calibration-details";
import type { WorkspacePageProps } from "@/lib/pages/props";

export const metadata: Metadata = { title: "Judge calibration" };

/** How far the suite's judge agrees with human review: per level, per judge over time, and the disagreements. */
export default async function SuiteCalibrationPage({ params, searchParams }: WorkspacePageProps<{ suiteId: string }>) {
  const { workspaceId, suiteId } = await params;
  const sp = await searchParams;
  const ctx = await pageContext(workspaceId);
  const { suite, calibration, disagreements } = await orNotFound(loadCalibrationPage(ctx, suiteId, sp));
  const base = `/w/${workspaceId}/suites/${suiteId}`;
  return (
    <div className="space-y-4">
      <PageHeader
        breadcrumbs={suiteCrumbs(workspaceId, suite, null, { label: "Judge calibration" })}
        title="Judge calibration"
        description={
          <>
            Suite <span className="font-medium text-slate-800">{suite.name}</span> · its judge&apos;s verdicts against human review
          </>
        }
        actions={
          <Link href={`/w/${workspaceId}/review?suite=${suiteId}`} className={buttonClass("secondary")}>
            Review queue
          </Link>
        }
      />
      <CurrentJudge calibration={calibration} settingsHref={`${base}/settings`} />
      <AgreementByLevel current={calibration.fingerprints[0]!} minLabels={calibration.thresholds.min_labels} />
      <CalibrationHistory fingerprints={calibration.fingerprints} currentFingerprint={calibration.current_fingerprint} />
      <Disagreements
        workspaceId={workspaceId}
        base={`${base}/calibration`}
        items={disagreements.items}
        cursor={disagreements.cursor}
        nextCursor={disagreements.nextCursor}
      />
    </div>
  );
}
