"use client";
import { useId, useState } from "react";
import type { FieldDiff } from "@/lib/runs/changes";
import type { RunChangeDetails } from "@/lib/runs/dto";
import { useRunChangeDetails } from "@/lib/runs/hooks";
import { Button } from "@/components/ui/button";
import { LineDiffView, diffCounts } from "@/components/ui/line-diff";
import { fieldLabel, presentDiff } from "./change-format";

/**
 * The changes card's "What changed": a disclosure button that, when opened, reads the field-by-
 * field diff (GET …/changes/details) and shows the agent's changes (the system prompt as a line
 * diff, other fields before → after), the evaluation settings' changes and, per edited case that
 * flipped, its changed fields. Every value is user data and is rendered as text.
 */
export function ChangeDetailsDisclosure({
  workspaceId,
  runId,
  since,
  flips,
}: {
  workspaceId: string;
  runId: string;
  /** "run #41": what the run is compared with. */
  since: string;
  /** How many verdicts flipped so far (a live run's new flips read the details again). */
  flips: number;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const query = useRunChangeDetails(workspaceId, runId, { enabled: open, flips });
  return (
    <div className="border-t border-slate-100 pt-3">
      <Button
        variant="secondary"
        size="sm"
        className="max-w-full"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
      >
        <span aria-hidden="true" className={open ? "inline-block rotate-90" : "inline-block"}>
          ▸
        </span>
        What changed
      </Button>
      <div id={panelId} role="region" aria-label={`What changed since ${since}`} hidden={!open} className="mt-3 space-y-4">
        {!open ? null : query.isError ? (
          <div className="flex flex-wrap items-center gap-2 text-sm text-red-700">
            <p>Could not load what changed: {query.error.message}</p>
            <Button variant="secondary" size="sm" onClick={() => void query.refetch()}>
              Try again
            </Button>
          </div>
        ) : !query.data ? (
          <p role="status" className="text-sm text-slate-500">
            Loading what changed…
          </p>
        ) : (
          <DetailsBody details={query.data} since={since} />
        )}
      </div>
    </div>
  );
}

function DetailsBody({ details, since }: { details: RunChangeDetails; since: string }) {
  const edited = details.case_fields.filter((c) => c.fields.length > 0);
  return (
    <>
      <FieldGroup title="Agent" fields={details.agent_fields} unchanged={unchangedLine("agent", details.agent_changed, since)} />
      <FieldGroup
        title="Evaluation settings"
        fields={details.evaluation_fields}
        unchanged={unchangedLine("evaluation settings", details.evaluation_changed, since)}
      />
      {edited.length > 0 && (
        <section aria-label="Edited cases" className="space-y-3">
          <h3 className="text-sm font-semibold text-slate-800">Edited cases</h3>
          {edited.map((c) => (
            <FieldGroup key={c.test_case_id} title={c.name} level={4} fields={c.fields} unchanged="" />
          ))}
        </section>
      )}
    </>
  );
}

/**
 * The line for a group with no field that differs. The content hash can still differ (it covers a
 * little more than the listed fields, e.g. a parameter moved from the model configuration to an
 * override): then say so rather than "the same".
 */
function unchangedLine(what: "agent" | "evaluation settings", hashChanged: boolean, since: string): string {
  if (!hashChanged) return `The ${what} ${what === "agent" ? "is" : "are"} the same as in ${since}.`;
  return `The ${what} ${what === "agent" ? "differs" : "differ"} from ${since} in a setting not listed field by field here.`;
}

/** A titled list of changed fields, or a line saying nothing changed. */
function FieldGroup({ title, fields, unchanged, level = 3 }: { title: string; fields: FieldDiff[]; unchanged: string; level?: 3 | 4 }) {
  const Heading = level === 3 ? "h3" : "h4";
  return (
    <section aria-label={title} className="min-w-0 space-y-2">
      <Heading className={level === 3 ? "text-sm font-semibold text-slate-800" : "text-sm font-medium break-words text-slate-800"}>
        {title}
      </Heading>
      {fields.length === 0 ? (
        <p className="text-sm text-slate-500">{unchanged}</p>
      ) : (
        <dl className="space-y-3">
          {fields.map((f) => (
            <FieldChange key={f.field} diff={f} />
          ))}
        </dl>
      )}
    </section>
  );
}

const valueBlock =
  "max-h-60 overflow-auto rounded-md border border-slate-200 bg-slate-50 p-2 font-mono text-xs leading-5 break-words whitespace-pre-wrap";

/** One field: a line diff, before/after blocks, or "before → after". */
function FieldChange({ diff }: { diff: FieldDiff }) {
  const label = fieldLabel(diff.field);
  const shown = presentDiff(diff);
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-slate-600">
        {label}
        {shown.kind === "text" && shown.lines && <DiffCounts lines={shown.lines} />}
      </dt>
      <dd className="mt-1 min-w-0">
        {shown.kind === "inline" ? (
          <p className="text-sm break-words">
            <span className="rounded bg-red-50 px-1 text-red-800">
              <span className="sr-only">Before: </span>
              {shown.before}
            </span>{" "}
            <span aria-hidden="true">→</span>{" "}
            <span className="rounded bg-green-50 px-1 text-green-800">
              <span className="sr-only">After: </span>
              {shown.after}
            </span>
          </p>
        ) : shown.kind === "text" && shown.lines ? (
          <LineDiffView diff={shown.lines} label={`${label}: line diff`} className="max-h-72" />
        ) : (
          <div className="grid gap-2 md:grid-cols-2">
            {(["before", "after"] as const).map((side) => (
              <div key={side} className="min-w-0">
                <p className="text-xs text-slate-500">{side === "before" ? "Before" : "After"}</p>
                <pre aria-label={`${label} ${side}`} className={valueBlock}>
                  {shown[side]}
                </pre>
              </div>
            ))}
          </div>
        )}
      </dd>
    </div>
  );
}

function DiffCounts({ lines }: { lines: Parameters<typeof diffCounts>[0] }) {
  const { added, removed } = diffCounts(lines);
  return (
    <span className="ml-2 font-normal text-slate-500">
      <span className="text-green-700">+{added}</span> / <span className="text-red-700">−{removed}</span> lines
    </span>
  );
}
