import { featurePart, outputComponents, type OpenApiPart, jsonSchema } from "@/lib/api/openapi-kit";
import { body, errorResponse, errors, idParam, list, listParameters, ok, ref, tooLarge } from "@/lib/api/openapi-paths";
import {
  caseDraftResource,
  conversationListQuery,
  conversationResource,
  conversationSummaryResource,
  draftCaseInput,
  fromConversationsInput,
  fromConversationsReport,
} from "./schemas";

/** The REST contract of traffic: the OTLP receiver, conversations, and cases drafted from them. */

const otlpBody = {
  required: true,
  description:
    "An OTLP ExportTraceServiceRequest (opentelemetry-proto `collector/trace/v1`), as the OpenTelemetry OTLP/HTTP exporters send it; " +
    "`Content-Encoding: gzip` accepted.",
  content: {
    "application/x-protobuf": { schema: { type: "string", format: "binary" } },
    "application/json": { schema: { type: "object", properties: { resourceSpans: { type: "array", items: { type: "object" } } } } },
  },
};

const otlpAnswer = {
  description:
    "Accepted: an ExportTraceServiceResponse in the request's encoding; `partialSuccess` {rejectedSpans, errorMessage} when spans " +
    "were rejected (invalid trace or span ids), empty otherwise",
  content: {
    "application/x-protobuf": { schema: { type: "string", format: "binary" } },
    "application/json": {
      schema: {
        type: "object",
        properties: {
          partialSuccess: { type: "object", properties: { rejectedSpans: { type: "integer" }, errorMessage: { type: "string" } } },
        },
      },
    },
  },
};

function paths() {
  return {
    "/api/v1/otlp/v1/traces": {
      post: {
        operationId: "ingestTraces",
        tags: ["Traffic"],
        summary: "Receive OpenTelemetry traces (OTLP/HTTP)",
        description:
          "Role: editor (or an ingest-only key, which can do nothing else). Point an OpenTelemetry exporter here: " +
          "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=<assay>/api/v1/otlp/v1/traces, OTEL_EXPORTER_OTLP_TRACES_HEADERS=Authorization=Bearer%20<key>. " +
          "Spans following the GenAI semantic conventions or OpenInference are assembled into conversations (by gen_ai.conversation.id or " +
          "session.id, else by trace); late and out-of-order spans merge. Limits: 5 MB as sent, 32 MB inflated, 5,000 spans per request " +
          "(413), 256 KiB per string attribute (400). Errors carry a google.rpc.Status body in the request's encoding (the JSON one " +
          "also Assay's `error` envelope); 415 for another content type or encoding.",
        requestBody: otlpBody,
        responses: {
          "200": otlpAnswer,
          ...errors,
          ...tooLarge("5 MB (32 MB inflated), or has more than 5,000 spans"),
          "415": errorResponse("Not application/x-protobuf or application/json, or an encoding other than gzip"),
        },
      },
    },
    "/api/v1/conversations": {
      get: {
        operationId: "listConversations",
        tags: ["Traffic"],
        summary: "List conversations",
        description: "Role: viewer. Newest first (by start), keyset pages; filters combine.",
        parameters: listParameters(conversationListQuery),
        responses: { "200": list("ConversationSummary"), ...errors },
      },
    },
    "/api/v1/conversations/{id}": {
      parameters: [idParam],
      get: {
        operationId: "getConversation",
        tags: ["Traffic"],
        summary: "Get a conversation",
        description: "Role: viewer. The transcript (the shape of a case result's), tool calls with results and durations, errors.",
        responses: { "200": ok("The conversation", ref("Conversation")), ...errors },
      },
    },
    "/api/v1/conversations/{id}/draft-case": {
      parameters: [idParam],
      post: {
        operationId: "draftCaseFromConversation",
        tags: ["Traffic"],
        summary: "Draft a test case from a conversation",
        description:
          "Role: editor. Returns the draft without saving it. One user turn → a single-turn case; several → a simulated-user case " +
          "(persona, user context and expected outcomes drafted by the suite's judge model; max_turns = user turns + 2; expected tool " +
          "calls from the tools called). Without a judge model the drafted fields are left out and `notes` says why.",
        requestBody: body("DraftCaseInput"),
        responses: { "200": ok("The draft", ref("CaseDraft")), ...errors, ...tooLarge() },
      },
    },
    "/api/v1/suites/{id}/test-cases/from-conversations": {
      parameters: [idParam],
      post: {
        operationId: "createCasesFromConversations",
        tags: ["Traffic"],
        summary: "Draft cases from conversations into a suite",
        description:
          "Role: editor. One case per conversation, saved with status draft and its source; conversations that cannot be drafted or " +
          "saved are reported in `failed`, the others are kept.",
        requestBody: body("FromConversationsInput"),
        responses: { "201": ok("What was drafted", ref("FromConversationsReport")), ...errors, ...tooLarge() },
      },
    },
  };
}

export function trafficOpenApi(): OpenApiPart {
  return featurePart(
    "Traffic",
    "An agent's real conversations, received as OpenTelemetry traces (OTLP/HTTP), and test cases drafted from them. " +
      "Read: viewer; send traces and draft cases: editor (or an ingest-only key for traces).",
    {
      paths: paths(),
      schemas: outputComponents({
        ConversationSummary: conversationSummaryResource,
        Conversation: conversationResource,
        CaseDraft: caseDraftResource,
        FromConversationsReport: fromConversationsReport,
      }),
      requests: { DraftCaseInput: jsonSchema(draftCaseInput), FromConversationsInput: jsonSchema(fromConversationsInput) },
    },
  );
}
