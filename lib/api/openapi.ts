import { z } from "zod";
import { componentSchemas, jsonSchema, requestSchemas, type JsonSchema, type RequestSchemaName } from "@/lib/api/openapi-schemas";
import { paginationQuery } from "@/lib/api/query";
import { comparisonListQuery, comparisonReportQuery, pairListQuery } from "@/lib/comparisons/schemas";
import { alertListQuery } from "@/lib/alerts/schemas";
import { matrixListQuery } from "@/lib/matrices/schemas";
import { deliveryListQuery } from "@/lib/webhooks/schemas";
import { modelConfigDeleteQuery } from "@/lib/model-configs/schemas";
import { caseResultListQuery, runListQuery, runReportQuery } from "@/lib/runs/schemas";
import { cleanupQuery } from "@/lib/retention/schemas";
import { suiteListQuery } from "@/lib/suites/schemas";
import { testCaseExportQuery, testCaseImportQuery, testCaseListQuery } from "@/lib/test-cases/schemas";

/**
 * The OpenAPI 3.1 document of /api/v1, generated from the same zod schemas the API validates
 * with: the routes and this builder import the query and body schemas from
 * `lib/<feature>/schemas.ts`. Request bodies and query parameters use zod's input view,
 * responses its output view (see openapi-schemas.ts). Served at GET /api/v1/openapi.json.
 */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Query schema → OpenAPI parameters (one per property, `in: query`). */
function queryParameters(schema: z.ZodType, descriptions: Record<string, string> = {}) {
  const js = jsonSchema(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(js.properties ?? {}).map(([name, s]) => ({
    name,
    in: "query",
    required: js.required?.includes(name) && !("default" in s) ? true : false,
    schema: s,
    ...(descriptions[name] ? { description: descriptions[name] } : {}),
  }));
}

const idParam = { name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } };
const listQueryDocs = {
  cursor: "Opaque cursor from the previous page's next_cursor",
  limit: "Page size (1–200, default 50)",
};

const errorResponse = (description: string) => ({ description, content: { "application/json": { schema: ref("Error") } } });
const errors = {
  "400": errorResponse("Invalid input: `issues` lists every invalid field with its path"),
  "401": errorResponse("Missing, malformed, unknown, expired or revoked API key"),
  "403": errorResponse("The key's role does not allow this"),
  "404": errorResponse("Not found, or outside the key's workspace (never revealed)"),
};
const conflict = { "409": errorResponse("Conflicts with existing data (e.g. a duplicate name)") };
const tooLarge = (limit = "1 MB") => ({
  "413": errorResponse(`The body is larger than ${limit}; refused before it is read in full (code payload_too_large)`),
});
const json = (schema: JsonSchema) => ({ content: { "application/json": { schema } } });
const ok = (description: string, schema: JsonSchema) => ({ description, ...json(schema) });
const list = (item: string) =>
  ok(`A page of ${item} objects`, {
    type: "object",
    required: ["data", "next_cursor"],
    properties: {
      data: { type: "array", items: ref(item) },
      next_cursor: { type: ["string", "null"], description: "Pass as ?cursor= for the next page; null on the last page" },
    },
  });
const body = (name: RequestSchemaName) => ({ $ref: `#/components/requestBodies/${name}` });
/** Every request schema as a reusable request body; starting a run needs no body at all. */
const requestBodies = Object.fromEntries(
  Object.entries(requestSchemas).map(([name, schema]) => [name, { required: name !== "RunStartInput", ...json(schema) }]),
);
const noContent = { "204": { description: "Done; no body" } };

/**
 * `item` names the components (`${item}`, `${item}Input`, `${item}Patch`) and, with `plural`, the
 * operationIds a client generator turns into method names (listSuites, createSuite, getSuite…).
 */
type Crud = {
  tag: string;
  item: string;
  plural: string;
  listParams?: unknown[];
  deleteParams?: unknown[];
  deleteNote: string;
  writeRole?: string;
};

function collection({ tag, item, plural, listParams = queryParameters(paginationQuery, listQueryDocs), writeRole = "editor" }: Crud) {
  return {
    get: {
      operationId: `list${plural}`,
      tags: [tag],
      summary: `List ${tag.toLowerCase()}`,
      description: "Role: viewer.",
      parameters: listParams,
      responses: { "200": list(item), ...errors },
    },
    post: {
      operationId: `create${item}`,
      tags: [tag],
      summary: `Create a ${item}`,
      description: `Role: ${writeRole}.`,
      requestBody: body(`${item}Input` as RequestSchemaName),
      responses: { "201": ok(`The created ${item}`, ref(item)), ...errors, ...conflict, ...tooLarge() },
    },
  };
}

function single({ tag, item, deleteNote, deleteParams, writeRole = "editor" }: Crud) {
  return {
    parameters: [idParam],
    get: {
      operationId: `get${item}`,
      tags: [tag],
      summary: `Get a ${item}`,
      description: "Role: viewer.",
      responses: { "200": ok(item, ref(item)), ...errors },
    },
    patch: {
      operationId: `update${item}`,
      tags: [tag],
      summary: `Update a ${item}`,
      description: `Role: ${writeRole}. Send only the fields to change; the merged result is validated like a create.`,
      requestBody: body(`${item}Patch` as RequestSchemaName),
      responses: { "200": ok(`The updated ${item}`, ref(item)), ...errors, ...conflict, ...tooLarge() },
    },
    delete: {
      operationId: `delete${item}`,
      tags: [tag],
      summary: `Delete a ${item}`,
      description: `Role: ${writeRole}. ${deleteNote}`.trim(),
      ...(deleteParams ? { parameters: deleteParams } : {}),
      responses: { ...noContent, ...errors, ...conflict },
    },
  };
}

function runPaths() {
  const runId = idParam;
  return {
    "/api/v1/suites/{id}/runs": {
      parameters: [idParam],
      get: {
        operationId: "listRuns",
        tags: ["Runs"],
        summary: "List a suite's runs (newest first)",
        description: "Role: viewer.",
        parameters: queryParameters(runListQuery, listQueryDocs),
        responses: { "200": list("Run"), ...errors },
      },
      post: {
        operationId: "startRun",
        tags: ["Runs"],
        summary: "Start a run",
        description:
          "Role: editor. Runs the suite's active cases, optionally narrowed by tags/difficulty (or exactly `case_ids`); 202 with the pending run. 400 when no case matches. " +
          "Spec 004 variables resolve per case (run > suite > test > type; a test-locked value wins); `preset` (a preset's name or id) applies its values first and `variables` override them. " +
          "A 400 names `variables.NAME` and the case when a value does not resolve.",
        requestBody: body("RunStartInput"),
        responses: { "202": ok("The pending Run", ref("Run")), ...errors, ...tooLarge() },
      },
    },
    "/api/v1/runs/{id}": {
      parameters: [runId],
      get: {
        operationId: "getRun",
        tags: ["Runs"],
        summary: "Get a run (status, totals, summary)",
        description: "Role: viewer.",
        responses: { "200": ok("Run", ref("Run")), ...errors },
      },
    },
    "/api/v1/runs/{id}/changes": {
      parameters: [runId],
      get: {
        operationId: "getRunChanges",
        tags: ["Runs"],
        summary: "What changed since the previous run",
        description:
          "Role: viewer. The cases whose verdict flipped since the suite's previous completed ordinary run (comparison arms and matrix combinations are experiments and never compared), " +
          "each with its cause: `test` (the case's content or the suite's evaluation settings changed), `agent` (the agent configuration changed), `both`, or `neither` (possibly flaky). " +
          "`agent_fields`, `evaluation_fields` and `case_fields` list what differs, field by field.",
        responses: { "200": ok("RunChanges", ref("RunChanges")), ...errors },
      },
    },
    "/api/v1/runs/{id}/results": {
      parameters: [runId],
      get: {
        operationId: "listCaseResults",
        tags: ["Runs"],
        summary: "A run's case results (paginated)",
        description:
          "Role: viewer. Case order (position, then baseline before variant), keyset-paginated (limit up to 500). " +
          "Each result's `transcript` (the largest field) is present only with `include=transcript`; without it the field is omitted and never read. " +
          "GET /api/v1/case-results/{id} always returns one result's transcript and LLM calls.",
        parameters: queryParameters(caseResultListQuery, {
          ...listQueryDocs,
          limit: "Page size (1–500, default 100)",
          include:
            "Comma-separated extras to embed in each result: `transcript` (the conversation). Unknown names are a 400. Without it, `transcript` is omitted.",
        }),
        responses: { "200": list("CaseResult"), ...errors },
      },
    },
    "/api/v1/runs/{id}/cancel": {
      parameters: [runId],
      post: {
        operationId: "cancelRun",
        tags: ["Runs"],
        summary: "Cancel a run",
        description: "Role: editor. No new cases start; pending ones are skipped; 409 when the run already ended.",
        responses: { "200": ok("The Run", ref("Run")), ...errors, ...conflict },
      },
    },
    "/api/v1/runs/{id}/report": {
      parameters: [runId],
      get: {
        operationId: "getRunReport",
        tags: ["Runs"],
        summary: "A run report",
        description: "Role: viewer. json (spec 000 report), markdown, csv or junit (JUnit XML for CI).",
        parameters: queryParameters(runReportQuery, { format: "json, markdown, csv or junit" }),
        responses: { "200": { description: "The report file" }, ...errors },
      },
    },
    "/api/v1/case-results/{id}": {
      parameters: [idParam],
      get: {
        operationId: "getCaseResult",
        tags: ["Runs"],
        summary: "One case result with every LLM call's request and raw response",
        description: "Role: viewer. Always includes the case's `transcript` and its `llm_calls` (one row: no `include` needed).",
        responses: { "200": ok("CaseResultDetail", ref("CaseResultDetail")), ...errors },
      },
    },
  };
}

/** Spec 004 presets: named sets of run-level variable values per suite. */
function filePaths() {
  const tags = ["Files"];
  return {
    "/api/v1/files": {
      get: {
        operationId: "listFiles",
        tags,
        summary: "List the workspace's files",
        description: "Role: viewer. Newest first.",
        parameters: queryParameters(paginationQuery, listQueryDocs),
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

function presetPaths() {
  const tags = ["Presets"];
  return {
    "/api/v1/suites/{id}/presets": {
      parameters: [idParam],
      get: {
        operationId: "listPresets",
        tags,
        summary: "List a suite's variable presets",
        description: "Role: viewer. Sorted by name; one page (next_cursor is always null).",
        responses: { "200": list("Preset"), ...errors },
      },
      post: {
        operationId: "createPreset",
        tags,
        summary: "Add a preset",
        description:
          "Role: editor. `values` are checked against the suite agent's variables as run values are (known names, data type, static possible values); " +
          "names are unique per suite (409). Start a run with it through POST /api/v1/suites/{id}/runs `preset`.",
        requestBody: body("PresetInput"),
        responses: { "201": ok("The created Preset", ref("Preset")), ...errors, ...conflict, ...tooLarge() },
      },
    },
    "/api/v1/presets/{id}": {
      parameters: [idParam],
      get: {
        operationId: "getPreset",
        tags,
        summary: "Get a preset",
        description: "Role: viewer.",
        responses: { "200": ok("Preset", ref("Preset")), ...errors },
      },
      patch: {
        operationId: "updatePreset",
        tags,
        summary: "Update a preset",
        description: "Role: editor. A new `values` object replaces the stored one; validated like a create.",
        requestBody: body("PresetPatch"),
        responses: { "200": ok("The updated Preset", ref("Preset")), ...errors, ...conflict, ...tooLarge() },
      },
      delete: {
        operationId: "deletePreset",
        tags,
        summary: "Delete a preset",
        description: "Role: editor.",
        responses: { ...noContent, ...errors },
      },
    },
  };
}

function matrixPaths() {
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
        parameters: queryParameters(matrixListQuery, listQueryDocs),
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

function comparisonPaths() {
  const tags = ["Comparisons"];
  return {
    "/api/v1/suites/{id}/comparisons": {
      parameters: [idParam],
      get: {
        operationId: "listComparisons",
        tags,
        summary: "List a suite's comparisons (newest first)",
        description: "Role: viewer.",
        parameters: queryParameters(comparisonListQuery, listQueryDocs),
        responses: { "200": list("Comparison"), ...errors },
      },
      post: {
        operationId: "createComparison",
        tags,
        summary: "Start a comparison",
        description:
          "Role: editor. Either two arms to execute on the suite's selected cases (`baseline`, `variant`: the suite's agent with overrides; they must differ in at least one field), " +
          "or two completed runs of this suite to pair by test case (`baseline_run_id`, `variant_run_id`; nothing is executed). 202 with the pending comparison; poll GET /api/v1/comparisons/{id}.",
        requestBody: body("ComparisonInput"),
        responses: { "202": ok("The pending Comparison", ref("Comparison")), ...errors, ...tooLarge() },
      },
    },
    "/api/v1/suites/{id}/comparisons/import": {
      parameters: [idParam],
      post: {
        operationId: "importComparison",
        tags,
        summary: "Import a session document as a comparison",
        description:
          "Role: editor. Loads a spec 003 session document (the JSON report of a comparison, or TestSession.to_dict()) as a read-only comparison with the same diffs and statistics.",
        requestBody: body("ComparisonSessionDocument"),
        responses: { "201": ok("The imported Comparison", ref("Comparison")), ...errors, ...tooLarge("10 MB") },
      },
    },
    "/api/v1/comparisons/{id}": {
      parameters: [idParam],
      get: {
        operationId: "getComparison",
        tags,
        summary: "Get a comparison (status, progress, summary)",
        description: "Role: viewer. `summary` is set when the comparison ends.",
        responses: { "200": ok("Comparison", ref("Comparison")), ...errors },
      },
    },
    "/api/v1/comparisons/{id}/pairs": {
      parameters: [idParam],
      get: {
        operationId: "listComparisonPairs",
        tags,
        summary: "A comparison's pairs (case × repetition, paginated)",
        description: "Role: viewer.",
        parameters: queryParameters(pairListQuery, {
          verdict_change: "Only pairs with this verdict change",
          sort: "index (default, the run order) or a diff, ascending; prefix - for descending",
          cursor: listQueryDocs.cursor,
          limit: "Page size (1–500, default 50)",
        }),
        responses: { "200": list("ComparisonPair"), ...errors },
      },
    },
    "/api/v1/comparisons/{id}/cancel": {
      parameters: [idParam],
      post: {
        operationId: "cancelComparison",
        tags,
        summary: "Cancel a comparison",
        description: "Role: editor. No new executions start; 409 when the comparison already ended.",
        responses: { "200": ok("The Comparison", ref("Comparison")), ...errors, ...conflict },
      },
    },
    "/api/v1/comparisons/{id}/report": {
      parameters: [idParam],
      get: {
        operationId: "getComparisonReport",
        tags,
        summary: "A comparison report",
        description:
          "Role: viewer. json: the spec 003 session document (importable back, and loadable by the spec's own TestSession.from_dict: the variant under both " +
          "variant and docstratum, context_tokens per result (0 when unknown), llms_source_path (null when unknown)); csv: one row per pair with the columns question, baseline_tokens, variant_tokens, token_overhead, " +
          "baseline_latency_ms, variant_latency_ms, latency_diff_ms, response_length_ratio, baseline_status, variant_status, verdict_change (latencies with two decimals). Sent as an attachment.",
        parameters: queryParameters(comparisonReportQuery, { format: "json (default) or csv" }),
        responses: {
          "200": {
            description: "The report file",
            content: { "application/json": { schema: ref("ComparisonSession") }, "text/csv": { schema: { type: "string" } } },
          },
          ...errors,
        },
      },
    },
  };
}

/** Regression alerts, baseline pinning and webhooks (issue 10). */
function alertWebhookPaths() {
  const alerts = ["Alerts"];
  const webhooks = ["Webhooks"];
  const webhookId = idParam;
  return {
    "/api/v1/alerts": {
      get: {
        operationId: "listAlerts",
        tags: alerts,
        summary: "List regression alerts (newest first)",
        description: "Role: viewer.",
        parameters: queryParameters(alertListQuery, {
          ...listQueryDocs,
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
    "/api/v1/webhooks": {
      get: {
        operationId: "listWebhooks",
        tags: webhooks,
        summary: "List the workspace's webhooks",
        description: "Role: admin. Never returns secrets. One page (next_cursor is always null).",
        responses: { "200": list("Webhook"), ...errors },
      },
      post: {
        operationId: "createWebhook",
        tags: webhooks,
        summary: "Add a webhook",
        description:
          "Role: admin. The URL must be http(s) and pass the network guard (never link-local or cloud metadata; private networks only when the instance allows them). " +
          "The secret (16–256 characters) signs every delivery and is write-only.",
        requestBody: body("WebhookInput"),
        responses: { "201": ok("The created Webhook", ref("Webhook")), ...errors, ...conflict, ...tooLarge() },
      },
    },
    "/api/v1/webhooks/{id}": {
      parameters: [webhookId],
      get: {
        operationId: "getWebhook",
        tags: webhooks,
        summary: "Get a webhook",
        description: "Role: admin.",
        responses: { "200": ok("Webhook", ref("Webhook")), ...errors },
      },
      patch: {
        operationId: "updateWebhook",
        tags: webhooks,
        summary: "Update a webhook",
        description: "Role: admin. Send only the fields to change; a new secret replaces the stored one.",
        requestBody: body("WebhookPatch"),
        responses: { "200": ok("The updated Webhook", ref("Webhook")), ...errors, ...tooLarge() },
      },
      delete: {
        operationId: "deleteWebhook",
        tags: webhooks,
        summary: "Delete a webhook",
        description: "Role: admin. Its delivery log and queued deliveries are deleted with it.",
        responses: { ...noContent, ...errors },
      },
    },
    "/api/v1/webhooks/{id}/deliveries": {
      parameters: [webhookId],
      get: {
        operationId: "listWebhookDeliveries",
        tags: webhooks,
        summary: "A webhook's delivery log (newest first)",
        description: "Role: admin. Status, attempts, last response code, time and body excerpt, and every attempt.",
        parameters: queryParameters(deliveryListQuery, listQueryDocs),
        responses: { "200": list("WebhookDelivery"), ...errors },
      },
    },
    "/api/v1/webhooks/{id}/test": {
      parameters: [webhookId],
      post: {
        operationId: "testWebhook",
        tags: webhooks,
        summary: "Send a test event",
        description: "Role: admin. Queues a `webhook.test` delivery (whatever the webhook's events); 202 with the pending delivery.",
        responses: { "202": ok("The queued WebhookDelivery", ref("WebhookDelivery")), ...errors },
      },
    },
    "/api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver": {
      parameters: [webhookId, { name: "deliveryId", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
      post: {
        operationId: "redeliverWebhookDelivery",
        tags: webhooks,
        summary: "Redeliver a delivery",
        description: "Role: admin. Queues the delivery's payload again as a new delivery (the old one keeps its log); 202 with it.",
        responses: { "202": ok("The queued WebhookDelivery", ref("WebhookDelivery")), ...errors },
      },
    },
  };
}

/** Retention settings and the cleanup (spec 002; instance admins only). */
function retentionPaths() {
  const tags = ["Retention"];
  const role = "Role: admin of the instance's first workspace (the settings are instance-wide).";
  return {
    "/api/v1/settings/retention": {
      get: {
        operationId: "getRetentionSettings",
        tags,
        summary: "Read the retention settings with their sources",
        description: `${role} Each value comes with \`source\`: database, env or default.`,
        responses: { "200": ok("RetentionSettings", ref("RetentionSettings")), ...errors },
      },
      patch: {
        operationId: "updateRetentionSettings",
        tags,
        summary: "Change the retention settings",
        description: `${role} Given fields are stored; \`null\` clears the stored value (env/default apply again); omitted fields are untouched. Unknown fields are refused.`,
        requestBody: body("RetentionSettingsPatch"),
        responses: { "200": ok("The settings now in effect", ref("RetentionSettings")), ...errors, ...tooLarge() },
      },
    },
    "/api/v1/admin/cleanup": {
      post: {
        operationId: "runRetentionCleanup",
        tags,
        summary: "Run the retention cleanup now (or preview it)",
        description: `${role} \`dry_run=true\` counts what a cleanup would delete and deletes nothing. A cleanup that would delete more than half of all finished runs (of every workspace) is refused with 409 \`confirmation_required\` unless \`confirm=true\`. Every call that runs is recorded as a cleanup record.`,
        parameters: queryParameters(cleanupQuery, {
          dry_run: "true: count only, delete nothing (default false)",
          confirm: "true: go ahead even if more than half of all finished runs would be deleted (default false)",
        }),
        responses: {
          "200": ok("What was (or would be) deleted", ref("CleanupResult")),
          ...errors,
          "409": errorResponse(
            "confirmation_required: the cleanup would delete more than half of all finished runs; repeat with confirm=true",
          ),
        },
      },
    },
  };
}

export function buildOpenApiDocument() {
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "Assay API",
      version: "1.0.0",
      description:
        "REST API of one Assay workspace. Authenticate with a workspace API key (Workspace settings → API keys) as `Authorization: Bearer <key>`; " +
        "the key's role (viewer, editor, admin) decides what it may do. JSON fields are snake_case. Lists return `{data, next_cursor}`; " +
        'errors return `{"error": {"code", "message", "issues": [{"path", "message"}]}}`.',
    },
    servers: [{ url: "/" }],
    security: [{ bearerAuth: [] }],
    tags: [
      {
        name: "Model configurations",
        description:
          "OpenAI-compatible endpoints (base URL, model, write-only API key) that agents, judges and simulated users call. Read: viewer; write: admin.",
      },
      {
        name: "Agents",
        description:
          "The systems under test: a chat agent (system prompt, model configuration, mocked tools) or an HTTP endpoint, with their variables. Read: viewer; write: editor.",
      },
      {
        name: "Suites",
        description:
          "Groups of test cases for one agent, with the judge model, metrics, schedule, alerting and variable values. Deleting moves a suite to the trash. Read: viewer; write: editor.",
      },
      {
        name: "Test cases",
        description:
          "Spec 001 cases of a suite (persona, opening message, expected outcomes and tool calls) plus checks; JSON/YAML import and export. Read: viewer; write: editor.",
      },
      {
        name: "Runs",
        description:
          "Executions of a suite's cases: start, follow, cancel, read the case results and download reports (JSON, Markdown, CSV, JUnit). Read: viewer; start/cancel: editor.",
      },
      {
        name: "Comparisons",
        description:
          "A/B comparisons (spec 003): baseline vs variant on the same cases, or two runs paired by test case, with per-pair latency and token diffs, " +
          "bootstrap intervals and Wilcoxon/McNemar tests; JSON session and CSV reports, session import. Read: viewer; start/cancel/import: editor.",
      },
      {
        name: "Matrices",
        description:
          "Matrix runs (spec 004 phase 3): the suite's cases once per combination of variable values (cartesian product of at most 10 axes, at most 32 combinations; every axis a variable of the agent), each an ordinary run, " +
          "with per-combination pass rate, latency, tokens, estimated cost and the best combination. Read: viewer; start/cancel: editor.",
      },
      {
        name: "Alerts",
        description:
          "Regression alerts: a completed run whose pass rate dropped by at least the suite's threshold (percentage points) against its baseline — the pinned run, " +
          "else the previous completed run over the same case selection — with the cases that flipped from passed to failed or error. Read/acknowledge: viewer; pin a baseline: editor.",
      },
      {
        name: "Webhooks",
        description:
          'Endpoints that receive alert.raised, run.completed, run.failed and comparison.completed as signed JSON POSTs (X-Assay-Signature: v1=HMAC-SHA256 of "<timestamp>.<body>"), ' +
          "retried with exponential backoff (1 min × 3ⁿ up to 6 h, 8 attempts), with a delivery log. Admin only.",
      },
      {
        name: "Retention",
        description:
          "Instance-wide retention (spec 002): runs older than `days` are deleted by a nightly cleanup at `cleanup_time` (UTC) except each suite's newest `runs` finished runs (completed, failed or cancelled), " +
          "pinned baselines, pending/running runs, runs of open alerts and arm runs of starred comparisons. Values resolve database > env (TEST_SUITES_RETENTION_*) > default. " +
          "Only admin keys of the instance's first workspace may use these routes (403 otherwise).",
      },
      {
        name: "Presets",
        description:
          "Named sets of run-level variable values per suite (spec 004 presets), selectable when starting a run (`preset`), in the run and comparison dialogs and by the CLI's --preset. Read: viewer; write: editor.",
      },
      {
        name: "Files",
        description:
          'The workspace\'s file store (spec 000 file inputs): uploads up to 25 MB, typed by their content and deduplicated by sha256, that test cases reference as `{"path": "file:<id>"}`. Read: viewer; upload/delete: editor.',
      },
      { name: "Meta", description: "Service health and this document; no API key needed." },
    ],
    paths: {
      "/api/health": {
        get: {
          operationId: "getHealth",
          tags: ["Meta"],
          summary: "Health check",
          security: [],
          responses: {
            "200": ok("The database answers", { type: "object", properties: { status: { const: "ok" } } }),
            "503": { description: "The database does not answer" },
          },
        },
      },
      "/api/v1/openapi.json": {
        get: {
          operationId: "getOpenApiDocument",
          tags: ["Meta"],
          summary: "This document",
          security: [],
          responses: { "200": { description: "OpenAPI 3.1 document", content: { "application/json": {} } } },
        },
      },
      "/api/v1/model-configs": collection({
        tag: "Model configurations",
        item: "ModelConfig",
        plural: "ModelConfigs",
        deleteNote: "",
        writeRole: "admin",
      }),
      "/api/v1/model-configs/{id}": single({
        tag: "Model configurations",
        item: "ModelConfig",
        plural: "ModelConfigs",
        writeRole: "admin",
        deleteNote: "Refused with 409 while agents or suites use it, unless ?force=true (their references are cleared).",
        deleteParams: queryParameters(modelConfigDeleteQuery, { force: "true: delete even while in use and clear the references" }),
      }),
      "/api/v1/model-configs/{id}/test": {
        parameters: [idParam],
        post: {
          operationId: "testModelConfig",
          tags: ["Model configurations"],
          summary: "Test the connection",
          description:
            "Role: admin. Sends a tiny chat completion with the stored key; 200 with ok=false and a readable message when the endpoint fails.",
          responses: {
            "200": ok("The connection check", {
              type: "object",
              required: ["ok", "latency_ms", "model", "message"],
              properties: {
                ok: { type: "boolean" },
                latency_ms: { type: "integer" },
                model: { type: "string" },
                message: { type: "string" },
              },
            }),
            ...errors,
          },
        },
      },
      "/api/v1/agents": collection({ tag: "Agents", item: "Agent", plural: "Agents", deleteNote: "" }),
      "/api/v1/agents/{id}": single({
        tag: "Agents",
        item: "Agent",
        plural: "Agents",
        deleteNote: "Refused with 409 while the agent has live suites; suites in the trash are deleted with it.",
      }),
      "/api/v1/suites": collection({
        tag: "Suites",
        item: "Suite",
        plural: "Suites",
        deleteNote: "",
        listParams: queryParameters(suiteListQuery, {
          ...listQueryDocs,
          agent_id: "Only suites of this agent",
          deleted: "true lists the trash (soft-deleted suites) instead of live suites",
          q: "Text search in the name",
        }),
      }),
      "/api/v1/suites/{id}": single({
        tag: "Suites",
        item: "Suite",
        plural: "Suites",
        deleteNote: "Soft delete: the suite moves to the trash (GET /api/v1/suites?deleted=true) and can be restored.",
      }),
      "/api/v1/suites/{id}/restore": {
        parameters: [idParam],
        post: {
          operationId: "restoreSuite",
          tags: ["Suites"],
          summary: "Restore a suite from the trash",
          description: "Role: editor. 409 when a live suite of the agent has its name.",
          responses: { "200": ok("The restored Suite", ref("Suite")), ...errors, ...conflict },
        },
      },
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
              "application/json": { schema: { type: "array", items: requestSchemas.TestCaseInput } },
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
            "Role: viewer. The spec 001 format plus checks, mode and ground_truth; importing the file back gives identical cases. " +
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
      ...runPaths(),
      ...comparisonPaths(),
      ...matrixPaths(),
      ...presetPaths(),
      ...filePaths(),
      ...alertWebhookPaths(),
      ...retentionPaths(),
    },
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "A workspace API key" } },
      schemas: componentSchemas,
      requestBodies: {
        ...requestBodies,
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
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
