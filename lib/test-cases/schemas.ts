import { z } from "zod";

/**
 * The test case format: spec 001 (schema 1.0.0) plus spec 002's checks/mode and spec 000's
 * ground_truth. One schema for forms, server actions, the REST API and import/export.
 * Field names are the public (snake_case) names.
 */

export const DIFFICULTIES = ["normal", "hard"] as const;
export const TEST_CASE_STATUSES = ["draft", "active", "archived"] as const;
export const CHECK_MODES = ["all", "any"] as const;
export const PRESEEDED_TAGS = ["normal", "red-team", "edge-case"] as const;
export const CHECK_TYPES = ["contains_phrases", "semantic_similarity", "llm_judge"] as const;

export type TestCaseStatus = (typeof TEST_CASE_STATUSES)[number];

const nullableText = z
  .string()
  .nullish()
  .transform((v) => (v == null || v.trim() === "" ? null : v));

export const personaSchema = z.object({
  type: z.string().trim().min(1, "Persona type is required").max(100, "Use at most 100 characters"),
  description: z.string().trim().min(1, "Persona description is required"),
  instructions: z.string().trim().min(1, "Persona instructions are required"),
});
export type Persona = z.infer<typeof personaSchema>;

const jsonObject = z.record(z.string(), z.unknown());

export const expectedToolCallSchema = z.object({
  tool: z.string().trim().min(1, "Tool name is required").max(64),
  expected_params: jsonObject.nullish().transform((v) => v ?? null),
  /** true: the agent must NOT call this tool (an extension; spec 001 tools are expected calls). */
  forbidden: z.boolean().optional().transform((v) => (v ? true : undefined)),
});
export type ExpectedToolCall = z.infer<typeof expectedToolCallSchema>;

export const checkSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("contains_phrases"),
    phrases: z.array(z.string().min(1, "Phrase cannot be empty")).min(1, "Add at least one phrase"),
    case_sensitive: z.boolean().default(false),
  }),
  z.object({
    type: z.literal("semantic_similarity"),
    expected_answer: z.string().trim().min(1, "Expected answer is required"),
    threshold: z.number({ error: "Threshold must be a number" }).min(0, "Threshold must be between 0 and 1").max(1, "Threshold must be between 0 and 1"),
  }),
  z.object({
    type: z.literal("llm_judge"),
    expected_answer: z.string().trim().min(1, "Expected answer is required"),
    criteria: nullableText,
  }),
]);
export type Check = z.infer<typeof checkSchema>;

const tag = z
  .string()
  .trim()
  .min(1, "Tags cannot be empty")
  .max(50, "Tags are at most 50 characters")
  .regex(/^[^,\s][^,]*$/, "Tags cannot contain commas");

/** Fields as written by a client; every field but `name` is optional (spec 001). */
export const testCaseFields = z.object({
  name: z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(255, "Name must be at most 255 characters"),
  description: nullableText,
  difficulty: z.enum(DIFFICULTIES, { error: "Difficulty must be normal or hard" }).default("normal"),
  tags: z
    .array(tag)
    .max(50, "At most 50 tags")
    .default([])
    .transform((tags) => [...new Set(tags)]),
  status: z.enum(TEST_CASE_STATUSES, { error: "Status must be draft, active or archived" }).default("active"),
  persona: personaSchema.nullish().transform((v) => v ?? null),
  initial_message: nullableText,
  user_context: jsonObject.nullish().transform((v) => v ?? null),
  max_turns: z
    .number({ error: "Max turns must be a whole number" })
    .int("Max turns must be a whole number")
    .min(1, "Max turns must be at least 1")
    .max(1000, "Max turns must be at most 1000")
    .nullish()
    .transform((v) => v ?? null),
  expected_outcomes: z
    .record(z.string().trim().min(1, "Outcome labels cannot be empty").max(500), z.unknown())
    .nullish()
    .transform((v) => (v && Object.keys(v).length > 0 ? v : null)),
  expected_tool_calls: z
    .array(expectedToolCallSchema)
    .nullish()
    .transform((v) => (v && v.length > 0 ? v : null)),
  evaluation_criteria_override: nullableText,
  checks: z.array(checkSchema).max(50).default([]),
  mode: z.enum(CHECK_MODES, { error: "Mode must be all or any" }).default("all"),
  ground_truth: nullableText,
  sort_order: z.number().int().min(0).optional(),
});

export const RUNNABLE_MESSAGE =
  "A case without initial_message and without persona cannot run, so it can only be a draft";

/** A case can run when it has an opening message or a persona that writes one. */
export function isRunnable(c: { initial_message: string | null; persona: Persona | null }): boolean {
  return Boolean(c.initial_message) || Boolean(c.persona);
}

function refineRunnable(c: z.output<typeof testCaseFields>, ctx: z.RefinementCtx) {
  if (c.status === "active" && !isRunnable(c)) {
    ctx.addIssue({ code: "custom", path: ["status"], message: RUNNABLE_MESSAGE });
  }
}

/** A whole test case (create, import, and the merged result of an update). */
export const testCaseInput = testCaseFields.superRefine(refineRunnable);
export type TestCaseInput = z.input<typeof testCaseInput>;
export type TestCaseData = z.output<typeof testCaseInput>;

/** PATCH body: any subset of the fields; the service validates the merged case with testCaseInput. */
export const testCasePatch = testCaseFields.partial();
export type TestCasePatch = z.input<typeof testCasePatch>;

/** List filters (UI and GET /api/v1/suites/{id}/test-cases). */
export const testCaseListQuery = z.object({
  tag: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => (v === undefined ? [] : (Array.isArray(v) ? v : v.split(",")).map((t) => t.trim()).filter(Boolean))),
  tag_match: z.enum(["any", "all"]).default("any"),
  status: z.enum(TEST_CASE_STATUSES).optional(),
  difficulty: z.enum(DIFFICULTIES).optional(),
  q: z.string().trim().max(200).optional(),
  cursor: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type TestCaseListQuery = z.output<typeof testCaseListQuery>;

export const bulkStatusInput = z.object({
  ids: z.array(z.uuid()).min(1, "Select at least one case").max(1000),
  status: z.enum(TEST_CASE_STATUSES),
});

export const bulkTagsInput = z.object({
  ids: z.array(z.uuid()).min(1, "Select at least one case").max(1000),
  add: z.array(tag).default([]),
  remove: z.array(tag).default([]),
});

export const reorderInput = z.object({
  ids: z.array(z.uuid()).min(1).max(5000),
});
