import Link from "next/link";
import type { JudgeCalibrationDto } from "@/lib/review/dto";
import { Badge } from "@/components/ui/card";
import { Stat } from "@/components/ui/stat";

/**
 * The pieces every view of a judge's calibration shares (the suite page's card, the calibration
 * page, the run page's badge): the status as a badge with words, kappa with its interval, the
 * confusion matrix as a real table, and recall/precision on failures. Server-safe (no hooks).
 */

export type JudgeStatus = JudgeCalibrationDto["status"];
export type LevelAgreement = JudgeCalibrationDto["fingerprints"][number]["levels"]["overall"];

export const JUDGE_STATUS_LABELS: Record<JudgeStatus, string> = {
  uncalibrated: "Uncalibrated",
  trusted: "Trusted",
  doubtful: "Doubtful",
};
const STATUS_TONES = { uncalibrated: "slate", trusted: "green", doubtful: "amber" } as const;

/** What each status means, for a tooltip and the calibration page. */
export const JUDGE_STATUS_NOTES: Record<JudgeStatus, string> = {
  uncalibrated: "Not enough human labels yet to say how far the judge agrees with people.",
  trusted: "The lower end of kappa's 95% interval reaches the suite's threshold: the judge agrees with people beyond chance.",
  doubtful: "Enough labels, but kappa's 95% interval reaches below the suite's threshold: check the judge's verdicts.",
};

/** The judge's status in words ("Judge: trusted"), never colour alone. */
export function JudgeStatusBadge({ status, prefix = "Judge: " }: { status: JudgeStatus; prefix?: string }) {
  return (
    <Badge tone={STATUS_TONES[status]} title={JUDGE_STATUS_NOTES[status]}>
      {prefix}
      {prefix ? JUDGE_STATUS_LABELS[status].toLowerCase() : JUDGE_STATUS_LABELS[status]}
    </Badge>
  );
}

/** The run page's badge: the suite judge's status, linking to its calibration page. */
export function JudgeStatusLink({ href, status }: { href: string; status: JudgeStatus }) {
  return (
    <Link href={href} className="rounded hover:underline">
      <JudgeStatusBadge status={status} />
    </Link>
  );
}

const fixed2 = (n: number) => n.toFixed(2);

/** "0.72 (95% CI 0.51–0.93)", "—" while undefined (no labels, or every pair the same verdict). */
export function formatKappa(level: Pick<LevelAgreement, "kappa" | "kappa_ci95">): string {
  if (level.kappa === null) return "—";
  const ci = level.kappa_ci95;
  return ci ? `${fixed2(level.kappa)} (95% CI ${fixed2(ci[0])} to ${fixed2(ci[1])})` : fixed2(level.kappa);
}

/** A share 0..1 as a whole percent, "—" when undefined. */
export const formatShare = (n: number | null | undefined) => (n === null || n === undefined ? "—" : `${Math.round(n * 100)}%`);

/**
 * The 2×2 confusion matrix of judge vs human verdicts: rows are the judge's verdict, columns the
 * people's, so the off-diagonal cells are the disagreements (missed failures, false alarms).
 */
export function ConfusionMatrix({ confusion, caption }: { confusion: LevelAgreement["confusion"]; caption: string }) {
  const cell = "border border-slate-200 px-3 py-1.5 text-right tabular-nums";
  const head = "border border-slate-200 bg-slate-50 px-3 py-1.5 text-left text-xs font-medium text-slate-600";
  return (
    <table className="border-collapse text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          <td className="border-0" />
          <th scope="col" className={head}>
            Human pass
          </th>
          <th scope="col" className={head}>
            Human fail
          </th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <th scope="row" className={head}>
            Judge pass
          </th>
          <td className={cell}>{confusion.judge_pass_human_pass}</td>
          <td className={`${cell} ${confusion.judge_pass_human_fail > 0 ? "font-semibold text-red-800" : ""}`}>
            {confusion.judge_pass_human_fail}
          </td>
        </tr>
        <tr>
          <th scope="row" className={head}>
            Judge fail
          </th>
          <td className={`${cell} ${confusion.judge_fail_human_pass > 0 ? "font-semibold text-amber-800" : ""}`}>
            {confusion.judge_fail_human_pass}
          </td>
          <td className={cell}>{confusion.judge_fail_human_fail}</td>
        </tr>
      </tbody>
    </table>
  );
}

/** The figures of one level: n, agreement, kappa with its interval, recall and precision on failures. */
export function LevelStats({ level, minLabels, testIdPrefix }: { level: LevelAgreement; minLabels?: number; testIdPrefix?: string }) {
  const id = (name: string) => (testIdPrefix ? `${testIdPrefix}-${name}` : undefined);
  return (
    <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-3">
      <Stat label="Labelled judgements" value={minLabels === undefined ? `${level.n}` : `${level.n} of ${minLabels}`} testId={id("n")} />
      <Stat label="Agreement" value={formatShare(level.agreement)} testId={id("agreement")} />
      <Stat label="κ (Cohen's kappa)" value={formatKappa(level)} testId={id("kappa")} />
      <Stat
        label="Failure recall"
        value={formatShare(level.failure_recall)}
        title="Of the results people failed, the share the judge failed too"
        testId={id("recall")}
      />
      <Stat
        label="Failure precision"
        value={formatShare(level.failure_precision)}
        title="Of the results the judge failed, the share people failed too"
        testId={id("precision")}
      />
    </dl>
  );
}
