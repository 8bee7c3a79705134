/**
 * Judge calibration: how often a suite's judge agrees with its reviewers. For each judge
 * fingerprint (./fingerprint.ts) and level — the overall verdict, the expected outcomes, the
 * `llm_judge` checks, the metrics — the closed review items give judge/human verdict pairs, and
 * ./agreement.ts turns them into raw agreement, Cohen's kappa with its 95 % interval, the
 * confusion matrix and the judge's recall and precision on failures. Items with two or more
 * labels also give the agreement between reviewers.
 *
 * Which pairs count:
 * - overall: items with a human verdict (agreed or resolved) whose result the judge decided
 *   (passed or failed; an errored result has no judge verdict);
 * - an element: on those items, every element the judge decided and the labels decided
 *   unanimously (labels that leave the element out do not count; labels that disagree on it
 *   drop it);
 * - between reviewers: items no longer open (agreed, conflict, resolved) with two or more labels.
 *
 * The suite's status is its current judge's (the fingerprint of its settings today): a judge
 * with fewer than `calibrationMinLabels` overall pairs is uncalibrated, one whose kappa's lower
 * bound reaches `calibrationTrustedKappa` trusted, any other doubtful.
 */
import "server-only";
import { db } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import { isUuid } from "@/lib/ids";
import { iso } from "@/lib/serialize";
import { agreementOf, agreementOfConfusion, interReviewerAgreement, judgeStatus, type VerdictPair } from "./agreement";
import { ELEMENT_LEVELS, judgedElements, judgeVerdictOf, type ElementLevel } from "./elements";
import { judgeFingerprint, type JudgeInfo } from "./fingerprint";
import { labelElements, type JudgeCalibrationDto } from "./dto";

type Fingerprint = JudgeCalibrationDto["fingerprints"][number];
type Level = "overall" | ElementLevel;

type Collected = {
  info: JudgeInfo;
  pairs: Record<Level, VerdictPair[]>;
  reviewerVerdicts: boolean[][];
  first: Date | null;
  last: Date | null;
};

/** The labels' unanimous verdict on one element, or null when none gave one or they disagree. */
function unanimous(values: boolean[]): boolean | null {
  if (values.length === 0) return null;
  return values.every((v) => v === values[0]) ? values[0]! : null;
}

type ItemRow = Awaited<ReturnType<typeof readItems>>[number];

function readItems(workspaceId: string, suiteId: string) {
  return db.reviewItem.findMany({
    where: { workspaceId, suiteId, status: { not: "open" } },
    orderBy: [{ closedAt: "asc" }, { id: "asc" }],
    select: {
      judgeFingerprint: true,
      judgeInfo: true,
      closedAt: true,
      labels: { select: { verdict: true, elements: true }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] },
      caseResult: {
        select: { status: true, humanVerdict: true, caseSnapshot: true, checkResults: true, outcomeResults: true, metricResults: true },
      },
    },
  });
}

function collect(into: Collected, item: ItemRow): void {
  const r = item.caseResult;
  if (item.labels.length >= 2) into.reviewerVerdicts.push(item.labels.map((l) => l.verdict === "pass"));
  if (item.closedAt && (!into.first || item.closedAt < into.first)) into.first = item.closedAt;
  if (item.closedAt && (!into.last || item.closedAt > into.last)) into.last = item.closedAt;
  if (!r.humanVerdict) return;
  const judge = judgeVerdictOf(r.status);
  if (judge) into.pairs.overall.push({ judge: judge === "pass", human: r.humanVerdict === "pass" });
  const elements = judgedElements(r);
  const labels = item.labels.map((l) => labelElements(l.elements));
  for (const level of ELEMENT_LEVELS) {
    for (const element of elements[level]) {
      if (element.judge_met === null) continue;
      const human = unanimous(labels.flatMap((l) => (element.key in l[level] ? [l[level][element.key]!] : [])));
      if (human !== null) into.pairs[level].push({ judge: element.judge_met, human });
    }
  }
}

function toFingerprint(fingerprint: string, c: Collected, thresholds: { minLabels: number; trustedKappa: number }): Fingerprint {
  const overall = agreementOf(c.pairs.overall);
  const inter = interReviewerAgreement(c.reviewerVerdicts);
  return {
    fingerprint,
    judge: c.info,
    status: judgeStatus(overall, thresholds),
    first_labelled_at: iso(c.first),
    last_labelled_at: iso(c.last),
    levels: {
      overall,
      outcomes: agreementOf(c.pairs.outcomes),
      checks: agreementOf(c.pairs.checks),
      metrics: agreementOf(c.pairs.metrics),
    },
    inter_reviewer: inter && {
      items: inter.items,
      method: inter.method,
      agreement: inter.agreement,
      kappa: inter.kappa,
      kappa_ci95: inter.kappa_ci95,
    },
    disagreements: c.pairs.overall.filter((p) => p.judge !== p.human).length,
  };
}

const emptyCollected = (info: JudgeInfo): Collected => ({
  info,
  pairs: { overall: [], outcomes: [], checks: [], metrics: [] },
  reviewerVerdicts: [],
  first: null,
  last: null,
});

/** The suite's current judge (its fingerprint from today's settings) and its calibration thresholds. */
async function currentJudge(ctx: WorkspaceContext, suiteId: string) {
  requireRole(ctx, "viewer");
  if (!isUuid(suiteId)) throw new NotFoundError("Suite");
  const suite = await db.suite.findFirst({
    where: { id: suiteId, workspaceId: ctx.workspaceId },
    select: {
      metrics: true,
      calibrationMinLabels: true,
      calibrationTrustedKappa: true,
      llmJudgeModelConfig: { select: { name: true, baseUrl: true, model: true } },
    },
  });
  if (!suite) throw new NotFoundError("Suite");
  const judge = suite.llmJudgeModelConfig;
  return {
    ...judgeFingerprint(judge && { name: judge.name, base_url: judge.baseUrl, model: judge.model }, suite.metrics),
    thresholds: { minLabels: suite.calibrationMinLabels, trustedKappa: suite.calibrationTrustedKappa },
  };
}

/** GET /api/v1/suites/{id}/judge-calibration, the suite page's card, the calibration page and the CLI's gate. */
export async function suiteCalibration(ctx: WorkspaceContext, suiteId: string): Promise<JudgeCalibrationDto> {
  const current = await currentJudge(ctx, suiteId);
  const { thresholds } = current;
  const byFingerprint = new Map<string, Collected>([[current.fingerprint, emptyCollected(current.info)]]);
  for (const item of await readItems(ctx.workspaceId, suiteId)) {
    let c = byFingerprint.get(item.judgeFingerprint);
    if (!c) byFingerprint.set(item.judgeFingerprint, (c = emptyCollected(item.judgeInfo as JudgeInfo)));
    collect(c, item);
  }
  const fingerprints = [...byFingerprint].map(([fp, c]) => toFingerprint(fp, c, thresholds));
  const [mine, ...past] = fingerprints;
  past.sort((a, b) => (b.last_labelled_at ?? "").localeCompare(a.last_labelled_at ?? ""));
  return {
    suite_id: suiteId,
    status: mine!.status,
    current_fingerprint: current.fingerprint,
    current_judge: current.info,
    thresholds: { min_labels: thresholds.minLabels, trusted_kappa: thresholds.trustedKappa },
    fingerprints: [mine!, ...past],
  };
}

/**
 * Only the suite's status (the run page's badge): the current judge's overall confusion matrix
 * counted in SQL (index on suiteId, judgeFingerprint), without reading any item's verdicts.
 * Always the status suiteCalibration gives.
 */
export async function suiteJudgeStatus(ctx: WorkspaceContext, suiteId: string): Promise<JudgeCalibrationDto["status"]> {
  const current = await currentJudge(ctx, suiteId);
  const rows = await db.$queryRaw<{ judge: string; human: string; n: number }[]>`
    SELECT c."status"::text AS judge, c."humanVerdict"::text AS human, count(*)::int AS n
    FROM "ReviewItem" i JOIN "CaseResult" c ON c."id" = i."caseResultId" AND c."workspaceId" = i."workspaceId"
    WHERE i."workspaceId" = ${ctx.workspaceId}::uuid AND i."suiteId" = ${suiteId}::uuid AND i."judgeFingerprint" = ${current.fingerprint}
      AND i."status" IN ('agreed', 'resolved') AND c."humanVerdict" IS NOT NULL AND c."status" IN ('passed', 'failed')
    GROUP BY 1, 2`;
  const cell = (judge: string, human: string) => rows.find((r) => r.judge === judge && r.human === human)?.n ?? 0;
  const overall = agreementOfConfusion({
    judge_pass_human_pass: cell("passed", "pass"),
    judge_pass_human_fail: cell("passed", "fail"),
    judge_fail_human_pass: cell("failed", "pass"),
    judge_fail_human_fail: cell("failed", "fail"),
  });
  return judgeStatus(overall, current.thresholds);
}
