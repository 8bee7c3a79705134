import Link from "next/link";
import type { JudgeCalibrationDto } from "@/lib/review/dto";
import { Section } from "@/components/ui/card";
import { ConfusionMatrix, JudgeStatusBadge, LevelStats } from "./calibration-figures";

/**
 * The suite page's "Judge calibration" card: how far the current judge agrees with the people who
 * reviewed its verdicts — its status, kappa with its interval, how many labels of the minimum,
 * the overall confusion matrix and recall/precision on failures — with a link to the calibration
 * page and its disagreements.
 */
export function CalibrationCard({
  workspaceId,
  suiteId,
  calibration,
}: {
  workspaceId: string;
  suiteId: string;
  calibration: JudgeCalibrationDto;
}) {
  const current = calibration.fingerprints[0]!;
  const overall = current.levels.overall;
  const href = `/w/${workspaceId}/suites/${suiteId}/calibration`;
  return (
    <Section
      title="Judge calibration"
      description="How often the suite's current judge agrees with human review of its verdicts."
      className="p-4"
      actions={<JudgeStatusBadge status={calibration.status} />}
    >
      {overall.n === 0 ? (
        <p className="text-sm text-slate-600">
          No reviewed results yet for this judge: send results to review from a run to calibrate it ({calibration.thresholds.min_labels}{" "}
          labels needed).
        </p>
      ) : (
        <div className="flex flex-wrap items-start gap-x-8 gap-y-4">
          <div className="min-w-0 flex-1 basis-72">
            <LevelStats level={overall} minLabels={calibration.thresholds.min_labels} testIdPrefix="calibration" />
          </div>
          <ConfusionMatrix confusion={overall.confusion} caption="Judge verdicts against human verdicts" />
        </div>
      )}
      <p className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm">
        <Link href={`${href}#disagreements`} className="font-medium text-indigo-700 hover:underline">
          Disagreements ({current.disagreements})
        </Link>
        <Link href={href} className="font-medium text-indigo-700 hover:underline">
          Calibration details and history
        </Link>
      </p>
    </Section>
  );
}
