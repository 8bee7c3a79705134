import { z } from "zod";
import {
  errors,
  idParam,
  jsonSchema,
  list,
  listQueryDocs,
  ok,
  patchBody,
  queryParameters,
  ref,
  responseSchema,
  serverFields,
  single,
  tooLarge,
  body,
  type OpenApiPart,
} from "@/lib/api/openapi-kit";
import {
  caseSourceResource,
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

export const importResult = z
  .looseObject({
    imported: z.number().int().describe("Number of cases written"),
    skipped: z.number().int().describe("Invalid cases left out (valid_only=true)"),
    errors: z
      .array(z.object({ index: z.number().int(), path: z.string(), message: z.string() }))
      .describe("Issues of the skipped cases: the case index and the field path within that case"),
  })
  .describe("Outcome of an import");

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
          parameters: queryParameters(testCaseListQuery, {
            ...listQueryDocs,
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
          summary: "Import test cases (JSON array or YAML)",
          description:
            "Role: editor. Every case is validated first; with any invalid case nothing is written and 400 lists every issue as `<index>.<field path>`, unless valid_only=true imports the valid ones.",
          parameters: queryParameters(testCaseImportQuery, {
            valid_only: "true: import the valid cases and report the invalid ones instead of refusing",
          }),
          requestBody: {
            required: true,
            content: {
              "application/json": { schema: { type: "array", items: jsonSchema(testCaseInput) } },
              "application/yaml": { schema: { type: "string", description: "A YAML list of test cases in the same format" } },
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
            "with each file's bytes (a name shared by two files gets the file id's first 8 characters); importing the zip into any workspace stores the files there.",
          parameters: queryParameters(testCaseExportQuery, { format: "json (default), yaml, or zip (YAML plus the uploaded files)" }),
          responses: {
            "200": {
              description: "The cases as a file",
              content: {
                "application/json": { schema: { type: "array", items: ref("TestCaseDocument") } },
                "application/yaml": { schema: { type: "string" } },
                "application/zip": { schema: { type: "string", format: "binary" } },
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
