import { randomBytes } from "node:crypto";
import { db } from "@/lib/db";
import type { VariableDefinition } from "@/lib/agents/schemas";

const uid = () => randomBytes(4).toString("hex");

/** The spec 004 example schema (snake_case, as agents store it). */
export const VARIABLES: VariableDefinition[] = [
  {
    name: "AIConfiguration",
    display_name: "AI Configuration",
    description: null,
    data_type: "string",
    value_source: "static",
    possible_values: [
      { value: "gpt-4o", label: "GPT-4o", description: null },
      { value: "claude-opus", label: "Claude Opus", description: null },
    ],
    default_value: null,
    required: false,
  },
  {
    name: "Temperature",
    display_name: "Temperature",
    description: null,
    data_type: "number",
    value_source: "freeform",
    possible_values: [],
    default_value: 0.7,
    required: false,
  },
  {
    name: "Verbose",
    display_name: "Verbose",
    description: null,
    data_type: "boolean",
    value_source: "freeform",
    possible_values: [],
    default_value: null,
    required: false,
  },
  {
    name: "AsOf",
    display_name: "As of",
    description: null,
    data_type: "date",
    value_source: "freeform",
    possible_values: [],
    default_value: null,
    required: false,
  },
];

export async function makeModelConfig(workspaceId: string, name = `mc-${uid()}`) {
  return db.modelConfig.create({
    data: { workspaceId, name, baseUrl: "http://127.0.0.1:9/v1", model: "fake" },
    select: { id: true, name: true },
  });
}

export async function makeAgent(workspaceId: string, opts: { name?: string; variables?: unknown } = {}) {
  const mc = await makeModelConfig(workspaceId);
  return db.agent.create({
    data: {
      workspaceId,
      name: opts.name ?? `agent-${uid()}`,
      kind: "chat",
      systemPrompt: "You are helpful.",
      modelConfigId: mc.id,
      variablesSchema: (opts.variables ?? VARIABLES) as object,
    },
    select: { id: true, name: true },
  });
}

export async function makeCases(workspaceId: string, suiteId: string, statuses: ("draft" | "active" | "archived")[], deleted = false) {
  await db.testCase.createMany({
    data: statuses.map((status, i) => ({
      workspaceId,
      suiteId,
      name: `case ${i}`,
      status,
      sortOrder: i,
      deletedAt: deleted ? new Date() : null,
    })),
  });
}
