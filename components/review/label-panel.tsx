"use client";
import { useEffect, useEffectEvent, useRef, useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { labelReviewItemAction } from "@/lib/review/actions";
import { ELEMENT_LEVELS, type ElementLevel } from "@/lib/review/elements";
import type { ReviewItemDetail, ReviewLabelDto } from "@/lib/review/dto";
import type { HumanVerdictValue } from "@/lib/review/schemas";
import type { IssueList } from "@/lib/errors";
import { Button, buttonClass } from "@/components/ui/button";
import { Badge } from "@/components/ui/card";
import { FormError, TextareaField } from "@/components/ui/field";
import { cn } from "@/components/ui/cn";
import { ElementToggle, nextElementValue, type ElementValue } from "./element-toggle";
import { ShortcutsDialog } from "./shortcuts-dialog";
import { VerdictBadge, verdictLabel } from "./format";

/**
 * The labelling view's right column, built for speed: the overall verdict, a verdict per judged
 * element, a comment and Save, all on the keyboard (p/f, 1–9, c, Enter/s, j/k, ?). Blind: the
 * judge's side arrives with the item only once the member labelled it (the server leaves it out
 * before), and then shows beside the member's own label.
 */

type Values = Record<ElementLevel, Record<string, boolean>>;

const LEVEL_TITLES: Record<ElementLevel, string> = { outcomes: "Expected outcomes", checks: "Judge checks", metrics: "Metrics" };

/** The member's own label of the item (their reviewer id is their user id). */
const ownLabel = (item: ReviewItemDetail, userId: string | null) =>
  item.labels.find((l) => l.reviewer.type === "user" && l.reviewer.id === userId) ?? null;

function initialValues(label: ReviewLabelDto | null): Values {
  return { outcomes: { ...label?.outcomes }, checks: { ...label?.checks }, metrics: { ...label?.metrics } };
}

/** Text fields keep their keys: a shortcut never fires while the member types. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !["radio", "checkbox", "button", "submit"].includes(target.type);
}

const metLabel = (v: boolean | null | undefined) => (v === true ? "Met" : v === false ? "Not met" : "Not judged");

export type LabelPanelProps = {
  workspaceId: string;
  item: ReviewItemDetail;
  userId: string | null;
  /** Editors and above label and assign; viewers read. */
  canLabel: boolean;
  previousHref: string | null;
  nextHref: string | null;
  /** "12 of 40", or null when the item is not in the filtered queue. */
  progress: string | null;
  /** Extra sections (assignment, resolution) below the label. */
  children?: React.ReactNode;
};

export function LabelPanel({ workspaceId, item: loaded, userId, canLabel, previousHref, nextHref, progress, children }: LabelPanelProps) {
  const router = useRouter();
  const [saved, setSaved] = useState<ReviewItemDetail | null>(null);
  const item = saved ?? loaded;
  const mine = ownLabel(item, userId);
  const [verdict, setVerdict] = useState<HumanVerdictValue | null>(mine?.verdict ?? null);
  const [values, setValues] = useState<Values>(() => initialValues(mine));
  const [comment, setComment] = useState(mine?.comment ?? "");
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [issues, setIssues] = useState<IssueList>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const shortcutsRef = useRef<HTMLDialogElement>(null);

  const editable = canLabel && item.status === "open";
  const elements = ELEMENT_LEVELS.flatMap((level) => item.elements[level].map((e) => ({ level, element: e })));
  const issueAt = (path: string) => issues.find((i) => i.path === path)?.message;

  const setElement = (level: ElementLevel, key: string, v: ElementValue) =>
    setValues((prev) => {
      const next = { ...prev[level] };
      if (v === undefined) delete next[key];
      else next[key] = v;
      return { ...prev, [level]: next };
    });

  const save = async () => {
    if (!editable || saving) return;
    setSaving(true);
    setError(null);
    setIssues([]);
    setNotice(null);
    // No verdict yet is sent as is: the server names the missing field.
    const result = await labelReviewItemAction(workspaceId, {
      id: item.id,
      verdict: verdict as HumanVerdictValue,
      ...values,
      comment,
    });
    setSaving(false);
    if (!result.ok) {
      setError(result.error);
      setIssues(result.issues);
      return;
    }
    setSaved(result.data);
    setNotice("Label saved");
    // The nav's waiting count and the queue follow.
    router.refresh();
  };

  const onKey = useEffectEvent((e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
    if (shortcutsRef.current?.open) return;
    const key = e.key;
    const onControl = e.target instanceof HTMLElement && e.target.closest("button, a, summary, select") !== null;
    if (key === "?") {
      e.preventDefault();
      shortcutsRef.current?.showModal();
    } else if (key === "j" && nextHref) {
      router.push(nextHref);
    } else if (key === "k" && previousHref) {
      router.push(previousHref);
    } else if (!editable) {
      return;
    } else if (key === "p" || key === "f") {
      setVerdict(key === "p" ? "pass" : "fail");
    } else if (/^[1-9]$/.test(key)) {
      const target = elements[Number(key) - 1];
      if (target) setElement(target.level, target.element.key, nextElementValue(values[target.level][target.element.key]));
    } else if (key === "c") {
      e.preventDefault();
      document.getElementById("review-comment")?.focus();
    } else if (key === "s" || (key === "Enter" && !onControl)) {
      e.preventDefault();
      void save();
    }
  });
  useEffect(() => {
    const listener = (e: KeyboardEvent) => onKey(e);
    window.addEventListener("keydown", listener);
    return () => window.removeEventListener("keydown", listener);
  }, []);

  return (
    <div className="space-y-4">
      <nav aria-label="Review queue" className="flex flex-wrap items-center justify-between gap-2 text-sm">
        {previousHref ? (
          <Link href={previousHref} className={buttonClass("secondary", "sm")}>
            ← Previous
          </Link>
        ) : (
          <span />
        )}
        <span className="text-slate-600" data-testid="review-progress">
          {progress ?? "Not in this queue"}
        </span>
        {nextHref ? (
          <Link href={nextHref} className={buttonClass("secondary", "sm")}>
            Next →
          </Link>
        ) : (
          <span />
        )}
      </nav>

      <section aria-labelledby="your-label" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="your-label" className="text-base font-semibold">
            {editable ? "Your label" : "Labels"}
          </h2>
          <Button variant="ghost" size="sm" onClick={() => shortcutsRef.current?.showModal()}>
            Keyboard shortcuts (?)
          </Button>
        </div>
        {!canLabel && <p className="text-sm text-slate-600">Viewers read review items; editors label them.</p>}
        {item.status !== "open" && <ClosedVerdict item={item} />}

        {editable && (
          <fieldset aria-describedby={issueAt("verdict") ? "verdict-error" : undefined}>
            <legend className="text-sm font-medium text-slate-700">Verdict</legend>
            <div className="mt-1 flex gap-2">
              {(["pass", "fail"] as const).map((v) => (
                <label
                  key={v}
                  className={cn(
                    "flex cursor-pointer items-center gap-2 rounded-md border px-4 py-2 text-sm font-medium has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500",
                    verdict === v
                      ? v === "pass"
                        ? "border-green-600 bg-green-50 text-green-800"
                        : "border-red-600 bg-red-50 text-red-800"
                      : "border-slate-300 bg-white text-slate-700",
                  )}
                >
                  <input type="radio" name="verdict" className="sr-only" checked={verdict === v} onChange={() => setVerdict(v)} />
                  {verdictLabel(v)}
                  <kbd aria-hidden="true" className="font-mono text-xs text-slate-500">
                    {v[0]}
                  </kbd>
                </label>
              ))}
            </div>
            {issueAt("verdict") && (
              <p id="verdict-error" className="mt-1 text-xs text-red-600">
                {issueAt("verdict")}
              </p>
            )}
          </fieldset>
        )}

        {ELEMENT_LEVELS.map((level) =>
          item.elements[level].length === 0 ? null : (
            <div key={level} className="space-y-2">
              <h3 className="text-sm font-medium text-slate-700">{LEVEL_TITLES[level]}</h3>
              <ol className="space-y-2">
                {item.elements[level].map((el) => {
                  const n = elements.findIndex((x) => x.level === level && x.element.key === el.key) + 1;
                  const path = `${level}.${el.key}`;
                  return (
                    <li key={el.key} className="rounded-md border border-slate-200 p-2 text-sm">
                      <div className="flex flex-wrap items-start justify-between gap-2">
                        <p className="min-w-48 flex-1 break-words">
                          {n <= 9 && (
                            <kbd aria-hidden="true" className="mr-1.5 font-mono text-xs text-slate-500">
                              {n}
                            </kbd>
                          )}
                          {el.label}
                          {level === "outcomes" && el.expected === false && (
                            <span className="text-slate-500"> (expected not to happen)</span>
                          )}
                        </p>
                        {editable ? (
                          <ElementToggle
                            name={`${item.id}-${path}`}
                            label={`${n}. ${el.label}`}
                            value={values[level][el.key]}
                            onChange={(v) => setElement(level, el.key, v)}
                          />
                        ) : (
                          mine && <span className="text-xs text-slate-600">You: {metLabel(mine[level][el.key])}</span>
                        )}
                      </div>
                      {issueAt(path) && <p className="mt-1 text-xs text-red-600">{issueAt(path)}</p>}
                      {item.judge_revealed && (
                        <p className="mt-1 text-xs text-slate-600">
                          <span className="font-medium">Judge: {metLabel(el.judge_met)}</span>
                          {el.judge_reasoning ? ` — ${el.judge_reasoning}` : ""}
                        </p>
                      )}
                    </li>
                  );
                })}
              </ol>
            </div>
          ),
        )}

        {editable && (
          <>
            <TextareaField
              id="review-comment"
              label="Comment"
              error={issueAt("comment")}
              value={comment}
              onChange={(e) => setComment(e.target.value)}
              placeholder="Why (optional; press c to write, Esc then s to save)"
              onKeyDown={(e) => {
                if (e.key === "Escape") (e.target as HTMLTextAreaElement).blur();
              }}
            />
            <div className="flex flex-wrap items-center gap-3">
              <Button onClick={() => void save()} disabled={saving}>
                {saving ? "Saving…" : mine ? "Update label" : "Save label"}
              </Button>
              {notice && (
                <span role="status" className="text-sm text-green-700">
                  {notice}
                </span>
              )}
            </div>
            <FormError message={error} />
          </>
        )}
      </section>

      {item.judge_revealed ? (
        <JudgeComparison item={item} mine={mine} />
      ) : (
        <p className="rounded-md border border-dashed border-slate-300 bg-slate-50 p-3 text-sm text-slate-600">
          The judge&apos;s verdict is hidden until you label this item, so it does not sway you.
        </p>
      )}
      {children}
      <ShortcutsDialog ref={shortcutsRef} />
    </div>
  );
}

/** A closed item's outcome: the human verdict (agreed, or an admin's resolution) and the labels. */
function ClosedVerdict({ item }: { item: ReviewItemDetail }) {
  return (
    <div className="space-y-1 text-sm">
      <p>
        Human verdict: <VerdictBadge verdict={item.human_verdict} />
      </p>
      {item.resolution && (
        <p className="text-slate-600">
          Resolved as {verdictLabel(item.resolution.verdict)}
          {item.resolution.comment ? `: ${item.resolution.comment}` : ""}
        </p>
      )}
    </div>
  );
}

/** After labelling: the judge's overall verdict beside the member's, and every reviewer's label. */
function JudgeComparison({ item, mine }: { item: ReviewItemDetail; mine: ReviewLabelDto | null }) {
  const judge = item.judge_verdict;
  const agrees = mine && judge !== "error" ? mine.verdict === judge : null;
  return (
    <section aria-labelledby="judge-verdict" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="judge-verdict" className="text-base font-semibold">
        Judge&apos;s verdict
      </h2>
      <dl className="grid grid-cols-2 gap-3 text-sm">
        <div>
          <dt className="text-slate-600">Judge</dt>
          <dd data-testid="judge-overall">
            <VerdictBadge verdict={judge} />
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">You</dt>
          <dd>
            <VerdictBadge verdict={mine?.verdict} />
          </dd>
        </div>
      </dl>
      {agrees !== null && (agrees ? <Badge tone="green">Agrees</Badge> : <Badge tone="amber">Overturned</Badge>)}
      {item.judge_result?.failure_reasons && item.judge_result.failure_reasons.length > 0 && (
        <ul className="list-disc space-y-0.5 pl-5 text-xs text-slate-600">
          {item.judge_result.failure_reasons.map((r, i) => (
            <li key={i}>{String(r)}</li>
          ))}
        </ul>
      )}
      {item.labels.length > 0 && (
        <div>
          <h3 className="text-sm font-medium text-slate-700">
            Labels ({item.labels.length} of {item.required_reviews} needed)
          </h3>
          <ul className="mt-1 space-y-1 text-sm">
            {item.labels.map((l) => (
              <li key={l.id} className="flex flex-wrap items-baseline gap-2">
                <span className="font-medium">{l.reviewer.name ?? "Unknown reviewer"}</span>
                <VerdictBadge verdict={l.verdict} />
                {l.comment && <span className="text-slate-600">{l.comment}</span>}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
