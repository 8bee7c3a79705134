"use client";
import { useId, useState } from "react";
import { useSelection } from "@/components/ui/use-selection";
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { ConversationSummaryDto } from "@/lib/traffic/dto";
import { draftCasesFromConversationsAction } from "@/lib/traffic/actions";
import { Table, TableBody, TableCell, TableEmpty, TableHeader, TableRow } from "@/components/ui/table";
import { Badge } from "@/components/ui/card";
import { LaunchDialog, LaunchForm } from "@/components/ui/launch-dialog";
import { DraftSuiteField, draftSuiteOptions } from "./draft-suite-field";
import { formatDateTime, formatDuration, formatNumber } from "@/components/runs/format";

type Report = Extract<Awaited<ReturnType<typeof draftCasesFromConversationsAction>>, { ok: true }>["data"];

const preview = (text: string | null) => (text ? (text.length > 120 ? `${text.slice(0, 119)}…` : text) : "—");

/**
 * A page of conversations, newest first. Editors tick conversations and draft one case each into
 * a suite (status draft), with a report of what was drafted and what could not be.
 */
export function ConversationList({
  workspaceId,
  rows,
  canEdit,
  filtered,
}: {
  workspaceId: string;
  rows: ConversationSummaryDto[];
  canEdit: boolean;
  filtered: boolean;
}) {
  const { selected, toggle, select } = useSelection();
  const allOnPage = rows.length > 0 && rows.every((r) => selected.has(r.id));
  const columns = [
    ...(canEdit ? [{ label: "Select", srOnly: true }] : []),
    "Conversation",
    "Service",
    "Turns",
    "Tools",
    "Tokens",
    "Latency",
    "Started",
  ];
  return (
    <div className="space-y-3">
      {canEdit && rows.length > 0 && (
        <div className="flex flex-wrap items-center gap-3">
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={allOnPage} onChange={() => select(allOnPage ? [] : rows.map((r) => r.id))} />
            Select all on this page
          </label>
          <span className="text-sm text-slate-600" aria-live="polite">
            {selected.size} selected
          </span>
          <BulkDraftDialog workspaceId={workspaceId} ids={[...selected]} onDone={() => select([])} />
        </div>
      )}
      <Table density="compact" caption="Conversations, newest first">
        <TableHeader columns={columns} />
        <TableBody>
          {rows.length === 0 && (
            <TableEmpty colSpan={columns.length}>
              {filtered
                ? "No conversation matches these filters."
                : "No traffic yet: point an agent's OpenTelemetry exporter at Assay (below)."}
            </TableEmpty>
          )}
          {rows.map((r) => (
            <TableRow key={r.id} className="hover:bg-slate-50">
              {canEdit && (
                <TableCell>
                  <input
                    type="checkbox"
                    aria-label={`Select ${preview(r.first_user_message)}`}
                    checked={selected.has(r.id)}
                    onChange={() => toggle(r.id)}
                  />
                </TableCell>
              )}
              <TableCell className="max-w-md">
                <Link href={`/w/${workspaceId}/traffic/${r.id}`} className="font-medium text-indigo-600 hover:underline">
                  {preview(r.first_user_message)}
                </Link>
                {r.has_error && (
                  <Badge tone="red" className="ml-2">
                    error
                  </Badge>
                )}
              </TableCell>
              <TableCell className="whitespace-nowrap">
                {r.service_name ?? "—"}
                {r.agent && <span className="block text-xs text-slate-500">{r.agent.name}</span>}
              </TableCell>
              <TableCell className="tabular-nums">{r.user_turns}</TableCell>
              <TableCell className="text-xs">{r.tool_names.length > 0 ? r.tool_names.join(", ") : "—"}</TableCell>
              <TableCell className="whitespace-nowrap tabular-nums">
                {formatNumber(r.input_tokens)} / {formatNumber(r.output_tokens)}
              </TableCell>
              <TableCell className="whitespace-nowrap tabular-nums">{formatDuration(r.latency_ms)}</TableCell>
              <TableCell className="whitespace-nowrap">{formatDateTime(r.started_at)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

function BulkDraftDialog({ workspaceId, ids, onDone }: { workspaceId: string; ids: string[]; onDone: () => void }) {
  const router = useRouter();
  const uid = useId();
  const [suiteId, setSuiteId] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [report, setReport] = useState<{ suiteId: string; data: Report } | null>(null);
  return (
    <LaunchDialog
      label={`Draft ${ids.length === 1 ? "a case" : `${ids.length} cases`} in a suite…`}
      variant="secondary"
      size="sm"
      disabled={ids.length === 0}
      title="Draft cases from conversations"
      description="One case per conversation, saved as a draft in the suite for review. Several user turns make a simulated-user case drafted by the suite's judge model."
      onOpen={() => {
        setError(null);
        setReport(null);
      }}
      options={draftSuiteOptions(workspaceId)}
    >
      {(suites) => {
        const selected = suiteId || suites[0]?.id || "";
        if (report) {
          return (
            <div className="space-y-3 px-5 pb-5 text-sm" role="status">
              <p>
                {report.data.created.length} draft {report.data.created.length === 1 ? "case" : "cases"} created
                {report.data.failed.length > 0 ? `, ${report.data.failed.length} could not be drafted` : ""}.
              </p>
              <ul className="max-h-64 list-disc space-y-1 overflow-y-auto pl-5">
                {report.data.created.map((c) => (
                  <li key={c.test_case_id}>
                    <Link href={`/w/${workspaceId}/suites/${report.suiteId}/cases/${c.test_case_id}`} className="text-indigo-700 underline">
                      {c.name}
                    </Link>{" "}
                    ({c.kind === "persona" ? "simulated user" : "single question"}
                    {c.drafted.length > 0 ? `; drafted: ${c.drafted.join(", ")}` : ""}){c.notes.length > 0 && ` — ${c.notes.join(" ")}`}
                  </li>
                ))}
                {report.data.failed.map((f) => (
                  <li key={f.conversation_id} className="text-red-700">
                    Conversation {f.conversation_id.slice(0, 8)}: {f.message}
                  </li>
                ))}
              </ul>
            </div>
          );
        }
        return (
          <LaunchForm
            onSubmit={async (e) => {
              e.preventDefault();
              if (!selected) return;
              setPending(true);
              setError(null);
              try {
                const result = await draftCasesFromConversationsAction(workspaceId, {
                  suite_id: selected,
                  conversation_ids: ids,
                  draft: true,
                });
                if (!result.ok) {
                  setError([result.error, ...result.issues.map((i) => i.message)].join(": "));
                  return;
                }
                setReport({ suiteId: selected, data: result.data });
                onDone();
                router.refresh();
              } finally {
                setPending(false);
              }
            }}
            pending={pending}
            error={error}
            submitLabel={`Draft ${ids.length === 1 ? "1 case" : `${ids.length} cases`}`}
            pendingLabel="Drafting…"
            submitDisabled={!selected}
          >
            <DraftSuiteField id={`${uid}-suite`} suites={suites} value={selected} onChange={setSuiteId} />
          </LaunchForm>
        );
      }}
    </LaunchDialog>
  );
}
