import type { MetricResult, OutcomeResult, TranscriptMessage } from "@/lib/evaluation/types";
import { citedTurns } from "@/lib/evaluation/transcript";
import { formatDuration, formatScore, prettyJson } from "./format";
import { PassBadge } from "./check-results";
import { Badge } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHeader, TableRow } from "@/components/ui/table";

/**
 * The judge's verdict per expected outcome, with reasoning and links to the turns it cites (the
 * anchors of the Transcript beside it, prefixed alike). Results judged before turns counted
 * exchanges cite message positions; `citedTurns` maps them to the turns holding those messages.
 */
export function OutcomeResults({
  results,
  transcript = [],
  idPrefix = "",
}: {
  results: OutcomeResult[];
  transcript?: TranscriptMessage[];
  idPrefix?: string;
}) {
  if (results.length === 0) return <p className="text-sm text-slate-500">This case has no expected outcomes.</p>;
  return (
    <ul className="space-y-2">
      {results.map((o) => (
        <li key={o.key} className="space-y-1 rounded-md border border-slate-200 p-3" aria-label={`Outcome ${o.label}`}>
          <div className="flex flex-wrap items-center gap-2">
            <span className="text-sm font-medium">{o.label}</span>
            <PassBadge passed={o.passed} passLabel="Met" failLabel="Not met" />
          </div>
          <p className="text-xs text-slate-500">
            Expected:{" "}
            <span className="font-mono text-slate-700">{typeof o.expected === "string" ? o.expected : prettyJson(o.expected)}</span>
          </p>
          {o.reasoning && (
            <p className="text-sm whitespace-pre-wrap text-slate-700">
              <span className="font-medium text-slate-900">Reasoning: </span>
              {o.reasoning}
            </p>
          )}
          <Evidence cited={citedTurns(o, transcript)} idPrefix={idPrefix} />
        </li>
      ))}
    </ul>
  );
}

function Evidence({ cited, idPrefix }: { cited: { turns: number[]; systemPrompt: boolean }; idPrefix: string }) {
  const links = [
    ...(cited.systemPrompt ? [{ href: `#${idPrefix}system-prompt`, label: "system prompt" }] : []),
    ...cited.turns.map((t) => ({ href: `#${idPrefix}turn-${t}`, label: `turn ${t}` })),
  ];
  if (links.length === 0) return null;
  return (
    <p className="text-xs text-slate-600">
      Evidence:{" "}
      {links.map((l, i) => (
        <span key={l.href}>
          {i > 0 && ", "}
          <a href={l.href} className="text-indigo-700 underline">
            {l.label}
          </a>
        </span>
      ))}
    </p>
  );
}

/**
 * The execution model metric results: score vs threshold on the metric's own scale with both normalised to
 * 0..1, retries, evaluation time and model. Results stored before thresholds moved to the metric's
 * scale have no `normalized_score`: their score and threshold are already on 0..1.
 */
export function MetricResults({ results }: { results: MetricResult[] }) {
  if (results.length === 0) return <p className="text-sm text-slate-500">No metrics were evaluated for this case.</p>;
  const passed = results.filter((m) => m.passed).length;
  return (
    <div className="space-y-2">
      <p className="text-xs text-slate-600" data-testid="metrics-passed">
        {passed} of {results.length} metrics passed
      </p>
      <Table variant="plain" density="compact">
        <TableHeader columns={["Metric", "Score", "Threshold", "Result", "Retries", "Time", "Model"]} />
        <TableBody className="align-top">
          {results.map((m) => {
            const onScale = m.normalized_score !== undefined;
            return (
              <TableRow key={m.metric_name}>
                <TableCell className="font-medium">
                  {m.metric_name}
                  {m.reasoning && <p className="mt-0.5 max-w-md text-xs font-normal whitespace-pre-wrap text-slate-600">{m.reasoning}</p>}
                  {m.error && <p className="mt-0.5 max-w-md text-xs font-normal text-amber-800">Evaluation error: {m.error}</p>}
                </TableCell>
                <TableCell className="tabular-nums">
                  {onScale ? (
                    <>
                      {m.score === null ? "—" : `${m.score} / ${m.scale}`}
                      {m.normalized_score !== null && (
                        <span className="block text-xs text-slate-500">normalised {formatScore(m.normalized_score)}</span>
                      )}
                    </>
                  ) : (
                    <>
                      {formatScore(m.score)}
                      {m.raw_score !== null && m.scale !== null && (
                        <span className="block text-xs text-slate-500">
                          {m.raw_score} / {m.scale}
                        </span>
                      )}
                    </>
                  )}
                </TableCell>
                <TableCell className="tabular-nums">
                  {m.threshold === null ? "—" : onScale ? `${formatThreshold(m.threshold)} / ${m.scale}` : formatScore(m.threshold)}
                  {onScale && m.normalized_threshold != null && (
                    <span className="block text-xs text-slate-500">normalised {formatScore(m.normalized_threshold)}</span>
                  )}
                </TableCell>
                <TableCell>{m.passed === null ? <Badge tone="amber">Not evaluated</Badge> : <PassBadge passed={m.passed} />}</TableCell>
                <TableCell className="tabular-nums">{m.retry_count}</TableCell>
                <TableCell className="tabular-nums">{formatDuration(m.evaluation_time_ms)}</TableCell>
                <TableCell className="font-mono text-xs">{m.model_used ?? "—"}</TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </div>
  );
}

const formatThreshold = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(2));
