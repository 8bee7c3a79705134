"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { workspaceAction } from "@/lib/actions/safe-action";
import { getAgent } from "@/lib/agents/service";
import { listModelConfigOptions } from "@/lib/model-configs/service";
import { getSuite } from "@/lib/suites/service";
import { listSuiteTags, listTestCases } from "@/lib/test-cases/service";
import { testCaseListQuery } from "@/lib/test-cases/schemas";
import { createComparison } from "@/lib/comparisons/service";
import type { VariableDefinition, VariableValue } from "@/lib/agents/schemas";
import { cancelMatrix, combinationRuns, createMatrix } from "./service";
import { combinationLabel } from "./combinations";

/**
 * Server actions of the matrix pages: what the Matrix dialog offers when it opens, create,
 * cancel, and "Compare" between two combinations (a compare-two-runs comparison). All go
 * through the services, which check the workspace and the role.
 */

/** What the Matrix dialog offers: the agent's variables (with the suite's values), model names, tags and the active case count. */
export type MatrixOptions = {
  variables: VariableDefinition[];
  suite_values: Record<string, VariableValue>;
  model_configs: { id: string; name: string; model: string }[];
  tags: string[];
  active_cases: number;
  /** The suite's default trials: where the dialog's "Trials per combination" starts. */
  default_trials: number;
};

const suiteRef = z.object({ suite_id: z.uuid("Unknown suite") });

export const matrixOptionsAction = workspaceAction(suiteRef, "editor", async ({ suite_id }, ctx): Promise<MatrixOptions> => {
  const suite = await getSuite(ctx, suite_id);
  const [agent, modelConfigs, tags, cases] = await Promise.all([
    getAgent(ctx, suite.agent_id),
    listModelConfigOptions(ctx),
    listSuiteTags(ctx, suite_id),
    listTestCases(ctx, suite_id, testCaseListQuery.parse({ limit: 1 })),
  ]);
  return {
    variables: agent.variables_schema,
    suite_values: suite.variables,
    model_configs: modelConfigs,
    tags,
    active_cases: cases.counts.active,
    default_trials: suite.default_trials,
  };
});

/** Starts a matrix of the suite. `input` is validated by the service, so issue paths are the body's (`variables.Temperature`). */
export const createMatrixAction = workspaceAction(
  z.object({ suite_id: z.uuid("Unknown suite"), input: z.unknown() }),
  "editor",
  async ({ suite_id, input }, ctx) => {
    const matrix = await createMatrix(ctx, suite_id, input ?? {}, "manual");
    revalidatePath(`/w/${ctx.workspaceId}/suites/${suite_id}`, "layout");
    return { id: matrix.id };
  },
);

export const cancelMatrixAction = workspaceAction(z.object({ id: z.uuid("Unknown matrix") }), "editor", async ({ id }, ctx) => {
  const matrix = await cancelMatrix(ctx, id);
  revalidatePath(`/w/${ctx.workspaceId}/matrices/${id}`);
  return { id: matrix.id, status: matrix.status };
});

/** Compares two completed combinations as an A/B comparison of their runs; returns the comparison id. */
export const compareCombinationsAction = workspaceAction(
  z.object({
    matrix_id: z.uuid("Unknown matrix"),
    baseline_index: z.number().int().min(0),
    variant_index: z.number().int().min(0),
  }),
  "editor",
  async ({ matrix_id, baseline_index, variant_index }, ctx) => {
    const picked = await combinationRuns(ctx, matrix_id, [baseline_index, variant_index]);
    const comparison = await createComparison(ctx, picked.suiteId, {
      name: `${picked.name}: ${combinationLabel(picked.baseline.values)} vs ${combinationLabel(picked.variant.values)}`.slice(0, 255),
      baseline_run_id: picked.baseline.run_id,
      variant_run_id: picked.variant.run_id,
    });
    revalidatePath(`/w/${ctx.workspaceId}/suites/${picked.suiteId}`, "layout");
    return { id: comparison.id };
  },
);
