import Link from "next/link";
import type { ArmDto, ArmExecutedDto, ComparisonDto } from "@/lib/comparisons/dto";
import { runLabel } from "@/lib/runs/dto";
import { Badge, Section } from "@/components/ui/card";
import { ORDERING_LABELS, SOURCE_LABELS } from "./format";

/** How each arm was configured: label, agent, model and the overrides given, side by side. */
export function ArmsCard({ workspaceId, comparison }: { workspaceId: string; comparison: ComparisonDto }) {
  const arms = comparison.arms;
  const c = comparison;
  const retry = c.retry && Object.keys(c.retry).length > 0 ? c.retry : null;
  const selection = c.selection ?? {};
  return (
    <Section
      title="Configuration"
      description={
        <>
          {SOURCE_LABELS[c.source] ?? c.source}
          {c.source === "executed" && (
            <>
              {" · "}
              {ORDERING_LABELS[c.ordering] ?? c.ordering}
              {c.ordering === "sequential" && `, reset window ${c.reset_window_ms} ms`}
              {c.ordering === "randomized" && `, seed ${c.seed}`}
              {` · ${c.repetitions} ${c.repetitions === 1 ? "repetition" : "repetitions"} · concurrency ${c.concurrency}`}
              {retry &&
                ` · retries: ${retry.max_attempts} attempts, ${retry.initial_delay_ms} ms × ${retry.backoff_factor}, timeout ${retry.timeout_ms} ms`}
            </>
          )}
        </>
      }
    >
      <div className="grid gap-3 md:grid-cols-2">
        {arms.map((arm, i) => (
          <ArmBlock key={i} workspaceId={workspaceId} arm={arm} letter={i === 0 ? "A" : i === 1 ? "B" : String(i + 1)} />
        ))}
      </div>
      {c.source === "executed" && (selection.tags?.length || selection.difficulty || selection.case_ids?.length) ? (
        <p className="mt-3 text-xs text-slate-600">
          Cases:
          {selection.tags?.length ? ` tags ${selection.tags.join(", ")} (${selection.tag_match === "all" ? "all" : "any"})` : ""}
          {selection.difficulty ? ` · difficulty ${selection.difficulty}` : ""}
          {selection.case_ids?.length ? ` · ${selection.case_ids.length} chosen cases` : ""}
        </p>
      ) : null}
      {c.notes && <p className="mt-3 text-sm whitespace-pre-wrap text-slate-700">{c.notes}</p>}
    </Section>
  );
}

function ArmBlock({ workspaceId, arm, letter }: { workspaceId: string; arm: ArmDto; letter: string }) {
  const overrides: [string, React.ReactNode][] = [];
  if (arm.model_config_id) overrides.push(["Model configuration", "overridden"]);
  if (arm.temperature !== null && arm.temperature !== undefined) overrides.push(["Temperature", String(arm.temperature)]);
  if (arm.max_tokens !== null && arm.max_tokens !== undefined) overrides.push(["Max tokens", String(arm.max_tokens)]);
  if (arm.variables && Object.keys(arm.variables).length > 0) {
    overrides.push([
      "Variables",
      <code key="v" className="text-xs break-all">
        {JSON.stringify(arm.variables)}
      </code>,
    ]);
  }
  const resolved = arm.resolved ?? {};
  return (
    <div className="space-y-2 rounded-md border border-slate-200 p-3" data-testid={`arm-${arm.role}`}>
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={letter === "A" ? "slate" : "indigo"}>{letter}</Badge>
        <span className="font-medium text-slate-900">{arm.label}</span>
        <span className="text-xs text-slate-500">{arm.role}</span>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-500">Agent</dt>
        <dd className="text-slate-800">{resolved.agent_name ?? (arm.agent_id ? "another agent" : "the suite's agent")}</dd>
        <dt className="text-slate-500">Model</dt>
        <dd className="break-all text-slate-800">
          {resolved.model ?? "—"}
          {resolved.base_url && <span className="text-xs text-slate-500"> · {resolved.base_url}</span>}
        </dd>
        {arm.executed && <RanWith arm={arm} executed={arm.executed} />}
        {overrides.map(([k, v]) => (
          <Override key={k} label={k} value={v} />
        ))}
        {arm.run_id && (
          <>
            <dt className="text-slate-500">Run</dt>
            <dd>
              <Link href={`/w/${workspaceId}/runs/${arm.run_id}`} className="text-indigo-600 hover:underline">
                {arm.run_number === null ? "Open the run" : `Run ${runLabel({ number: arm.run_number })}`}
              </Link>
            </dd>
          </>
        )}
      </dl>
      {arm.system_prompt !== null && arm.system_prompt !== undefined && (
        <details className="text-sm">
          <summary className="cursor-pointer text-slate-700">
            System prompt <Badge tone="amber">overridden</Badge>
          </summary>
          <pre className="mt-1 max-h-48 overflow-auto rounded-md bg-slate-50 p-2 font-mono text-xs whitespace-pre-wrap">
            {arm.system_prompt}
          </pre>
        </details>
      )}
    </div>
  );
}

/**
 * What the arm's agent calls really named (model, temperature, max tokens), read back from the
 * recorded calls; a model other than the requested one is flagged, since every figure of the
 * comparison depends on it.
 */
function RanWith({ arm, executed }: { arm: ArmDto; executed: ArmExecutedDto }) {
  const requested = arm.resolved?.kind === "chat" ? (arm.resolved.model ?? null) : null;
  const unexpected = requested ? executed.models.filter((m) => m.model !== requested) : [];
  return (
    <>
      <dt className="text-slate-500">Ran with</dt>
      <dd className="text-slate-800" data-testid={`arm-${arm.role}-executed`}>
        {executed.agent_calls === 0 ? (
          <span className="text-slate-500">no agent calls yet</span>
        ) : (
          <ul className="space-y-0.5">
            {executed.models.map((m, i) => (
              <li key={i} className="break-all">
                {m.model ?? "—"}
                <span className="text-xs text-slate-500">
                  {m.temperature !== null && ` · temperature ${m.temperature}`}
                  {m.max_tokens !== null && ` · max tokens ${m.max_tokens}`}
                  {` · ${m.calls} agent ${m.calls === 1 ? "call" : "calls"}`}
                </span>
              </li>
            ))}
          </ul>
        )}
        {unexpected.length > 0 && (
          <p className="mt-1 text-xs text-amber-800">
            Requested {requested}, but {unexpected.reduce((n, m) => n + m.calls, 0)} agent calls named another model.
          </p>
        )}
      </dd>
    </>
  );
}

function Override({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <>
      <dt className="text-slate-500">{label}</dt>
      <dd className="text-slate-800">{value}</dd>
    </>
  );
}
