import { z } from "zod";
import { errorEnvelope, jsonSchema, resource, serverFields, type JsonSchema, type OpenApiPart } from "@/lib/api/openapi-kit";
import { json, ok } from "@/lib/api/openapi-paths";
import { agentsOpenApi } from "@/lib/agents/openapi";
import { alertsOpenApi } from "@/lib/alerts/openapi";
import { reviewOpenApi } from "@/lib/review/openapi";
import { comparisonsOpenApi } from "@/lib/comparisons/openapi";
import { filesOpenApi } from "@/lib/files/openapi";
import { matricesOpenApi } from "@/lib/matrices/openapi";
import { modelConfigsOpenApi } from "@/lib/model-configs/openapi";
import { presetsOpenApi } from "@/lib/presets/openapi";
import { retentionOpenApi } from "@/lib/retention/openapi";
import { runsOpenApi } from "@/lib/runs/openapi";
import { shareLinksOpenApi } from "@/lib/share-links/openapi";
import { suitesOpenApi } from "@/lib/suites/openapi";
import { testCasesOpenApi } from "@/lib/test-cases/openapi";
import { trafficOpenApi } from "@/lib/traffic/openapi";
import { webhooksOpenApi } from "@/lib/webhooks/openapi";

/**
 * The OpenAPI 3.1 document of /api/v1, served at GET /api/v1/openapi.json. This module only
 * assembles it: each feature describes its own resources and paths in `lib/<feature>/openapi.ts`
 * from the same zod schemas its routes validate with, using the parts in lib/api/openapi-kit.ts
 * (schemas, components) and lib/api/openapi-paths.ts (parameters, responses, errors).
 */

/** In the order of the document's tags (how /api/docs lists them). */
function parts(): OpenApiPart[] {
  return [
    modelConfigsOpenApi(),
    agentsOpenApi(),
    suitesOpenApi(),
    testCasesOpenApi(),
    runsOpenApi(),
    comparisonsOpenApi(),
    matricesOpenApi(),
    alertsOpenApi(),
    shareLinksOpenApi(),
    reviewOpenApi(),
    webhooksOpenApi(),
    retentionOpenApi(),
    presetsOpenApi(),
    filesOpenApi(),
    trafficOpenApi(),
  ];
}

/**
 * Request schemas are published under `components.requestBodies`, not `components.schemas`:
 * generators such as openapi-typescript make a property with a `default` required in a schema
 * component (a response, in their view) but never inside a request body, so defaulted fields stay
 * optional in generated clients. Starting a run needs no body at all.
 */
function requestBodies(requests: Record<string, JsonSchema>) {
  return Object.fromEntries(
    Object.entries(requests).map(([name, schema]) => [name, { required: name !== "RunStartInput", ...json(schema) }]),
  );
}

export function buildOpenApiDocument() {
  const features = parts();
  const merge = <T>(pick: (part: OpenApiPart) => Record<string, T> | undefined) =>
    Object.assign({}, ...features.map((part) => pick(part) ?? {})) as Record<string, T>;
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
    tags: [...features.flatMap((part) => part.tags), { name: "Meta", description: "Service health and this document; no API key needed." }],
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
      ...merge((part) => part.paths),
    },
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "A workspace API key" } },
      schemas: {
        ...merge((part) => part.schemas),
        ServerFields: resource(serverFields, z.object({})),
        Error: jsonSchema(errorEnvelope, "output"),
      },
      requestBodies: { ...requestBodies(merge((part) => part.requests)), ...merge((part) => part.requestBodies) },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
