"use client";
import { useId, useMemo } from "react";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { diffWordsWithSpace, type ChangeObject } from "diff";
import type { AnswerComparison } from "@/lib/runs/answer-diff";
import { Card } from "@/components/ui/card";
import { Select } from "@/components/ui/field";
import { CASE_STATUS_LABELS } from "./status-badges";
import { formatDateTime, formatNumber } from "./format";

/** Past this much work the word diff gives up (very different long answers): both texts are shown instead. */
const DIFF_TIMEOUT_MS = 300;

/** Words (not spaces) in a diff part. */
const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** A word diff of `before` → `after` and its counts; null when the texts are too different to diff in time. */
export function wordDiff(before: string, after: string) {
  const parts = diffWordsWithSpace(before, after, { timeout: DIFF_TIMEOUT_MS }) as ChangeObject<string>[] | undefined;
  if (!parts) return null;
  let added = 0;
  let removed = 0;
  for (const p of parts) {
    if (p.added) added += wordCount(p.value);
    else if (p.removed) removed += wordCount(p.value);
  }
  return { parts, added, removed };
}

/**
 * A word diff as text: removed words struck through, added ones underlined, each also named in
 * words for screen readers, so colour is never the only signal.
 */
export function WordDiffText({ before, after, label }: { before: string; after: string; label: string }) {
  const diff = useMemo(() => wordDiff(before, after), [before, after]);
  if (before === after) return <p className="text-sm text-slate-600">Identical answers.</p>;
  if (!diff) {
    return (
      <div className="grid gap-2 sm:grid-cols-2">
        <p className="text-sm text-slate-600 sm:col-span-2">The answers are too different to compare word by word; both are shown.</p>
        <p className="relative max-h-64 overflow-auto rounded-md bg-slate-50 p-3 text-sm whitespace-pre-wrap">{before}</p>
        <p className="relative max-h-64 overflow-auto rounded-md bg-slate-50 p-3 text-sm whitespace-pre-wrap">{after}</p>
      </div>
    );
  }
  return (
    <>
      <p className="text-xs text-slate-600" data-testid="answer-diff-counts">
        {formatNumber(diff.added)} {diff.added === 1 ? "word" : "words"} added, {formatNumber(diff.removed)} removed
      </p>
      <p
        tabIndex={0}
        aria-label={label}
        data-testid="answer-diff"
        className="relative max-h-96 overflow-auto rounded-md bg-slate-50 p-3 text-sm break-words whitespace-pre-wrap"
      >
        {diff.parts.map((p, i) =>
          p.added ? (
            <ins key={i} className="bg-green-100 text-green-900 underline decoration-green-700">
              <span className="sr-only">added: </span>
              {p.value}
            </ins>
          ) : p.removed ? (
            <del key={i} className="bg-red-100 text-red-900 line-through decoration-red-700">
              <span className="sr-only">removed: </span>
              {p.value}
            </del>
          ) : (
            <span key={i}>{p.value}</span>
          ),
        )}
      </p>
    </>
  );
}

/**
 * The case view's "Answer compared with another run": this result's final answer as a word diff
 * against the same case in another run (the previous run unless one is picked; the pick is kept in
 * the address as `?against=`).
 */
export function AnswerDiffCard({
  workspaceId,
  answer,
  comparison,
}: {
  workspaceId: string;
  answer: string | null;
  comparison: AnswerComparison;
}) {
  const uid = useId();
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const { candidates, against } = comparison;

  const choose = (runId: string) => {
    const params = new URLSearchParams(search.toString());
    params.set("against", runId);
    router.replace(`${pathname}?${params.toString()}`, { scroll: false });
  };

  return (
    <Card className="space-y-3 p-5" role="region" aria-labelledby={`${uid}-title`}>
      <div className="flex flex-wrap items-end justify-between gap-2">
        <h2 id={`${uid}-title`} className="text-base font-semibold">
          Answer compared with another run
        </h2>
        {candidates.length > 0 && (
          <div className="text-xs text-slate-600">
            <label htmlFor={`${uid}-against`}>Compare with</label>
            <Select
              id={`${uid}-against`}
              className="mt-1 w-64 max-w-full"
              value={against?.run_id ?? ""}
              onChange={(e) => choose(e.target.value)}
            >
              {!against && <option value="">Choose a run</option>}
              {candidates.map((c) => (
                <option key={c.run_id} value={c.run_id}>
                  Run #{c.run_number} · {formatDateTime(c.created_at)} · {CASE_STATUS_LABELS[c.status] ?? c.status}
                </option>
              ))}
            </Select>
          </div>
        )}
      </div>
      {candidates.length === 0 ? (
        <p className="text-sm text-slate-600">No other run of this suite has a result for this case yet.</p>
      ) : !against ? (
        <p className="text-sm text-slate-600">No earlier run has this case; choose a later one to compare with.</p>
      ) : (
        <>
          <p className="text-sm text-slate-600">
            From{" "}
            <Link href={`/w/${workspaceId}/runs/${against.run_id}/cases/${against.result_id}`} className="text-indigo-700 hover:underline">
              run #{against.run_number}
            </Link>
            {comparison.isDefault && " (the previous run)"} to this one.
          </p>
          {against.answer === null ? (
            <p className="text-sm text-slate-600">
              Run #{against.run_number} has no answer for this case{against.error_message ? `: ${against.error_message}` : "."}
            </p>
          ) : answer === null ? (
            <p className="text-sm text-slate-600">This result has no answer to compare.</p>
          ) : (
            <WordDiffText before={against.answer} after={answer} label={`Changes from run #${against.run_number}'s answer to this one`} />
          )}
        </>
      )}
    </Card>
  );
}

/** One arm of a pair: its label, its final answer, and why it has none. */
export type PairAnswer = { label: string; answer: string | null; error: string | null };

/** The pair view's word diff of arm A's final answer against arm B's. */
export function PairAnswerDiff({ a, b }: { a: PairAnswer; b: PairAnswer }) {
  const uid = useId();
  const missing = [a, b].find((side) => side.answer === null);
  return (
    <Card className="space-y-3 p-5" role="region" aria-labelledby={`${uid}-title`}>
      <h2 id={`${uid}-title`} className="text-base font-semibold">
        Final answers compared (A → B)
      </h2>
      {missing ? (
        <p className="text-sm text-slate-600">
          {missing.label} has no answer to compare{missing.error ? `: ${missing.error}` : "."}
        </p>
      ) : (
        <WordDiffText before={a.answer ?? ""} after={b.answer ?? ""} label={`Changes from ${a.label}'s answer to ${b.label}'s`} />
      )}
    </Card>
  );
}
