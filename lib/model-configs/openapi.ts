import { z } from "zod";
import {
  featurePart,
  jsonSchema,
  patchBody,
  responseSchema,
  outputComponents,
  secretWarnings,
  type OpenApiPart,
} from "@/lib/api/openapi-kit";
import { collection, errors, idParam, ok, queryParameters, single } from "@/lib/api/openapi-paths";
import { rateLimitFields } from "@/lib/rate-limits/schemas";
import { modelConfigDeleteQuery, modelConfigInput, modelConfigPatch } from "./schemas";

/**
 * The REST contract of model configurations: the response resource (its DTO type is `z.output`
 * of it, lib/model-configs/dto.ts), the OpenAPI component and the paths under /api/v1/model-configs.
 */

export const modelConfigResource = z.object({
  id: z.uuid(),
  name: z.string(),
  base_url: z.string(),
  model: z.string(),
  embedding_model: z.string().nullable(),
  api_key_hint: z.string().nullable().describe("A masked hint such as ••••abcd; the key itself is write-only and never returned"),
  has_api_key: z.boolean().describe("An API key is stored (api_key_hint is set)"),
  temperature: z.number().nullable(),
  max_tokens: z.number().int().nullable(),
  input_price_per_mtok: z.number().nullable().describe("Price per million prompt tokens (matrix cost estimates); null when not set"),
  output_price_per_mtok: z.number().nullable().describe("Price per million completion tokens; null when not set"),
  supports_vision: z
    .boolean()
    .describe(
      "The model accepts images: image files of test cases are sent to it as image_url parts; otherwise a case with an image is an error",
    ),
  rpm: rateLimitFields.rpm,
  tpm: rateLimitFields.tpm,
  max_concurrency: rateLimitFields.max_concurrency,
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});

/** What an update answers: the configuration, plus what the update did that was not asked (a key dropped). */
export const modelConfigUpdateResult = modelConfigResource.extend({ warnings: secretWarnings });

/** The outcome of "Test connection" (the API route and the page button). */
export const connectionResult = z.object({
  ok: z.boolean(),
  latency_ms: z.number().int(),
  model: z.string(),
  message: z.string().describe("Readable either way: what answered, or why the endpoint failed"),
});

export function modelConfigsOpenApi(): OpenApiPart {
  return featurePart(
    "Model configurations",
    "OpenAI-compatible endpoints (base URL, model, write-only API key) that agents, judges and simulated users call. Read: viewer; write: admin.",
    {
      paths: {
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
              "200": ok("The connection check", responseSchema(connectionResult)),
              ...errors,
            },
          },
        },
      },
      schemas: outputComponents({ ModelConfig: modelConfigUpdateResult }),
      requests: { ModelConfigInput: jsonSchema(modelConfigInput), ModelConfigPatch: patchBody(modelConfigPatch) },
    },
  );
}
