import { z } from "zod";
import { featurePart, outputComponents, type OpenApiPart } from "@/lib/api/openapi-kit";
import { conflict, errors, idParam, list, listParameters, ok, ref } from "@/lib/api/openapi-paths";
import { CHANGE_CAUSES } from "@/lib/runs/changes";
import { alertListQuery } from "./schemas";

/**
 * The REST contract of regression alerts and baseline pinning: the alert resource and the paths.
 */

const iso = z.iso.datetime();

export const flippedCase = z.object({
  test_case_id: z.uuid(),
  name: z.string(),
  from: z.literal("passed"),
  to: z.enum(["failed", "error"]),
  case_result_id: z.uuid().describe("The case's result in the alerted run"),
  case_changed: z.boolean().describe("The case's content (what it sends and how it is judged) differs from the baseline's"),
  cause: z
    .enum(CHANGE_CAUSES)
    .nullable()
    .describe("test: the case or the evaluation changed; agent: the agent changed; both; neither: possibly flaky"),
  flaky: z
    .enum(["trials", "history"])
    .optional()
    .describe(
      "Set on flaky_cases only: the case both passed and failed across its trials in either run (trials), or its verdict flipped in ≥ 30% of its last 10 results (history)",
    ),
});

export const alertActor = z.object({ type: z.enum(["user", "api_key"]), id: z.uuid(), name: z.string().nullable() });

export const alertResource = z
  .object({
    id: z.uuid(),
    suite_id: z.uuid(),
    suite_name: z.string(),
    run_id: z.uuid().describe("The run whose pass rate dropped"),
    run_number: z.number().int().describe("The run's number within its suite (#42)"),
    run_metadata: z.record(z.string(), z.string()).describe("Where the run comes from, as its caller said (commit, branch, build_url, …)"),
    baseline_run_id: z
      .uuid()
      .nullable()
      .describe("The run it was compared with: the pinned baseline or the previous run with the same case selection"),
    baseline_run_number: z.number().int().nullable(),
    agent_changed: z
      .boolean()
      .describe("The agent configuration (prompt, tools, model, parameters, variable values) differs from the baseline's"),
    evaluation_changed: z
      .boolean()
      .describe(
        "The suite's evaluation settings (judge and simulator models, metrics) differ from the baseline's: counted as the test changing",
      ),
    explanation: z
      .string()
      .describe(
        "Why the verdicts flipped, in one sentence (the alert's first line), e.g. that every flip follows a case edit; empty when no case flipped",
      ),
    previous_pass_rate: z
      .number()
      .describe(
        "The baseline's pass@1, in percent: the mean over executed cases of the share of trials that passed (errors count as not passing)",
      ),
    pass_rate: z.number().describe("The run's pass@1, in percent (with one trial per case: its pass rate)"),
    drop_points: z.number().describe("previous_pass_rate − pass_rate, in percentage points"),
    flipped_cases: z
      .array(flippedCase)
      .describe(
        "Regressions: cases that passed in the baseline and did worse in this run (with trials: a smaller share of passing trials), flaky ones left out (at most 1,000)",
      ),
    flaky_cases: z
      .array(flippedCase)
      .describe(
        "Cases that did worse but are flaky (by their trials in either run, or by their history): listed apart, not counted as regressions",
      ),
    acknowledged_at: iso.nullable(),
    acknowledged_by: alertActor.nullable().describe("The member or API key that acknowledged the alert"),
    created_at: iso,
  })
  .describe("A regression alert: a completed run's pass rate dropped by at least the suite's threshold");

export const baselinePin = z.object({ suite_id: z.uuid(), baseline_run_id: z.uuid().nullable() });

function paths() {
  const alerts = ["Alerts"];
  return {
    "/api/v1/alerts": {
      get: {
        operationId: "listAlerts",
        tags: alerts,
        summary: "List regression alerts (newest first)",
        description: "Role: viewer.",
        parameters: listParameters(alertListQuery, {
          suite_id: "Only this suite's alerts",
          acknowledged: "true: acknowledged alerts only; false: open alerts only; absent: both",
        }),
        responses: { "200": list("Alert"), ...errors },
      },
    },
    "/api/v1/alerts/{id}/acknowledge": {
      parameters: [idParam],
      post: {
        operationId: "acknowledgeAlert",
        tags: alerts,
        summary: "Acknowledge an alert",
        description:
          "Role: viewer (any member: acknowledging records that someone looked, it changes no data). Records who (the key) and when; acknowledging again keeps the first acknowledgement.",
        responses: { "200": ok("The acknowledged Alert", ref("Alert")), ...errors },
      },
    },
    "/api/v1/runs/{id}/pin-baseline": {
      parameters: [idParam],
      post: {
        operationId: "pinBaselineRun",
        tags: alerts,
        summary: "Pin a run as its suite's regression baseline",
        description:
          "Role: editor. Later runs over the same case selection are compared with this run instead of their previous run. 409 when the run is not completed or belongs to a comparison.",
        responses: { "200": ok("The suite's baseline", ref("BaselinePin")), ...errors, ...conflict },
      },
      delete: {
        operationId: "unpinBaselineRun",
        tags: alerts,
        summary: "Unpin a run as its suite's baseline",
        description: "Role: editor. A no-op when the run is not the suite's baseline; answers with the suite's baseline afterwards.",
        responses: { "200": ok("The suite's baseline", ref("BaselinePin")), ...errors },
      },
    },
  };
}

export function alertsOpenApi(): OpenApiPart {
  return featurePart(
    "Alerts",
    "Regression alerts: a completed run whose pass rate dropped by at least the suite's threshold (percentage points) against its baseline — the pinned run, " +
      "else the previous completed run over the same case selection — with the cases that flipped from passed to failed or error. Read/acknowledge: viewer; pin a baseline: editor.",
    {
      paths: paths(),
      schemas: outputComponents({ Alert: alertResource, BaselinePin: baselinePin }),
    },
  );
}
