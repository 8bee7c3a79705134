import { featurePart, jsonSchema, patchBody, responseSchema, secretWarnings, serverFields, type OpenApiPart } from "@/lib/api/openapi-kit";
import { collection, single } from "@/lib/api/openapi-paths";
import { agentFields, agentInput, agentPatch } from "./schemas";

/**
 * The REST contract of agents: the OpenAPI component and the paths under /api/v1/agents.
 */

/** An agent as the API and the pages show it: header values masked. */
export const agentResource = agentFields.extend(serverFields.shape);

/** What an update answers: the agent, plus what the update did that was not asked (headers dropped). */
export const agentUpdateResult = agentResource.extend({ warnings: secretWarnings });

export function agentsOpenApi(): OpenApiPart {
  return featurePart(
    "Agents",
    "The systems under test: a chat agent (system prompt, model configuration, mocked tools) or an HTTP endpoint, with their variables. Read: viewer; write: editor.",
    {
      paths: {
        "/api/v1/agents": collection({ tag: "Agents", item: "Agent", plural: "Agents", deleteNote: "" }),
        "/api/v1/agents/{id}": single({
          tag: "Agents",
          item: "Agent",
          plural: "Agents",
          deleteNote: "Refused with 409 while the agent has live suites; suites in the trash are deleted with it.",
        }),
      },
      schemas: {
        Agent: responseSchema(agentUpdateResult.describe("An agent; HTTP header values are masked (••••1234)")),
      },
      requests: { AgentInput: jsonSchema(agentInput), AgentPatch: patchBody(agentPatch) },
    },
  );
}
