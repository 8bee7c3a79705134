import { z } from "zod";
import { paginationQuery } from "@/lib/api/query";
import { variableValue } from "@/lib/agents/schemas";
import { startRunInput } from "@/lib/runs/schemas";
import { TEXT_LIMITS } from "@/lib/validation/limits";
import { combinationCount, describeValue } from "./combinations";

/**
 * Request and query schemas of the matrix routes (the variables model). No `server-only`:
 * the OpenAPI builder and the Matrix dialog import them too.
 */

export const MATRIX_STATUSES = ["pending", "running", "completed", "cancelled", "failed"] as const;
export type MatrixStatus = (typeof MATRIX_STATUSES)[number];

/** At most this many combinations (runs) per matrix: the cartesian product of the axes. */
export const MAX_COMBINATIONS = 32;
/**
 * At most this many axes (variables varied) per matrix. Axes with one value multiply the count
 * by 1, so MAX_COMBINATIONS alone would let thousands of them through, and every one is resolved
 * against the agent per combination.
 */
export const MAX_AXES = 10;
export const MAX_MATRIX_REPETITIONS = 20;

/**
 * `{NAME: [value, …]}`: one axis per variable, in the order given, at most MAX_AXES of them (checked
 * first, before any per-axis work); every axis non-empty with unique values, and the product of
 * their lengths at most MAX_COMBINATIONS. That each name is a variable of the agent is checked by
 * the service, also before the axes are expanded.
 */
export const matrixAxesInput = z
  .record(z.string().max(TEXT_LIMITS.identifier), z.array(variableValue).min(1, "Give at least one value").max(10_000))
  .superRefine((axes, ctx) => {
    const names = Object.keys(axes);
    if (names.length === 0) {
      ctx.addIssue({ code: "custom", path: [], message: "Give at least one variable with its values" });
      return;
    }
    if (names.length > MAX_AXES) {
      ctx.addIssue({ code: "custom", path: [], message: `${names.length} variables; a matrix varies at most ${MAX_AXES}` });
      return;
    }
    for (const name of names) {
      const seen = new Set<string>();
      for (const value of axes[name] ?? []) {
        const key = JSON.stringify(value);
        if (seen.has(key)) {
          ctx.addIssue({ code: "custom", path: [name], message: `Values must be unique: ${describeValue(value)} appears twice` });
          break;
        }
        seen.add(key);
      }
    }
    const count = combinationCount(axes);
    if (count > MAX_COMBINATIONS) {
      const sizes = names.map((n) => axes[n]?.length ?? 0).join(" × ");
      ctx.addIssue({
        code: "custom",
        path: [],
        message: `${sizes} = ${count} combinations; a matrix has at most ${MAX_COMBINATIONS}`,
      });
    }
  });
export type MatrixAxes = z.output<typeof matrixAxesInput>;

/** POST /api/v1/suites/{id}/matrix: the run options (selection, concurrency) plus axes, repetitions and a name. */
export const createMatrixInput = startRunInput
  .omit({ variables: true })
  .extend({
    name: z.string().trim().min(1, "Name cannot be empty").max(TEXT_LIMITS.name).optional(),
    /** One axis per variable: the values to try. Each combination is one run with these run-level values. */
    variables: matrixAxesInput,
    /** The older name of `trials` (per combination); both may be given only when they agree. */
    repetitions: z
      .number({ error: "repetitions must be a whole number" })
      .int("repetitions must be a whole number")
      .min(1, "repetitions must be at least 1")
      .max(MAX_MATRIX_REPETITIONS, `repetitions must be at most ${MAX_MATRIX_REPETITIONS}`)
      .optional(),
  })
  .strict()
  .refine((m) => m.trials == null || m.repetitions === undefined || m.trials === m.repetitions, {
    path: ["trials"],
    message: "trials and repetitions mean the same; give one of them",
  });
export type CreateMatrixInput = z.input<typeof createMatrixInput>;
export type CreateMatrixOptions = z.output<typeof createMatrixInput>;

export const matrixListQuery = paginationQuery;
