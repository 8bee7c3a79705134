import { db } from "@/lib/db";
import { makeWorkspace } from "../helpers/factories";
import { makeSuiteWithCases } from "../runs/helpers";

/**
 * An editor's workspace with a suite of two single-turn cases whose agent declares spec 004's
 * Agent Eval variables: AIConfiguration (static: the agent's model configuration or "gpt-b",
 * a second configuration answering as model-b) and Temperature (number, default 0.2).
 */
export async function makeEvalVariablesSuite(baseUrl: string, caseData?: (i: number) => Record<string, unknown>) {
  const { ctx } = await makeWorkspace("editor");
  const made = await makeSuiteWithCases(ctx, 2, { baseUrl, caseData });
  const other = await db.modelConfig.create({ data: { workspaceId: ctx.workspaceId, name: "gpt-b", baseUrl, model: "model-b" } });
  await db.agent.update({
    where: { id: made.agent.id },
    data: {
      variablesSchema: [
        {
          name: "AIConfiguration",
          display_name: "AI configuration",
          data_type: "string",
          value_source: "static",
          possible_values: [{ value: made.modelConfig.name }, { value: "gpt-b" }],
          default_value: made.modelConfig.name,
          required: false,
        },
        {
          name: "Temperature",
          display_name: "Temperature",
          data_type: "number",
          value_source: "freeform",
          possible_values: [],
          default_value: 0.2,
          required: false,
        },
      ],
    },
  });
  return { ctx, ...made, other };
}
