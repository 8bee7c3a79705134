import { z } from "zod";
import { booleanQuery } from "@/lib/api/query";
import { TEXT_LIMITS } from "@/lib/validation/limits";
import { JSON_TOO_LARGE_MESSAGE, jsonFits } from "@/lib/validation/text";
import { testCaseVariablesSchema } from "@/lib/test-cases/variables";
import { caseFilesSchema } from "@/lib/files/schemas";
import { MAX_SAFETY_CAP } from "@/lib/conversation/types";
import { FOREIGN_FORMATS } from "@/lib/test-cases/formats/types";

/**
 * The test case format (schema 1.0.0) plus the reference schema's checks/mode and the execution model's
 * ground_truth. One schema for forms, server actions, the REST API and import/export.
 * Field names are the public (snake_case) names.
 */

export const DIFFICULTIES = ["normal", "hard"] as const;
export const TEST_CASE_STATUSES = ["draft", "active", "archived"] as const;
export const CHECK_MODES = ["all", "any"] as const;
export const PRESEEDED_TAGS = ["normal", "red-team", "edge-case"] as const;
export const CHECK_TYPES = ["contains_phrases", "semantic_similarity", "llm_judge"] as const;

export type TestCaseStatus = (typeof TEST_CASE_STATUSES)[number];

const atMost = (max: number) => `Use at most ${max.toLocaleString("en-US")} characters`;

/** Optional text up to `max` characters; blank → null. */
const nullableText = (max: number) =>
  z
    .string()
    .max(max, atMost(max))
    .nullish()
    .transform((v) => (v == null || v.trim() === "" ? null : v));

export const personaSchema = z.object(
  {
    type: z
      .string({ error: "Persona type is required" })
      .trim()
      .min(1, "Persona type is required")
      .max(TEXT_LIMITS.shortName, atMost(TEXT_LIMITS.shortName)),
    description: z
      .string({ error: "Persona description is required" })
      .trim()
      .min(1, "Persona description is required")
      .max(TEXT_LIMITS.description, atMost(TEXT_LIMITS.description)),
    instructions: z
      .string({ error: "Persona instructions are required" })
      .trim()
      .min(1, "Persona instructions are required")
      .max(TEXT_LIMITS.prompt, atMost(TEXT_LIMITS.prompt)),
  },
  { error: "Persona must be an object with type, description and instructions" },
);
export type Persona = z.infer<typeof personaSchema>;

/** A JSON object (not an array, not a scalar) of at most MAX_JSON_FIELD_CHARS serialised. */
const jsonObject = (error = "Must be a JSON object") =>
  z.record(z.string(), z.unknown(), { error }).refine((v) => jsonFits(v), JSON_TOO_LARGE_MESSAGE);

export const expectedToolCallSchema = z.object({
  tool: z
    .string({ error: "Tool name is required" })
    .trim()
    .min(1, "Tool name is required")
    .max(TEXT_LIMITS.identifier, `Tool names are at most ${TEXT_LIMITS.identifier} characters`),
  expected_params: jsonObject("Expected params must be a JSON object or empty")
    .nullish()
    .transform((v) => v ?? null),
  /**
   * true: the agent must NOT call this tool (an extension; the test case format tools are expected calls).
   * The outer `.optional()` changes no value (undefined stays undefined); it tells the OpenAPI
   * output schema that the key may be absent.
   */
  forbidden: z
    .boolean()
    .optional()
    .transform((v) => (v ? true : undefined))
    .optional(),
});
export type ExpectedToolCall = z.infer<typeof expectedToolCallSchema>;

export const checkSchema = z.discriminatedUnion(
  "type",
  [
    z.object({
      type: z.literal("contains_phrases"),
      phrases: z
        .array(
          z
            .string({ error: "Phrases must be text" })
            .min(1, "Phrase cannot be empty")
            .max(TEXT_LIMITS.description, atMost(TEXT_LIMITS.description)),
          { error: "Add at least one phrase" },
        )
        .min(1, "Add at least one phrase")
        .max(100, "At most 100 phrases"),
      case_sensitive: z.boolean().default(false),
    }),
    z.object({
      type: z.literal("semantic_similarity"),
      expected_answer: z
        .string({ error: "Expected answer is required" })
        .trim()
        .min(1, "Expected answer is required")
        .max(TEXT_LIMITS.prompt, atMost(TEXT_LIMITS.prompt)),
      threshold: z
        .number({ error: "Threshold must be a number" })
        .min(0, "Threshold must be between 0 and 1")
        .max(1, "Threshold must be between 0 and 1"),
    }),
    z.object({
      type: z.literal("llm_judge"),
      expected_answer: z
        .string({ error: "Expected answer is required" })
        .trim()
        .min(1, "Expected answer is required")
        .max(TEXT_LIMITS.prompt, atMost(TEXT_LIMITS.prompt)),
      criteria: nullableText(TEXT_LIMITS.description),
    }),
  ],
  { error: "Check type must be contains_phrases, semantic_similarity or llm_judge" },
);
export type Check = z.infer<typeof checkSchema>;

const tag = z
  .string()
  .trim()
  .min(1, "Tags cannot be empty")
  .max(TEXT_LIMITS.tag, `Tags are at most ${TEXT_LIMITS.tag} characters`)
  .regex(/^[^,]*$/, "Tags cannot contain commas");

/** Fields as written by a client; every field but `name` is optional (the test case format). */
export const testCaseFields = z.object({
  name: z
    .string({ error: "Name is required" })
    .trim()
    .min(1, "Name is required")
    .max(TEXT_LIMITS.name, `Name must be at most ${TEXT_LIMITS.name} characters`),
  description: nullableText(TEXT_LIMITS.description),
  difficulty: z.enum(DIFFICULTIES, { error: "Difficulty must be normal or hard" }).default("normal"),
  tags: z
    .array(tag, { error: "Tags must be a list of strings" })
    .max(50, "At most 50 tags")
    .default([])
    .transform((tags) => [...new Set(tags)]),
  status: z.enum(TEST_CASE_STATUSES, { error: "Status must be draft, active or archived" }).default("active"),
  persona: personaSchema.nullish().transform((v) => v ?? null),
  initial_message: nullableText(TEXT_LIMITS.prompt),
  user_context: jsonObject("User context must be a JSON object")
    .nullish()
    .transform((v) => v ?? null),
  max_turns: z
    .number({ error: "Max turns must be a whole number" })
    .int("Max turns must be a whole number")
    .min(1, "Max turns must be at least 1")
    // The highest safety cap a workspace can set; its own cap is checked when the case is saved (./turn-cap.ts).
    .max(MAX_SAFETY_CAP, `Max turns must be at most ${MAX_SAFETY_CAP}`)
    .nullish()
    .transform((v) => v ?? null),
  expected_outcomes: jsonObject("Expected outcomes must be a JSON object of label → value")
    .nullish()
    .superRefine((v, ctx) => {
      for (const label of Object.keys(v ?? {})) {
        if (label.trim() === "") ctx.addIssue({ code: "custom", message: "Outcome labels cannot be empty" });
        else if (label.trim().length > TEXT_LIMITS.label) {
          ctx.addIssue({ code: "custom", message: `Outcome labels are at most ${TEXT_LIMITS.label} characters` });
        }
      }
    })
    .transform((v) => (v && Object.keys(v).length > 0 ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k.trim(), x])) : null)),
  expected_tool_calls: z
    .array(expectedToolCallSchema, { error: "Expected tool calls must be a list" })
    .nullish()
    .transform((v) => (v && v.length > 0 ? v : null)),
  evaluation_criteria_override: nullableText(TEXT_LIMITS.description),
  checks: z.array(checkSchema, { error: "Checks must be a list" }).max(50, "At most 50 checks").default([]),
  mode: z.enum(CHECK_MODES, { error: "Mode must be all or any" }).default("all"),
  ground_truth: nullableText(TEXT_LIMITS.prompt),
  /**
   * The execution model per-test metric selection: the names of the suite metrics to evaluate for this case
   * (null: the suite's enabled metrics; []: none).
   */
  evaluations: z
    .array(
      z
        .string({ error: "Metric names are text" })
        .trim()
        .min(1, "Metric names cannot be empty")
        .max(TEXT_LIMITS.identifier, `Metric names are at most ${TEXT_LIMITS.identifier} characters`)
        .regex(/^[A-Za-z0-9_-]+$/, "Metric names use letters, digits, - and _ only"),
      { error: "Evaluations must be a list of metric names" },
    )
    .max(20, "At most 20 metrics")
    .nullish()
    .transform((v) => (v ? [...new Set(v)] : null)),
  /**
   * The variables model's TestVariablesConfig: per variable of the suite's agent, whether this case exposes it,
   * its default, a lock and restricted values (null: every variable exposed with the agent's
   * default). The rules that need the agent are checked by the service (./variable-guards.ts).
   */
  variables: testCaseVariablesSchema,
  /**
   * The execution model's FileInput list (at most 10): uploaded files as `path: "file:<id>"`, or URLs. That a
   * stored file exists and its content matches `type` is checked by lib/files/service.ts.
   */
  files: caseFilesSchema,
  sort_order: z.number().int().min(0).optional(),
});

/** A case's own field names: every client-written field but the list's `sort_order`. */
export type CaseField = Exclude<keyof typeof testCaseFields.shape, "sort_order">;
/** A case's client-facing fields, in the order the API and exports write them. */
export const CASE_FIELDS: readonly CaseField[] = Object.keys(testCaseFields.shape).filter((key): key is CaseField => key !== "sort_order");

export const RUNNABLE_MESSAGE = "A case without initial_message and without persona cannot run, so it can only be a draft";

/** A case can run when it has an opening message or a persona that writes one. */
export function isRunnable(c: { initial_message: string | null; persona: Persona | null }): boolean {
  return Boolean(c.initial_message) || Boolean(c.persona);
}

function refineRunnable(c: z.output<typeof testCaseFields>, ctx: z.RefinementCtx) {
  if (c.status === "active" && !isRunnable(c)) {
    ctx.addIssue({ code: "custom", path: ["status"], message: RUNNABLE_MESSAGE });
  }
}

export const CRITERIA_WITHOUT_OUTCOMES_MESSAGE =
  "The evaluation criteria override replaces the judge's rubric for the expected outcomes, and this case has none: add expected outcomes or clear the override";

/**
 * `evaluation_criteria_override` is the outcome judge's rubric (the test case format): on a case without
 * expected outcomes no judge runs, so it would be kept and never used. Refused instead.
 */
function refineCriteriaOverride(c: z.output<typeof testCaseFields>, ctx: z.RefinementCtx) {
  if (c.evaluation_criteria_override && !c.expected_outcomes) {
    ctx.addIssue({ code: "custom", path: ["evaluation_criteria_override"], message: CRITERIA_WITHOUT_OUTCOMES_MESSAGE });
  }
}

/** A whole test case (create, import, and the merged result of an update). */
export const testCaseInput = testCaseFields.superRefine(refineRunnable).superRefine(refineCriteriaOverride);
export type TestCaseInput = z.input<typeof testCaseInput>;
export type TestCaseData = z.output<typeof testCaseInput>;

/** PATCH body: any subset of the fields; the service validates the merged case with testCaseInput. */
export const testCasePatch = testCaseFields.partial();
export type TestCasePatch = z.input<typeof testCasePatch>;

/** An empty query value (`?status=` from a GET form's "all" option) means "not given". */
const blankAsUndefined = <S extends z.ZodType>(schema: S) => z.preprocess((v) => (v === "" ? undefined : v), schema);

/** List filters (UI and GET /api/v1/suites/{id}/test-cases). */
export const testCaseListQuery = z.object({
  tag: z
    .union([z.string(), z.array(z.string())])
    .optional()
    // Repeatable (`?tag=a&tag=b`) and/or comma lists (`?tag=a,b`); tags never contain commas.
    .transform((v) => [
      ...new Set(
        (v === undefined ? [] : Array.isArray(v) ? v : [v])
          .flatMap((t) => t.split(","))
          .map((t) => t.trim())
          .filter(Boolean),
      ),
    ]),
  tag_match: blankAsUndefined(z.enum(["any", "all"]).default("any")),
  status: blankAsUndefined(z.enum(TEST_CASE_STATUSES).optional()),
  difficulty: blankAsUndefined(z.enum(DIFFICULTIES).optional()),
  q: z.string().trim().max(TEXT_LIMITS.search).optional(),
  cursor: blankAsUndefined(z.string().max(TEXT_LIMITS.cursor).optional()),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type TestCaseListQuery = z.output<typeof testCaseListQuery>;

export const IMPORT_FORMATS = ["assay", ...FOREIGN_FORMATS] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/**
 * POST /api/v1/suites/{id}/test-cases/import: `format` of the document (assay: Assay's own, YAML, JSON or
 * its zip; else another tool's, lib/test-cases/formats), `dry_run=true` reports what would be
 * created and writes nothing, `valid_only=true` imports the valid cases and reports the others.
 */
export const testCaseImportQuery = z.object({
  format: z.enum(IMPORT_FORMATS, { error: `format must be one of ${IMPORT_FORMATS.join(", ")}` }).default("assay"),
  dry_run: booleanQuery("dry_run", { numeric: true }),
  valid_only: booleanQuery("valid_only", { numeric: true }),
});

export const CASE_EXPORT_FORMATS = ["yaml", "json", "zip", "promptfoo", "deepeval", "langfuse"] as const;
export type CaseExportFormat = (typeof CASE_EXPORT_FORMATS)[number];

/**
 * GET /api/v1/suites/{id}/test-cases/export: the file format (zip: YAML plus the uploaded files,
 * lib/files/bundle.ts; promptfoo, deepeval, langfuse: that tool's format, lib/test-cases/formats).
 */
export const testCaseExportQuery = z.object({
  format: z.enum(CASE_EXPORT_FORMATS, { error: `format must be one of ${CASE_EXPORT_FORMATS.join(", ")}` }).default("json"),
});

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

/**
 * Where a case is made from, sent beside its fields when it is created (never part of the case
 * document: export and import leave it out). The server records the origin's service and time.
 */
export const caseSourceInput = z
  .discriminatedUnion(
    "type",
    [
      z.strictObject({ type: z.literal("conversation"), conversation_id: z.uuid("conversation_id must be a conversation's id") }),
      z.strictObject({ type: z.literal("case_result"), case_result_id: z.uuid("case_result_id must be a case result's id") }),
    ],
    { error: "source.type must be conversation or case_result" },
  )
  .nullish()
  .transform((v) => v ?? null);
export type CaseSourceInput = z.input<typeof caseSourceInput>;

/** The recorded origin of a drafted case (read-only). */
export const caseSourceResource = z
  .discriminatedUnion("type", [
    z.object({
      type: z.literal("conversation"),
      conversation_id: z.uuid(),
      service: z.string().nullable().describe("The conversation's service.name"),
      time: z.iso.datetime().describe("When the conversation started"),
    }),
    z.object({
      type: z.literal("case_result"),
      case_result_id: z.uuid(),
      run_id: z.uuid(),
      time: z.iso.datetime().describe("When the case result was recorded"),
    }),
    z.object({
      type: z.literal("import"),
      format: z.enum(FOREIGN_FORMATS).describe("The tool whose file the case was imported from"),
      item_id: z.string().nullable().describe("The item's id in that tool (a Langfuse dataset item's or an Inspect sample's id)"),
      trace_id: z.string().nullable().describe("The Langfuse trace the dataset item was made from"),
    }),
  ])
  .describe(
    "What the case was made from (a traffic conversation, a case result's transcript, or an item imported from another tool); null for a case written by hand",
  );
export type CaseSource = z.output<typeof caseSourceResource>;
