import { z } from "zod";
import { jsonSchema, patchBody, responseSchema, serverFields, type OpenApiPart } from "@/lib/api/openapi-kit";
import { body, errors, idParam, list, listParameters, ok, queryParameters, ref, single, tooLarge } from "@/lib/api/openapi-paths";
import {
  caseSourceResource,
  IMPORT_FORMATS,
  testCaseFields,
  testCaseExportQuery,
  testCaseImportQuery,
  testCaseInput,
  testCaseListQuery,
  testCasePatch,
} from "./schemas";

/**
 * The REST contract of test cases: the server-set fields, the import outcome, the OpenAPI
 * components and the paths of a suite's cases (list, create, import, export) and of one case.
 */

/** A case as the API returns it: its fields plus the server-set ones. */
export const testCaseResource = testCaseFields.extend({
  ...serverFields.shape,
  suite_id: z.uuid(),
  sort_order: z.number().int().describe("Position in the suite, set by the server"),
  source: caseSourceResource.nullable(),
});

/** One case as export writes it; import accepts it back. */
export const testCaseDocument = testCaseFields
  .omit({ sort_order: true })
  .describe("One case as export writes it (the test case format's fields plus checks, mode and ground_truth); import accepts it back");

const droppedField = z.object({ field: z.string().describe("The source item's field"), reason: z.string() });

export const importResult = z
  .looseObject({
    format: z.enum(IMPORT_FORMATS).describe("The format the file was read as"),
    dry_run: z.boolean().describe("true: nothing was written; `test_cases` lists what would be created"),
    imported: z.number().int().describe("Number of cases written (0 on a dry run)"),
    would_import: z
      .number()
      .int()
      .describe("Valid cases: what the import writes (with invalid ones and without valid_only, a real import refuses instead)"),
    skipped: z.number().int().describe("Invalid cases left out (valid_only=true) or that would be left out"),
    errors: z
      .array(z.object({ index: z.number().int(), path: z.string(), message: z.string() }))
      .describe(
        "Issues of the invalid cases: the item index and the field path within that case (empty: the item could not become a case)",
      ),
    items: z
      .array(
        z.object({
          index: z.number().int().describe("The item's position in the file (0-based; JSONL: among the non-blank lines)"),
          label: z.string().describe("How to recognise the item: its name, id, or position"),
          mapped: z.array(z.string()).describe("What was carried over, as `source field → Assay field`"),
          dropped: z.array(droppedField).describe("What was not carried over, and why"),
          error: z.string().nullable().describe("Why the item could not become a case at all"),
        }),
      )
      .describe("Another tool's format: per source item, what was mapped and what was dropped (empty for Assay's own format)"),
    notes: z.array(z.string()).describe("About the file as a whole (e.g. other prompts, providers to add as model configurations)"),
    test_cases: z.array(testCaseDocument).optional().describe("Dry run only: the valid cases as they would be created, in file order"),
  })
  .describe("Outcome (or, with dry_run=true, preview) of an import");

export function testCasesOpenApi(): OpenApiPart {
  return {
    tags: [
      {
        name: "Test cases",
        description:
          "Cases of a suite in the test case format (persona, opening message, expected outcomes and tool calls) plus checks; JSON/YAML import and export. Read: viewer; write: editor.",
      },
    ],
    paths: {
      "/api/v1/suites/{id}/test-cases": {
        parameters: [idParam],
        get: {
          operationId: "listTestCases",
          tags: ["Test cases"],
          summary: "List a suite's test cases",
          description: "Role: viewer. Ordered by sort_order.",
          parameters: listParameters(testCaseListQuery, {
            tag: "Tag filter; repeat the parameter or separate tags with commas",
            tag_match: "any (default): a case has one of the tags; all: it has every tag",
            status: "draft, active or archived",
            difficulty: "normal or hard",
            q: "Text search in name, description and initial_message",
          }),
          responses: { "200": list("TestCase"), ...errors },
        },
        post: {
          operationId: "createTestCase",
          tags: ["Test cases"],
          summary: "Create one test case",
          description: "Role: editor. Only name is required; an active case needs initial_message or persona.",
          requestBody: body("TestCaseInput"),
          responses: { "201": ok("The created TestCase", ref("TestCase")), ...errors, ...tooLarge() },
        },
      },
      "/api/v1/suites/{id}/test-cases/import": {
        parameters: [idParam],
        post: {
          operationId: "importTestCases",
          tags: ["Test cases"],
          summary: "Import test cases (Assay's JSON/YAML/zip, or promptfoo, Langfuse, DeepEval, OpenAI chat JSONL, Inspect)",
          description:
            "Role: editor. The body is the file. Another tool's file is converted first, with a per-item report of what was mapped and what was dropped. " +
            "Every case is validated first; with any invalid case (or item that cannot become a case) nothing is written and 400 lists every issue as " +
            "`<index>.<field path>`, unless valid_only=true imports the valid ones. dry_run=true answers 200 with the report and the cases that would be created, and writes nothing.",
          parameters: queryParameters(testCaseImportQuery, {
            format:
              "assay (default: Assay's JSON, YAML or zip by Content-Type), promptfoo (a promptfooconfig YAML/JSON, or a zip of it with the `file://` files it references), " +
              "langfuse (dataset items: a JSON array, the API's `{data: [...]}`, or JSONL), deepeval (goldens and conversational goldens, JSON), " +
              "openai-jsonl (one `{messages, tools}` per line), inspect (samples, JSON or JSONL)",
            dry_run: "true: validate and report what would be created; write nothing (200)",
            valid_only: "true: import the valid cases and report the invalid ones instead of refusing",
          }),
          requestBody: {
            required: true,
            content: {
              "application/json": { schema: { type: "array", items: jsonSchema(testCaseInput) } },
              "application/yaml": {
                schema: { type: "string", description: "A YAML list of test cases in the same format, or a promptfoo config" },
              },
              "application/x-ndjson": {
                schema: { type: "string", description: "JSONL (openai-jsonl, langfuse, inspect): one item per line" },
              },
              "application/zip": {
                schema: {
                  type: "string",
                  format: "binary",
                  description:
                    "The zip export (format=zip): test-cases.yaml whose files refer to `files/<name>` entries of the zip; the bundled files are stored in this workspace (deduplicated) and the references rewritten to `file:<id>`",
                },
              },
            },
          },
          responses: {
            "200": ok("Import result", ref("ImportResult")),
            "201": ok("Import result", ref("ImportResult")),
            ...errors,
            ...tooLarge("10 MB (a zip: 100 MB)"),
          },
        },
      },
      "/api/v1/suites/{id}/test-cases/export": {
        parameters: [idParam],
        get: {
          operationId: "exportTestCases",
          tags: ["Test cases"],
          summary: "Export a suite's test cases",
          description:
            "Role: viewer. The test case format plus checks, mode and ground_truth; importing the file back gives identical cases. " +
            "format=zip bundles the uploaded files: test-cases.yaml (the YAML export, each uploaded file referenced as `path: files/<name>`) and `files/<name>` " +
            "with each file's bytes (a name shared by two files gets the file id's first 8 characters); importing the zip into any workspace stores the files there. " +
            "format=promptfoo writes a runnable promptfooconfig.yaml (prompt `{{question}}`, each case a test with its checks as assertions; what promptfoo cannot express is listed in a comment); " +
            "format=deepeval writes DeepEval goldens, format=langfuse Langfuse dataset items — each the mirror of its import, with Assay's other fields kept in the item's metadata. " +
            "`X-Assay-Not-Exported` counts the cases that could not be written whole.",
          parameters: queryParameters(testCaseExportQuery, {
            format: "json (default), yaml, zip (YAML plus the uploaded files), promptfoo, deepeval, or langfuse",
          }),
          responses: {
            "200": {
              description: "The cases as a file",
              content: {
                "application/json": { schema: { type: "array", items: ref("TestCaseDocument") } },
                "application/yaml": { schema: { type: "string" } },
                "application/zip": { schema: { type: "string", format: "binary" } },
              },
              headers: {
                "X-Assay-Not-Exported": {
                  description: "promptfoo, deepeval, langfuse: how many cases could not be written whole (e.g. uploaded files)",
                  schema: { type: "integer" },
                },
              },
            },
            ...errors,
          },
        },
      },
      "/api/v1/test-cases/{id}": single({
        tag: "Test cases",
        item: "TestCase",
        plural: "TestCases",
        deleteNote: "Soft delete: the case disappears from lists and runs.",
      }),
      "/api/v1/test-cases/{id}/restore": {
        parameters: [idParam],
        post: {
          operationId: "restoreTestCase",
          tags: ["Test cases"],
          summary: "Restore a deleted test case",
          description: "Role: editor.",
          responses: { "200": ok("The restored TestCase", ref("TestCase")), ...errors },
        },
      },
    },
    schemas: {
      TestCase: responseSchema(testCaseResource),
      TestCaseDocument: responseSchema(testCaseDocument),
      ImportResult: jsonSchema(importResult, "output"),
    },
    requests: { TestCaseInput: jsonSchema(testCaseInput), TestCasePatch: patchBody(testCasePatch) },
  };
}
