/**
 * The run report's JUnit XML (./report.ts reads the rows and the header's counts): one testcase
 * per test case, its trials by Maven Surefire's rerun convention.
 */
import type { ReportRow, Meta, MetricResult, ToolCallResults } from "./report";
import { fileLine, oneLine, type TrialFigures } from "./report-lines";

// XML 1.0 forbids most control characters even when escaped.
// eslint-disable-next-line no-control-regex
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
export function escapeXml(s: string): string {
  return s
    .replace(INVALID_XML, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** The JUnit header's counts: one test per test case (its trials together), by outcome, and the summed duration. */
export type JunitTotals = { tests: number; failed: number; errors: number; skipped: number; duration_ms: number };

/** The run's cost in USD as a testsuite property, when it is known. */
function junitCostProperty(m: Meta): string {
  const total = m.run.cost?.total;
  return total == null ? "" : `<property name="cost_usd" value="${total}"/>`;
}

/** The trial figures as testsuite properties, for runs of several trials (a one-trial run's header is as it always was). */
function junitTrialProperties(m: Meta): string {
  const s = m.summary as TrialFigures;
  if (m.run.trials <= 1 || s.pass_at_1 === undefined) return "";
  const props: [string, unknown][] = [
    ["trials", m.run.trials],
    ["pass_at_1", s.pass_at_1],
    ["pass_at_1_ci95_low", s.pass_at_1_ci95?.[0] ?? null],
    ["pass_at_1_ci95_high", s.pass_at_1_ci95?.[1] ?? null],
    ["pass_at_k", s.pass_at_k],
    ["pass_all_k", s.pass_all_k],
    ["flaky_cases", s.flaky_cases],
  ];
  return props.map(([name, value]) => `<property name="${name}" value="${value}"/>`).join("");
}

/**
 * JUnit XML for CI, one testcase per test case: a case of one trial as it always was (failed →
 * <failure>, error → <error>, skipped → <skipped/>); a case of several trials by Maven
 * Surefire's rerun convention (`junitCaseGroup`), which CI reporters that read Surefire show.
 */
export async function* junitReport(m: Meta, t: JunitTotals, pages: AsyncIterable<ReportRow[][]>) {
  const time = (t.duration_ms / 1000).toFixed(3);
  const counts = `tests="${t.tests}" failures="${t.failed}" errors="${t.errors}" skipped="${t.skipped}" time="${time}"`;
  const suiteName = escapeXml(`${m.suiteName}`);
  yield [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="Assay" ${counts}>`,
    `  <testsuite name="${suiteName}" ${counts} timestamp="${escapeXml(m.run.started_at ?? m.run.created_at ?? "")}">`,
    `    <properties><property name="run_id" value="${m.run.id}"/><property name="agent" value="${escapeXml(m.agentName)}"/><property name="pass_rate" value="${m.run.pass_rate}"/>${junitCostProperty(m)}${junitTrialProperties(m)}</properties>`,
    "",
  ].join("\n");
  for await (const page of pages) yield page.map((trials) => `${junitCaseGroup(suiteName, trials)}\n`).join("");
  yield "  </testsuite>\n</testsuites>\n";
}

/** The opening `<testcase …>` of a case (its processed files as properties), `ms` its time. */
function junitOpen(suiteName: string, r: ReportRow, ms: number): string {
  const name = escapeXml(r.variant === "variant" ? `${r.name} [variant]` : r.name);
  const files = r.processed_files.length
    ? `<properties>${r.processed_files.map((f) => `<property name="file" value="${escapeXml(fileLine(f))}"/>`).join("")}</properties>`
    : "";
  return `    <testcase classname="${suiteName}" name="${name}" time="${(ms / 1000).toFixed(3)}">${files}`;
}

/** One `<testcase>` line for a single result. */
function junitCase(suiteName: string, r: ReportRow, ms = r.duration_ms ?? 0): string {
  const open = junitOpen(suiteName, r, ms);
  const reason = escapeXml(failureReason(r));
  if (r.status === "passed") return `${open}</testcase>`;
  if (r.status === "skipped") return `${open}<skipped message="${reason}"/></testcase>`;
  if (r.status === "error")
    return `${open}<error message="${reason}" type="${escapeXml(r.error_type ?? "error")}">${escapeXml(r.error_message ?? "")}</error></testcase>`;
  if (r.status === "failed")
    return `${open}<failure message="${reason}" type="assertion">${escapeXml(failureDetails(r))}</failure></testcase>`;
  return `${open}<skipped message="not finished (${r.status})"/></testcase>`;
}

const EXECUTED = new Set(["passed", "failed", "error"]);

/**
 * One `<testcase>` line for a case's trials (in trial order), its time their sum. One trial: as
 * `junitCase`. Several, by Maven Surefire's rerun elements:
 * - passed in some trial: a passing testcase with a `<flakyFailure>` per failed trial and a
 *   `<flakyError>` per errored one (none when every judged trial passed);
 * - never passed, failed in some trial: `<failure>` for the first failed trial, then a
 *   `<rerunFailure>` / `<rerunError>` per other executed trial;
 * - every executed trial errored: `<error>` for the first, `<rerunError>` for the rest;
 * - never executed: the first trial as `junitCase` writes it (skipped or not finished).
 * Each element's message names its trial; the details go in Surefire's `<stackTrace>`.
 */
function junitCaseGroup(suiteName: string, trials: ReportRow[]): string {
  const first = trials[0];
  if (!first) return "";
  if (trials.length === 1) return junitCase(suiteName, first);
  const ms = trials.reduce((sum, r) => sum + (r.duration_ms ?? 0), 0);
  const executed = trials.filter((r) => EXECUTED.has(r.status));
  if (executed.length === 0) return junitCase(suiteName, first, ms);
  const label = (r: ReportRow) => `Trial ${r.trial + 1} of ${trials.length}: `;
  const open = junitOpen(suiteName, first, ms);
  if (executed.some((r) => r.status === "passed")) {
    const flaky = executed
      .filter((r) => r.status !== "passed")
      .map((r) => rerunElement(r.status === "failed" ? "flakyFailure" : "flakyError", r, label(r)));
    return `${open}${flaky.join("")}</testcase>`;
  }
  const primary = executed.find((r) => r.status === "failed") ?? executed[0]!;
  const main =
    primary.status === "failed"
      ? `<failure message="${escapeXml(label(primary) + failureReason(primary))}" type="assertion">${escapeXml(failureDetails(primary))}</failure>`
      : `<error message="${escapeXml(label(primary) + failureReason(primary))}" type="${escapeXml(primary.error_type ?? "error")}">${escapeXml(primary.error_message ?? "")}</error>`;
  const reruns = executed
    .filter((r) => r !== primary)
    .map((r) => rerunElement(r.status === "failed" ? "rerunFailure" : "rerunError", r, label(r)));
  return `${open}${main}${reruns.join("")}</testcase>`;
}

/** A Surefire flaky or rerun element for a failed or errored trial: message and type attributes, the details as its `<stackTrace>`. */
function rerunElement(tag: "flakyFailure" | "flakyError" | "rerunFailure" | "rerunError", r: ReportRow, label: string): string {
  const failed = r.status === "failed";
  const type = failed ? "assertion" : (r.error_type ?? "error");
  const details = failed ? failureDetails(r) : (r.error_message ?? "");
  return `<${tag} message="${escapeXml(label + failureReason(r))}" type="${escapeXml(type)}"><stackTrace>${escapeXml(details)}</stackTrace></${tag}>`;
}

function failureReason(r: ReportRow): string {
  if (r.error_message) return oneLine(r.error_message, 300);
  if (r.failure_reasons.length) return oneLine(r.failure_reasons.join("; "), 300);
  const outcomes = (r.outcome_results as { passed: boolean; label: string }[])
    .filter((o) => !o.passed)
    .map((o) => `outcome "${o.label}" not met`);
  const checks = (r.check_results as { passed: boolean; check_type: string }[])
    .filter((c) => !c.passed)
    .map((c) => `${c.check_type} check failed`);
  const metrics = (r.metric_results as MetricResult[]).filter((m) => m.passed === false).map((m) => `${m.metric_name} below threshold`);
  const tools = (r.tool_call_results as ToolCallResults)?.passed === false ? ["tool calls did not match"] : [];
  return [...outcomes, ...checks, ...tools, ...metrics].join("; ") || r.status;
}

function failureDetails(r: ReportRow): string {
  return [failureReason(r), "", `Response: ${r.actual_response ?? ""}`].join("\n");
}
