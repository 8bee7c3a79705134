import Link from "next/link";
import { runMetadataView } from "@/lib/runs/metadata";
import { cn } from "@/components/ui/cn";
import { experimentLabel, type ExperimentRef } from "./format";

/**
 * Where a run comes from, compactly: branch, short commit (the whole id in its title) and a
 * build link. The build URL is the caller's text: linked only when it is http(s), and then as
 * an outside link that learns nothing from Assay (no opener, no referrer) and passes no rank.
 * `full` adds the run's other metadata keys (the run page).
 */
export function RunMetadata({
  metadata,
  full = false,
  fallback = null,
  className,
}: {
  metadata: Record<string, string> | null | undefined;
  full?: boolean;
  /** Shown when there is nothing to show. */
  fallback?: React.ReactNode;
  className?: string;
}) {
  const m = runMetadataView(metadata);
  const parts: React.ReactNode[] = [];
  if (m.branch)
    parts.push(
      <span key="branch" className="break-all" title={`Branch ${m.branch}`}>
        <span className="sr-only">Branch </span>
        {m.branch}
      </span>,
    );
  if (m.commit)
    parts.push(
      <span key="commit" title={`Commit ${m.commit}`}>
        <span className="sr-only">Commit </span>
        <code className="font-mono text-[0.9em] break-all">{m.shortCommit}</code>
      </span>,
    );
  if (m.buildHref)
    parts.push(
      <a
        key="build"
        href={m.buildHref}
        target="_blank"
        rel="noopener noreferrer nofollow"
        aria-label="Build (opens the CI build in a new tab)"
        className="text-indigo-600 hover:underline"
      >
        Build ↗
      </a>,
    );
  else if (m.buildUrl)
    parts.push(
      <span key="build" className="break-all">
        Build {m.buildUrl}
      </span>,
    );
  if (full)
    for (const [key, value] of m.others)
      parts.push(
        <span key={`x-${key}`} className="break-all">
          {key}: {value}
        </span>,
      );
  if (parts.length === 0) return fallback;
  return (
    <span className={cn("inline-flex flex-wrap items-center gap-x-1.5 gap-y-0.5", className)}>
      {parts.flatMap((p, i) =>
        i === 0
          ? [p]
          : [
              <span key={`sep-${i}`} aria-hidden className="text-slate-400">
                ·
              </span>,
              p,
            ],
      )}
    </span>
  );
}

/**
 * "Comparison arm B" → its comparison, "Matrix combination 3" → its matrix: an experiment run
 * named by what it belongs to. Nothing for an ordinary run.
 */
export function ExperimentLink({ workspaceId, run, className }: { workspaceId: string; run: ExperimentRef; className?: string }) {
  const label = experimentLabel(run);
  if (!label) return null;
  const href = run.comparison_id ? `/w/${workspaceId}/comparisons/${run.comparison_id}` : `/w/${workspaceId}/matrices/${run.matrix_id}`;
  return (
    <Link
      href={href}
      className={cn(
        "inline-flex rounded px-1.5 py-0.5 text-xs font-medium hover:underline",
        run.comparison_id ? "bg-indigo-100 text-indigo-800" : "bg-emerald-100 text-emerald-800",
        className,
      )}
      title={run.comparison_id ? "Open the A/B comparison this run is an arm of" : "Open the matrix run this run is a combination of"}
    >
      {label}
    </Link>
  );
}
