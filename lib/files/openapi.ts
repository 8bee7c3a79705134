import { z } from "zod";
import { featurePart, jsonSchema, openObjects, type JsonSchema, type OpenApiPart } from "@/lib/api/openapi-kit";
import {
  body,
  conflict,
  errorResponse,
  errors,
  idParam,
  list,
  listParameters,
  noContent,
  ok,
  ref,
  tooLarge,
} from "@/lib/api/openapi-paths";
import { FILE_TYPES, fileInputSchema, type FileInput } from "./schemas";
import { filePreviewBody } from "./preview";
import { paginationQuery } from "@/lib/api/query";

/**
 * The REST contract of the file store: stored files, the processed file a run records, the preview
 * and the paths under /api/v1/files.
 */

const iso = z.iso.datetime();

/** The execution model's ProcessedFileInput (case results, reports and the file preview). */
export const processedFileResource = z
  .object({
    original: z.custom<FileInput>().meta({ $ref: "#/components/schemas/FileInput" }),
    markdown_content: z
      .string()
      .describe("The extracted content as markdown; empty only when `error` is set (stored results keep at most 20,000 characters)"),
    metadata: z
      .record(z.string(), z.unknown())
      .describe(
        "name, size_bytes, format, sha256, cache (hit | miss of the extraction cache), url_cache for URLs (downloaded | not_modified | disabled), plus the extractor's (pages, sheets, slides, width/height…)",
      ),
    cached_path: z
      .string()
      .nullable()
      .describe("`file:<id>` of a URL's stored download (cache: true); null for uploaded files and cache: false"),
    processing_time_ms: z.int().nonnegative(),
    error: z.string().nullable().describe("Why the file could not be processed (the case is then an error at stage files_failed)"),
  })
  .describe("The execution model's ProcessedFileInput: one file of the case as the agent received it");

/** What a vision model receives for an image (after resizing). */
export const filePreviewImage = z.object({
  media_type: z.string(),
  width: z.int().nonnegative().describe("As sent to a vision model (after resizing)"),
  height: z.int().nonnegative(),
  data_url_chars: z.int().nonnegative().describe("Characters of the data URL sent to the model"),
  data_url: z.string().nullable().describe("The data URL when at most 100,000 characters, else null"),
});

/** The file preview: the ProcessedFileInput a run would produce plus, for images, what a vision model receives. */
export const filePreviewResource = processedFileResource
  .extend({
    image: filePreviewImage.nullable().describe("Images: what a vision model receives (resized); null for other files and failures"),
  })
  .describe("What the agent will see for one file: the ProcessedFileInput a run would produce, with an image's size");

export const storedFileResource = z
  .object({
    id: z.uuid().describe('Referenced by a test case file as `path: "file:<id>"`'),
    name: z.string().describe("The uploaded file's name (the first upload's, when the same content was uploaded again)"),
    size_bytes: z.int(),
    content_type: z.string().describe("Sniffed from the content (never the client's claim), e.g. application/pdf"),
    type: z
      .enum(FILE_TYPES)
      .nullable()
      .describe(
        "The type the content can be read as (the execution model's file types); a case file's declared type must match it (text and csv are interchangeable)",
      ),
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .describe("Hex SHA-256 of the content; files are deduplicated by it per workspace"),
    origin: z.enum(["upload", "url"]).describe("upload: POST /api/v1/files or a zip import; url: downloaded for a URL file"),
    created_at: iso,
  })
  .describe("A file of the workspace's file store");

export const fileReference = z.object({ id: z.uuid(), name: z.string(), suite_id: z.uuid() });

export const storedFileDetail = storedFileResource
  .extend({
    reference_count: z.int().describe("Live test cases whose files reference this file; while > 0 it cannot be deleted (409)"),
    referenced_by: z.array(fileReference).describe("The first 20 of those test cases, by name"),
  })
  .describe("A stored file with the live test cases that reference it");

function paths() {
  const tags = ["Files"];
  return {
    "/api/v1/files": {
      get: {
        operationId: "listFiles",
        tags,
        summary: "List the workspace's files",
        description: "Role: viewer. Newest first.",
        parameters: listParameters(paginationQuery),
        responses: { "200": list("StoredFile"), ...errors },
      },
      post: {
        operationId: "uploadFile",
        tags,
        summary: "Upload a file",
        description:
          "Role: editor. `multipart/form-data` with the field `file` (at most 25 MB). The type is sniffed from the content; the same content uploaded again " +
          'returns the existing record (deduplicated by sha256 per workspace). Reference it from a test case as `{"path": "file:<id>", "type": …}`.',
        requestBody: { $ref: "#/components/requestBodies/FileUpload" },
        responses: {
          "201": ok("The stored file (new, or the existing one with the same content)", ref("StoredFile")),
          ...errors,
          ...tooLarge("25 MB"),
          "415": errorResponse("Not a multipart/form-data body (code unsupported_media_type)"),
        },
      },
    },
    "/api/v1/files/preview": {
      post: {
        operationId: "previewFile",
        tags,
        summary: "Preview what the agent will see for a file",
        description:
          "Role: viewer for a stored file (`path`), editor for a `url` (previewing one makes the server download and parse whatever it serves; a viewer gets 403). " +
          "Body `{file: FileInput}`. Processes the file exactly as a run would (same extraction, limits and caches) and answers its ProcessedFileInput; " +
          "a file that cannot be processed answers 200 with `error` set (as the run would record it). For images, `image` gives the size sent to a vision model.",
        requestBody: body("FilePreviewInput"),
        responses: { "200": ok("FilePreview", ref("FilePreview")), ...errors, ...tooLarge("16 KB") },
      },
    },
    "/api/v1/files/{id}": {
      parameters: [idParam],
      get: {
        operationId: "getFile",
        tags,
        summary: "Get a file's metadata",
        description: "Role: viewer. With the live test cases that reference it.",
        responses: { "200": ok("StoredFileDetail", ref("StoredFileDetail")), ...errors },
      },
      delete: {
        operationId: "deleteFile",
        tags,
        summary: "Delete a file",
        description: "Role: editor. Removes the record and its stored bytes. 409 (naming the cases) while a live test case references it.",
        responses: { ...noContent, ...errors, ...conflict },
      },
    },
    "/api/v1/files/{id}/content": {
      parameters: [idParam],
      get: {
        operationId: "getFileContent",
        tags,
        summary: "Download a file",
        description:
          "Role: viewer. The bytes as an attachment (`Content-Disposition: attachment; filename*=UTF-8''…`), with the sniffed Content-Type and `X-Content-Type-Options: nosniff`.",
        responses: {
          "200": {
            description: "The file's bytes",
            content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
          },
          ...errors,
        },
      },
    },
  };
}

function fileComponents(): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {
    StoredFile: jsonSchema(storedFileResource, "output"),
    StoredFileDetail: jsonSchema(storedFileDetail, "output"),
    FileInput: {
      ...jsonSchema(fileInputSchema, "input"),
      description:
        'The execution model\'s FileInput on a test case: exactly one of `path` ("file:<id>" of a stored file) or `url`; at most 10 per case. `cache` (URLs only) defaults to true.',
    },
    ProcessedFileInput: jsonSchema(processedFileResource, "output"),
    FilePreview: jsonSchema(filePreviewResource, "output"),
  };
  Object.values(out).forEach(openObjects);
  return out;
}

export function filesOpenApi(): OpenApiPart {
  return featurePart(
    "Files",
    'The workspace\'s file store (the execution model\'s file inputs): uploads up to 25 MB, typed by their content and deduplicated by sha256, that test cases reference as `{"path": "file:<id>"}`. Read: viewer; upload/delete: editor.',
    {
      paths: paths(),
      schemas: fileComponents(),
      requests: { FilePreviewInput: jsonSchema(filePreviewBody) },
      requestBodies: {
        FileUpload: {
          required: true,
          description: "One file in the multipart field `file`",
          content: {
            "multipart/form-data": {
              schema: { type: "object", required: ["file"], properties: { file: { type: "string", format: "binary" } } },
              encoding: { file: { contentType: "application/octet-stream" } },
            },
          },
        },
      },
    },
  );
}
