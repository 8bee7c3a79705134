"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { workspaceAction } from "@/lib/actions/safe-action";
import { ValidationError } from "@/lib/errors";
import { listAgents } from "@/lib/agents/service";
import { listModelConfigOptions } from "@/lib/model-configs/service";
import { getSuite } from "@/lib/suites/service";
import { listSuiteTags, listTestCases } from "@/lib/test-cases/service";
import { testCaseListQuery, DIFFICULTIES } from "@/lib/test-cases/schemas";
import { getRun, listRuns } from "@/lib/runs/service";
import type { RunDto } from "@/lib/runs/dto";
import { listPresets } from "@/lib/presets/service";
import type { VariableDefinition } from "@/lib/agents/schemas";
import { cancelComparison, createComparison } from "./service";

/**
 * Server actions of the comparison pages: create (the Compare dialog and "Compare with…"),
 * cancel, and the reads the two dialogs need when they open (so the suite and run pages load
 * nothing for a dialog that is never opened). All go through the comparison, agent, suite and
 * run services, which check the workspace and the role.
 */

/** What the Compare dialog offers per arm. */
export type CompareAgentOption = {
  id: string;
  name: string;
  kind: "chat" | "http";
  system_prompt: string | null;
  model_config_id: string | null;
  variables_schema: VariableDefinition[];
};
export type CompareOptions = {
  suite_agent_id: string;
  agents: CompareAgentOption[];
  model_configs: { id: string; name: string; model: string }[];
  tags: string[];
  /** The suite's variable presets (the variables model): choosing one fills an arm's variables. */
  presets: { id: string; name: string; values: Record<string, string | number | boolean> }[];
  /** The suite's own variable values: what an arm's variable resolves to when the arm leaves it empty. */
  suite_values: Record<string, string | number | boolean>;
};

/** A completed run the "Compare with…" dialog offers. */
export type ComparableRun = {
  id: string;
  number: number;
  created_at: string;
  completed_at: string | null;
  pass_rate: number;
  total_cases: number;
  /** For an experiment: what it was ("arm B of a comparison", "matrix combination 3"); null for the suite's history. */
  experiment: string | null;
};

const suiteRef = z.object({ suite_id: z.uuid("Unknown suite") });

/** Agents (with their prompts, to prefill the arms), model configurations and tags for the Compare dialog. */
export const compareOptionsAction = workspaceAction(suiteRef, "editor", async ({ suite_id }, ctx): Promise<CompareOptions> => {
  const [suite, agents, modelConfigs, tags, presets] = await Promise.all([
    getSuite(ctx, suite_id),
    listAgents(ctx, { limit: 200 }),
    listModelConfigOptions(ctx),
    listSuiteTags(ctx, suite_id),
    listPresets(ctx, suite_id),
  ]);
  return {
    suite_agent_id: suite.agent_id,
    agents: agents.data.map((a) => ({
      id: a.id,
      name: a.name,
      kind: a.kind,
      system_prompt: a.system_prompt,
      model_config_id: a.model_config_id,
      variables_schema: a.variables_schema,
    })),
    model_configs: modelConfigs,
    tags,
    presets: presets.map((p) => ({ id: p.id, name: p.name, values: p.values })),
    suite_values: suite.variables,
  };
});

/** Active cases the dialog's tag/difficulty selection would run (the estimate before starting). */
export const countComparisonCasesAction = workspaceAction(
  suiteRef.extend({
    tags: z.array(z.string().max(200)).max(50).default([]),
    tag_match: z.enum(["any", "all"]).default("any"),
    difficulty: z.enum(DIFFICULTIES).nullish(),
  }),
  "viewer",
  async ({ suite_id, tags, tag_match, difficulty }, ctx) => {
    const page = await listTestCases(
      ctx,
      suite_id,
      testCaseListQuery.parse({ tag: tags, tag_match, difficulty: difficulty ?? undefined, limit: 1 }),
    );
    return page.counts.active;
  },
);

/**
 * Creates a comparison of the suite. `input` is validated by the service (executeComparisonInput
 * or compareRunsInput), so issue paths are the body's (`baseline.temperature`, `repetitions`).
 */
export const createComparisonAction = workspaceAction(
  z.object({ suite_id: z.uuid("Unknown suite"), input: z.unknown() }),
  "editor",
  async ({ suite_id, input }, ctx) => {
    const comparison = await createComparison(ctx, suite_id, input ?? {});
    revalidatePath(`/w/${ctx.workspaceId}/suites/${suite_id}`, "layout");
    return { id: comparison.id };
  },
);

/**
 * The other completed runs of a run's suite for "Compare with…": its history (ordinary runs,
 * newest first), then its experiments, labelled. The default choice is the history run before
 * this one (else the newest history run); experiments are never chosen by default.
 */
export const comparableRunsAction = workspaceAction(
  z.object({ run_id: z.uuid("Unknown run") }),
  "editor",
  async ({ run_id }, ctx): Promise<{ suite_id: string; runs: ComparableRun[]; default_run_id: string | null }> => {
    const run = await getRun(ctx, run_id);
    if (run.status !== "completed") throw new ValidationError("Only a completed run can be compared");
    const [history, experiments] = await Promise.all(
      (["ordinary", "experiment"] as const).map((kind) => listRuns(ctx, run.suite_id, { status: "completed", kind, limit: 50 })),
    );
    const toComparable = (r: RunDto): ComparableRun => ({
      id: r.id,
      number: r.number,
      created_at: r.created_at!,
      completed_at: r.completed_at,
      pass_rate: r.pass_rate,
      total_cases: r.total_cases,
      experiment: experimentLabel(r),
    });
    const others = history!.data.filter((r) => r.id !== run.id);
    const previous = others.find((r) => r.created_at! < run.created_at!) ?? others[0] ?? null;
    return {
      suite_id: run.suite_id,
      runs: [...others, ...experiments!.data.filter((r) => r.id !== run.id)].map(toComparable),
      default_run_id: previous?.id ?? null,
    };
  },
);

/** What an experiment run was, for a list that names runs; null for a run of the suite's history. */
function experimentLabel(r: Pick<RunDto, "comparison_id" | "arm_index" | "matrix_id" | "combination_index">): string | null {
  if (r.comparison_id) return `comparison arm ${r.arm_index === 0 ? "A" : r.arm_index === 1 ? "B" : (r.arm_index ?? 0) + 1}`;
  if (r.matrix_id) return `matrix combination ${(r.combination_index ?? 0) + 1}`;
  return null;
}

/** Cancels a pending or running comparison: no new pairs start; running ones finish or abort. */
export const cancelComparisonAction = workspaceAction(z.object({ id: z.uuid("Unknown comparison") }), "editor", async ({ id }, ctx) => {
  const comparison = await cancelComparison(ctx, id);
  revalidatePath(`/w/${ctx.workspaceId}/suites/${comparison.suite_id}`, "layout");
  revalidatePath(`/w/${ctx.workspaceId}/comparisons/${id}`);
  return { id: comparison.id, status: comparison.status };
});
