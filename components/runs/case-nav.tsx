"use client";
import { useEffect } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { CaseNeighbours, CaseTableFilters } from "@/lib/runs/dto";
import { withCaseTableParams } from "@/lib/runs/case-table-location";
import { buttonClass } from "@/components/ui/button";
import { formatNumber } from "./format";

/** The run page's list the case was opened from (its filters, search and order) and the case's place in it. */
export type CaseNavData = { list: CaseTableFilters; neighbours: CaseNeighbours };

/** The keys that move between cases (none with a modifier, none while typing). */
const KEYS: Record<string, "nextFailure" | "prevFailure" | "nextCase"> = {
  j: "nextFailure",
  "]": "nextFailure",
  k: "prevFailure",
  "[": "prevFailure",
  n: "nextCase",
};

/** Whether a key press belongs to a field the user is typing in (or to a shortcut of the browser's). */
function isTyping(e: KeyboardEvent): boolean {
  if (e.ctrlKey || e.metaKey || e.altKey) return true;
  const el = e.target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName);
}

function Step({ href, shortcut, children }: { href: string | null; shortcut: string; children: React.ReactNode }) {
  if (!href) {
    return (
      <span aria-disabled="true" className={`${buttonClass("secondary", "sm")} cursor-not-allowed opacity-50`}>
        {children}
      </span>
    );
  }
  return (
    <Link href={href} aria-keyshortcuts={shortcut} className={buttonClass("secondary", "sm")}>
      {children}
    </Link>
  );
}

/**
 * Moving through a run's failures without going back to the run: previous and next failure,
 * next case, in the order and under the filters of the run page's list the case was opened from
 * (the row links carry them; the neighbours are resolved in SQL), with "3 of 40 failures", the
 * keys j / k (or ] / [) and n, and "Back to the run", which opens the list as it was, on this case's
 * page.
 */
export function CaseNav({
  workspaceId,
  runId,
  nav,
  failed,
}: {
  workspaceId: string;
  runId: string;
  nav: CaseNavData;
  /** This case failed (so it is one of the list's failures). */
  failed: boolean;
}) {
  const router = useRouter();
  const { list, neighbours: n } = nav;
  const caseHref = (id: string | null) =>
    id ? withCaseTableParams(`/w/${workspaceId}/runs/${runId}/cases/${id}`, list, { page: false }) : null;
  const hrefs = { nextFailure: caseHref(n.nextFailure), prevFailure: caseHref(n.prevFailure), nextCase: caseHref(n.nextCase) };
  const backHref = withCaseTableParams(`/w/${workspaceId}/runs/${runId}`, { ...list, page: n.page });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = KEYS[e.key];
      if (!target || isTyping(e)) return;
      const href = hrefs[target];
      if (!href) return;
      e.preventDefault();
      router.push(href);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  const isFailure = failed && n.index !== null;
  return (
    <nav aria-label="Case navigation" className="flex flex-wrap items-center gap-2">
      <Link href={backHref} className={buttonClass("secondary", "sm")}>
        ← Back to the run
      </Link>
      <Step href={hrefs.prevFailure} shortcut="k">
        ← Previous failure
      </Step>
      <Step href={hrefs.nextFailure} shortcut="j">
        Next failure →
      </Step>
      <Step href={hrefs.nextCase} shortcut="n">
        Next case →
      </Step>
      <p className="text-sm text-slate-700 tabular-nums" data-testid="case-nav-position">
        {failureText(n, isFailure)}
        {n.index !== null && (
          <span className="text-slate-500">
            {" "}
            · case {formatNumber(n.index)} of {formatNumber(n.total)}
          </span>
        )}
      </p>
      <p className="hidden text-xs text-slate-500 sm:block">
        Keys: <kbd className="font-mono">j</kbd>/<kbd className="font-mono">k</kbd> next/previous failure,{" "}
        <kbd className="font-mono">n</kbd> next case
      </p>
    </nav>
  );
}

/** "3 of 40 failures" on a failure; "40 failures in this list" elsewhere; "No failures in this list". */
function failureText(n: CaseNeighbours, isFailure: boolean): string {
  if (n.failures === 0) return "No failures in this list";
  if (isFailure) return `${formatNumber(n.failureIndex)} of ${formatNumber(n.failures)} failures`;
  return `${formatNumber(n.failures)} ${n.failures === 1 ? "failure" : "failures"} in this list`;
}
