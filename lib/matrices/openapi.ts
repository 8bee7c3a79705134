import { z } from "zod";
import { featurePart, jsonSchema, namedComponents, type OpenApiPart } from "@/lib/api/openapi-kit";
import { body, conflict, errors, idParam, list, listParameters, ok, ref, tooLarge } from "@/lib/api/openapi-paths";
import { createMatrixInput, MATRIX_STATUSES, matrixListQuery } from "./schemas";

/**
 * The REST contract of matrix runs: the matrix and combination resources, their components and the paths.
 */

const matrixValue = z.union([z.string(), z.number(), z.boolean()]);

export const matrixSummary = z.object({
  id: z.uuid(),
  suite_id: z.uuid(),
  name: z.string(),
  status: z.enum(MATRIX_STATUSES).describe("Follows the runs: pending, running, then completed, cancelled or failed (every run failed)"),
  axes: z.record(z.string(), z.array(matrixValue)).describe("{NAME: [values]} as given; combinations are their cartesian product"),
  trials: z.int().describe("Trials per case in every combination's run (1–20)"),
  repetitions: z.int().describe("The same as trials (its older name)"),
  concurrency: z.int(),
  selection: z.object({
    tags: z.array(z.string()).optional(),
    tag_match: z.string().optional(),
    difficulty: z.string().nullable().optional(),
    case_ids: z.array(z.string()).nullable().optional(),
  }),
  total_combinations: z.int(),
  finished_combinations: z.int(),
  cancel_requested: z.boolean(),
  started_at: z.iso.datetime().nullable(),
  completed_at: z.iso.datetime().nullable(),
  created_at: z.iso.datetime(),
});

export const matrixCombination = z
  .object({
    index: z.int().describe("0-based, in expansion order (the first axis varies slowest)"),
    values: z.record(z.string(), matrixValue),
    label: z.string().describe('e.g. Temperature=0.7, AIConfiguration="gpt-a"'),
    run_id: z.uuid().nullable().describe("The combination's run (GET /api/v1/runs/{id})"),
    run_number: z.int().nullable().describe("That run's number within the suite (#42)"),
    status: z.enum(MATRIX_STATUSES),
    model: z.object({ id: z.string().nullable(), name: z.string().nullable(), model: z.string().nullable() }).nullable(),
    total_cases: z.int(),
    completed_cases: z.int(),
    passed: z.int(),
    failed: z.int(),
    errors: z.int(),
    skipped: z.int(),
    pass_rate: z.number().describe("passed / (passed + failed + errors) × 100"),
    latency_p50_ms: z.number().nullable(),
    latency_p95_ms: z.number().nullable(),
    mean_total_tokens: z.number().nullable().describe("Mean prompt + completion tokens per executed case"),
    prompt_tokens: z.int(),
    completion_tokens: z.int(),
    estimated_cost: z
      .number()
      .nullable()
      .describe("prompt_tokens × input_price_per_mtok + completion_tokens × output_price_per_mtok, per million; null without both prices"),
  })
  .describe("One combination of variable values: one run with its statistics over every repetition");

export const bestCombination = matrixCombination.pick({
  index: true,
  values: true,
  label: true,
  run_id: true,
  pass_rate: true,
  estimated_cost: true,
  latency_p50_ms: true,
});

export const matrix = matrixSummary
  .extend({
    combinations: z.array(matrixCombination),
    best_combination: bestCombination
      .nullable()
      .describe("Highest pass rate, then lowest estimated cost, then lowest p50 latency; null until a combination executed a case"),
  })
  .describe("A matrix run: the suite's cases once per combination of variable values");

function paths() {
  const tags = ["Matrices"];
  return {
    "/api/v1/suites/{id}/matrix": {
      parameters: [idParam],
      post: {
        operationId: "createMatrix",
        tags,
        summary: "Start a matrix run",
        description:
          'Role: editor. `variables` gives each axis its values ({"Temperature": [0, 0.7], "AIConfiguration": ["gpt-a", "gpt-b"]}); the cartesian product ' +
          "(at most 10 axes and 32 combinations, first axis slowest) runs as one run per combination with those run-level values. An axis that is not a " +
          "variable of the agent is refused by name before the expansion; every combination is validated " +
          "as a run would be before anything starts: a 400 names `variables.NAME` and the combination. 202 with the pending matrix; poll GET /api/v1/matrices/{id}.",
        requestBody: body("MatrixInput"),
        responses: { "202": ok("The pending Matrix", ref("Matrix")), ...errors, ...tooLarge() },
      },
    },
    "/api/v1/suites/{id}/matrices": {
      parameters: [idParam],
      get: {
        operationId: "listMatrices",
        tags,
        summary: "List a suite's matrix runs (newest first)",
        description: "Role: viewer.",
        parameters: listParameters(matrixListQuery),
        responses: { "200": list("MatrixSummary"), ...errors },
      },
    },
    "/api/v1/matrices/{id}": {
      parameters: [idParam],
      get: {
        operationId: "getMatrix",
        tags,
        summary: "Get a matrix run (status, per-combination statistics, best combination)",
        description:
          "Role: viewer. Per combination: pass rate, passed/failed/errors, latency p50/p95, mean total tokens and an estimated cost when the model configuration has prices.",
        responses: { "200": ok("Matrix", ref("Matrix")), ...errors },
      },
    },
    "/api/v1/matrices/{id}/cancel": {
      parameters: [idParam],
      post: {
        operationId: "cancelMatrix",
        tags,
        summary: "Cancel a matrix run",
        description: "Role: editor. Cancels every run of the matrix that has not ended; 409 when the matrix already ended.",
        responses: { "200": ok("The Matrix", ref("Matrix")), ...errors, ...conflict },
      },
    },
  };
}

export function matricesOpenApi(): OpenApiPart {
  return featurePart(
    "Matrices",
    "Matrix runs (the variables model): the suite's cases once per combination of variable values (cartesian product of at most 10 axes, at most 32 combinations; every axis a variable of the agent), each an ordinary run, " +
      "with per-combination pass rate, latency, tokens, estimated cost and the best combination. Read: viewer; start/cancel: editor.",
    {
      paths: paths(),
      schemas: namedComponents({ MatrixCombination: matrixCombination, MatrixSummary: matrixSummary, Matrix: matrix }),
      requests: { MatrixInput: jsonSchema(createMatrixInput) },
    },
  );
}
