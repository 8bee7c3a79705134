import Link from "next/link";
import type { JudgeCalibrationDto, ReviewItemDto } from "@/lib/review/dto";
import { Badge, Section } from "@/components/ui/card";
import { Pagination } from "@/components/ui/pagination";
import { Stat } from "@/components/ui/stat";
import { numeric, Table, TableBody, TableCell, TableEmpty, TableHeader, TableRow } from "@/components/ui/table";
import { formatDateTime } from "@/components/runs/format";
import {
  ConfusionMatrix,
  formatKappa,
  formatShare,
  JUDGE_STATUS_NOTES,
  JudgeStatusBadge,
  LevelStats,
  type LevelAgreement,
} from "./calibration-figures";

/**
 * The calibration page's sections: the current judge with its agreement per level (overall
 * verdict, expected outcomes, llm_judge checks, metrics) and between reviewers, the history of
 * past judges (so a judge change that made agreement better or worse shows), and the
 * disagreements — the reviewed results whose human verdict overturned the judge.
 */

type Fingerprint = JudgeCalibrationDto["fingerprints"][number];

const LEVELS: { key: keyof Fingerprint["levels"]; title: string; note: string }[] = [
  { key: "overall", title: "Overall verdict", note: "The result's pass/fail against the human verdict." },
  { key: "outcomes", title: "Expected outcomes", note: "Each outcome the judge decided against the reviewers' unanimous verdict on it." },
  { key: "checks", title: "llm_judge checks", note: "Each llm_judge check against the reviewers' unanimous verdict on it." },
  { key: "metrics", title: "Metrics", note: "Each metric's pass against the reviewers' unanimous verdict on it." },
];

/** "gpt-4o-mini at https://…", or what little is known of a judge. */
export function judgeName(judge: Fingerprint["judge"]): string {
  if (!judge.model && !judge.base_url) return "No judge model configuration";
  return [judge.model ?? "unknown model", judge.base_url ? `at ${judge.base_url}` : null].filter(Boolean).join(" ");
}

const shortHash = (hash: string) => hash.slice(0, 12);

export function CurrentJudge({ calibration, settingsHref }: { calibration: JudgeCalibrationDto; settingsHref: string }) {
  const judge = calibration.current_judge;
  const { min_labels, trusted_kappa } = calibration.thresholds;
  return (
    <Section title="Current judge" actions={<JudgeStatusBadge status={calibration.status} prefix="" />}>
      <p className="mb-3 text-sm text-slate-700">{JUDGE_STATUS_NOTES[calibration.status]}</p>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
        <Stat label="Model configuration" value={judge.model_config_name ?? "—"} />
        <Stat label="Model" value={judge.model ?? "—"} />
        <div className="min-w-0">
          <dt className="text-xs text-slate-500">Endpoint</dt>
          <dd className="mt-0.5 break-all text-slate-900">{judge.base_url ?? "—"}</dd>
        </div>
        <div className="min-w-0">
          <dt className="text-xs text-slate-500">Rubric hash / criteria hash</dt>
          <dd className="mt-0.5 font-mono text-xs break-all text-slate-900" title={`${judge.rubric_hash} / ${judge.criteria_hash}`}>
            {shortHash(judge.rubric_hash)} / {shortHash(judge.criteria_hash)}
          </dd>
        </div>
      </dl>
      <p className="mt-3 text-xs text-slate-600">
        Trusted once at least {min_labels} results are labelled and the lower end of κ&apos;s 95% interval reaches {trusted_kappa} (
        <Link href={settingsHref} className="text-indigo-700 underline">
          change in the suite&apos;s settings
        </Link>
        ).
      </p>
    </Section>
  );
}

function LevelBlock({ title, note, level, minLabels }: { title: string; note: string; level: LevelAgreement; minLabels?: number }) {
  return (
    <section aria-label={title} className="rounded-md border border-slate-200 p-4">
      <h3 className="text-sm font-semibold text-slate-900">{title}</h3>
      <p className="mb-3 text-xs text-slate-600">{note}</p>
      {level.n === 0 ? (
        <p className="text-sm text-slate-600">No labelled judgements at this level yet.</p>
      ) : (
        <div className="flex flex-wrap items-start gap-x-6 gap-y-3">
          <div className="min-w-0 flex-1 basis-64">
            <LevelStats level={level} minLabels={minLabels} />
          </div>
          <ConfusionMatrix confusion={level.confusion} caption={`${title}: judge verdicts against human verdicts`} />
        </div>
      )}
    </section>
  );
}

/** The current judge's agreement with people per level, and the reviewers' agreement with each other. */
export function AgreementByLevel({ current, minLabels }: { current: Fingerprint; minLabels: number }) {
  const inter = current.inter_reviewer;
  return (
    <Section title="Agreement with human review" description="For the current judge, from review items that are no longer open.">
      <div className="grid gap-4 lg:grid-cols-2">
        {LEVELS.map((l) => (
          <LevelBlock
            key={l.key}
            title={l.title}
            note={l.note}
            level={current.levels[l.key]}
            minLabels={l.key === "overall" ? minLabels : undefined}
          />
        ))}
      </div>
      <section aria-label="Between reviewers" className="mt-4 rounded-md border border-slate-200 p-4">
        <h3 className="text-sm font-semibold text-slate-900">Between reviewers</h3>
        {inter ? (
          <dl className="mt-2 grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-4">
            <Stat label="Items with two or more labels" value={`${inter.items}`} />
            <Stat label="Agreement" value={formatShare(inter.agreement)} />
            <Stat label={inter.method === "cohen" ? "κ (Cohen's kappa)" : "κ (Fleiss' kappa)"} value={formatKappa(inter)} />
          </dl>
        ) : (
          <p className="mt-1 text-sm text-slate-600">No item has two or more labels yet (set Required reviews above 1 in the settings).</p>
        )}
      </section>
    </Section>
  );
}

/** Every judge the suite's reviews were given under, current first: when it was labelled, its κ, n and status. */
export function CalibrationHistory({ fingerprints, currentFingerprint }: { fingerprints: Fingerprint[]; currentFingerprint: string }) {
  return (
    <Section
      title="History"
      description="Each judge (model, endpoint, prompts and metric settings) the suite's results were reviewed under: a change of judge starts a new row."
    >
      {/* Focusable: a phone scrolls the table sideways by keyboard too (it has no links to focus). */}
      <div className="relative overflow-x-auto" tabIndex={0} role="region" aria-label="Judge calibration history, scrollable">
        <Table variant="plain" density="compact" caption="Judge calibration history" scroll={false}>
          <TableHeader
            columns={["Judge", "First labelled", "Last labelled", ...numeric(["Labelled", "Agreement"]), "κ (95% CI)", "Status"]}
          />
          <TableBody>
            {fingerprints.map((f) => {
              const overall = f.levels.overall;
              const current = f.fingerprint === currentFingerprint;
              return (
                <TableRow key={f.fingerprint}>
                  <TableCell className="max-w-xs">
                    <span className="font-medium break-words">{judgeName(f.judge)}</span>
                    {current && (
                      <Badge tone="indigo" className="ml-2">
                        Current
                      </Badge>
                    )}
                    <span className="block font-mono text-xs text-slate-500" title={f.fingerprint}>
                      rubric {shortHash(f.judge.rubric_hash)}
                    </span>
                  </TableCell>
                  <TableCell>{formatDateTime(f.first_labelled_at)}</TableCell>
                  <TableCell>{formatDateTime(f.last_labelled_at)}</TableCell>
                  <TableCell className="text-right tabular-nums">{overall.n}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatShare(overall.agreement)}</TableCell>
                  <TableCell className="tabular-nums">{formatKappa(overall)}</TableCell>
                  <TableCell>
                    <JudgeStatusBadge status={f.status} prefix="" />
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </div>
    </Section>
  );
}

const VERDICT_LABELS = { pass: "Pass", fail: "Fail", error: "Error" } as const;

function Verdict({ who, verdict }: { who: string; verdict: keyof typeof VERDICT_LABELS | null }) {
  if (!verdict) return <span className="text-slate-500">—</span>;
  return (
    <Badge tone={verdict === "pass" ? "green" : verdict === "fail" ? "red" : "amber"}>
      {who}: {VERDICT_LABELS[verdict].toLowerCase()}
    </Badge>
  );
}

/** The reviewed results whose human verdict differs from the judge's, newest first, a page at a time. */
export function Disagreements({
  workspaceId,
  base,
  items,
  cursor,
  nextCursor,
}: {
  workspaceId: string;
  base: string;
  items: ReviewItemDto[];
  cursor: string | null;
  nextCursor: string | null;
}) {
  return (
    <Section
      id="disagreements"
      title="Disagreements"
      description="Reviewed results whose human verdict overturned the judge's, under any judge: where to look when tuning the judge's rubric."
    >
      <Table variant="plain" density="compact" caption="Disagreements between the judge and human review">
        <TableHeader columns={["Case", "Run", "Judge", "Human", "Review", "Reviewed"]} />
        <TableBody>
          {items.length === 0 ? (
            <TableEmpty colSpan={6}>No human verdict has overturned the judge yet.</TableEmpty>
          ) : (
            items.map((item) => (
              <TableRow key={item.id}>
                <TableCell className="max-w-xs">
                  <Link
                    href={`/w/${workspaceId}/runs/${item.run_id}/cases/${item.case_result_id}`}
                    className="font-medium break-words text-indigo-700 hover:underline"
                  >
                    {item.case_name}
                  </Link>
                  {item.trial > 0 && <span className="ml-2 text-xs text-slate-600">Trial {item.trial + 1}</span>}
                </TableCell>
                <TableCell>
                  <Link href={`/w/${workspaceId}/runs/${item.run_id}`} className="text-indigo-700 hover:underline">
                    Run #{item.run_number}
                  </Link>
                </TableCell>
                <TableCell>
                  <Verdict who="Judge" verdict={item.judge_verdict} />
                </TableCell>
                <TableCell>
                  <Verdict who="Human" verdict={item.human_verdict} />
                </TableCell>
                <TableCell>
                  <Link href={`/w/${workspaceId}/review/${item.id}`} className="text-indigo-700 hover:underline">
                    Review item<span className="sr-only"> of {item.case_name}</span>
                  </Link>
                </TableCell>
                <TableCell className="whitespace-nowrap">{formatDateTime(item.closed_at)}</TableCell>
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
      <Pagination base={base} cursor={cursor} nextCursor={nextCursor} className="mt-3" />
    </Section>
  );
}
