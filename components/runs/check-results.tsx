import type { CheckResult, ToolCallResults } from "@/lib/evaluation/types";
import type { Check } from "@/lib/test-cases/schemas";
import { Badge } from "@/components/ui/card";
import { formatScore } from "./format";
import { JsonBlock } from "./json-block";

const CHECK_LABELS: Record<string, string> = {
  contains_phrases: "Contains phrases",
  semantic_similarity: "Semantic similarity",
  llm_judge: "LLM judge",
};

export function PassBadge({
  passed,
  passLabel = "Passed",
  failLabel = "Failed",
}: {
  passed: boolean;
  passLabel?: string;
  failLabel?: string;
}) {
  return <Badge tone={passed ? "green" : "red"}>{passed ? passLabel : failLabel}</Badge>;
}

function Phrases({ label, phrases, tone }: { label: string; phrases: string[]; tone: "green" | "red" }) {
  return (
    <div className="flex flex-wrap items-center gap-1 text-xs">
      <span className="text-slate-500">{label}:</span>
      {phrases.length === 0 ? (
        <span className="text-slate-500">none</span>
      ) : (
        phrases.map((p, i) => (
          <Badge key={`${p}-${i}`} tone={tone}>
            {p}
          </Badge>
        ))
      )}
    </div>
  );
}

/** The reference schema check results with their details, next to the check as it was configured. */
export function CheckResults({ results, checks, mode }: { results: CheckResult[]; checks: Check[]; mode: string | null }) {
  if (results.length === 0) return <p className="text-sm text-slate-500">This case has no checks.</p>;
  return (
    <div className="space-y-2">
      {results.length > 1 && (
        <p className="text-xs text-slate-500">Mode: {mode === "any" ? "any check may pass" : "every check must pass"}</p>
      )}
      <ul className="space-y-2">
        {results.map((r) => {
          const check = checks[r.check_index];
          const d = r.details ?? {};
          return (
            <li
              key={r.check_index}
              className="space-y-1.5 rounded-md border border-slate-200 p-3"
              aria-label={`Check ${r.check_index + 1}`}
            >
              <div className="flex flex-wrap items-center gap-2">
                <span className="text-sm font-medium">{CHECK_LABELS[r.check_type] ?? r.check_type}</span>
                <PassBadge passed={r.passed} />
                {d.error && <Badge tone="amber">Judge error</Badge>}
              </div>
              {r.check_type === "contains_phrases" && (
                <>
                  <Phrases label="Matched" phrases={d.matched_phrases ?? []} tone="green" />
                  <Phrases label="Missing" phrases={d.missing_phrases ?? []} tone="red" />
                  <p className="text-xs text-slate-500">{d.case_sensitive ? "Case-sensitive" : "Case-insensitive"}</p>
                </>
              )}
              {r.check_type === "semantic_similarity" && (
                <p className="text-sm">
                  Similarity <span className="font-medium tabular-nums">{formatScore(d.similarity_score)}</span>{" "}
                  {d.similarity_score !== undefined && d.threshold !== undefined ? (d.similarity_score >= d.threshold ? "≥" : "<") : "vs"}{" "}
                  threshold <span className="font-medium tabular-nums">{formatScore(d.threshold)}</span>
                </p>
              )}
              {r.check_type === "llm_judge" && d.judgement && (
                <p className="text-sm">
                  Verdict: <span className="font-medium">{d.judgement}</span>
                </p>
              )}
              {d.reasoning && <p className="text-sm whitespace-pre-wrap text-slate-700">{d.reasoning}</p>}
              {d.error && <p className="text-sm text-amber-800">{d.error}</p>}
              {check && "expected_answer" in check && (
                <p className="text-xs text-slate-500">
                  Expected answer: <span className="text-slate-700">{check.expected_answer}</span>
                  {check.type === "llm_judge" && check.criteria ? ` · Criteria: ${check.criteria}` : ""}
                </p>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function CallList({
  title,
  tone,
  items,
}: {
  title: string;
  tone: "green" | "red" | "amber";
  items: { key: string; tool: string; lines: [string, unknown][]; note?: string }[];
}) {
  if (items.length === 0) return null;
  return (
    <section aria-label={title} className="space-y-1.5">
      <h4 className="text-xs font-semibold text-slate-500 uppercase">
        {title} ({items.length})
      </h4>
      <ul className="space-y-1.5">
        {items.map((it) => (
          <li key={it.key} className="rounded-md border border-slate-200 p-2">
            <div className="flex items-center gap-2">
              <Badge tone={tone} className="font-mono">
                {it.tool}
              </Badge>
              {it.note && <span className="text-xs text-slate-600">{it.note}</span>}
            </div>
            {it.lines.map(([label, value]) => (
              <div key={label} className="mt-1">
                <p className="text-xs text-slate-500">{label}</p>
                {value === null || value === undefined ? (
                  <p className="text-xs text-slate-500">{label.startsWith("Expected") ? "any" : "none"}</p>
                ) : (
                  <JsonBlock value={value} className="max-h-48" />
                )}
              </div>
            ))}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Expected vs actual tool calls: matched, missing, unexpected and forbidden calls with arguments. */
export function ToolCallResultsView({ results }: { results: ToolCallResults | null }) {
  if (!results) return <p className="text-sm text-slate-500">This case has no tool call expectations.</p>;
  return (
    <div className="space-y-3">
      <div className="flex items-center gap-2">
        <PassBadge passed={results.passed} passLabel="Matched" failLabel="Did not match" />
        <span className="text-xs text-slate-500">{results.ordered ? "Order-sensitive" : "Any order"}</span>
      </div>
      <CallList
        title="Matched"
        tone="green"
        items={results.matched.map((m, i) => ({
          key: `m${i}`,
          tool: m.tool,
          lines: [
            ["Expected params", m.expected_params],
            ["Actual arguments", m.actual_arguments],
          ],
        }))}
      />
      <CallList
        title="Missing"
        tone="red"
        items={results.missing.map((m, i) => ({
          key: `x${i}`,
          tool: m.tool,
          note: m.reason,
          lines: [["Expected params", m.expected_params]],
        }))}
      />
      <CallList
        title="Forbidden but called"
        tone="red"
        items={results.forbidden_called.map((m, i) => ({ key: `f${i}`, tool: m.tool, lines: [["Arguments", m.arguments]] }))}
      />
      <CallList
        title="Unexpected"
        tone="amber"
        items={results.unexpected.map((m, i) => ({ key: `u${i}`, tool: m.tool, lines: [["Arguments", m.arguments]] }))}
      />
    </div>
  );
}
