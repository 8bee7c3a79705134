/** Prompts of the execution model metrics (built-in rubrics and custom prompts). */
import { isBuiltInMetric, type BuiltInMetric, type MetricConfig } from "./schemas";
import type { EvalJsonRequest } from "./types";

export type MetricInputs = {
  /** The whole conversation rendered with numbered turns. */
  conversation: string;
  question: string | null;
  response: string | null;
  groundTruth: string | null;
  /** Tool results seen by the agent (context a response can be grounded in). */
  context: string | null;
};

type InputName = keyof MetricInputs;

type Rubric = { criteria: string; uses: InputName[]; requires?: { anyOf: InputName[]; message: string } };

export const METRIC_RUBRICS: Record<BuiltInMetric, Rubric> = {
  groundedness: {
    criteria:
      "Groundedness: is every factual claim in the agent's final response supported by the reference material (the ground truth and the tool results the agent received)? The best score means every claim is supported; lower scores mean more claims that are unsupported by or contradict the reference material. Do not reward claims that are merely plausible.",
    uses: ["question", "response", "groundTruth", "context"],
    requires: { anyOf: ["groundTruth", "context"], message: "groundedness needs a ground_truth or tool results to ground the response in" },
  },
  relevance: {
    criteria:
      "Relevance: does the agent's final response address what the user asked or needed, directly and completely, without drifting into unrelated content? The best score means it fully answers the user's request; the worst means it ignores it.",
    uses: ["conversation", "response"],
  },
  coherence: {
    criteria:
      "Coherence: is the agent's final response logically organised, internally consistent and consistent with the conversation so far, with ideas that follow from one another? The best score means it reads as a clear, consistent whole.",
    uses: ["conversation", "response"],
  },
  fluency: {
    criteria:
      "Fluency: is the agent's final response well written — grammatical, natural, easy to read, with appropriate word choice? Judge the language only, not whether the content is correct.",
    uses: ["response"],
  },
  correctness: {
    criteria:
      "Correctness: compared with the ground truth, is the agent's final response factually correct and complete? The best score means it agrees with the ground truth on every essential point; contradictions and omissions of essential facts lower the score.",
    uses: ["question", "response", "groundTruth"],
    requires: { anyOf: ["groundTruth"], message: "correctness needs the case's ground_truth" },
  },
};

const SECTION_TITLES: Record<InputName, string> = {
  conversation: "Conversation",
  question: "User's question",
  response: "Final response of the agent",
  groundTruth: "Ground truth",
  context: "Tool results (context)",
};

const PLACEHOLDERS: Record<string, InputName> = {
  conversation: "conversation",
  transcript: "conversation",
  question: "question",
  input: "question",
  response: "response",
  output: "response",
  ground_truth: "groundTruth",
  context: "context",
};
const PLACEHOLDER_RE = /\{\{\s*([a-z_]+)\s*\}\}/g;

function inputText(inputs: MetricInputs, name: InputName): string {
  const value = inputs[name];
  if (value && value.trim() !== "") return value;
  return name === "response" ? "(the agent gave no response)" : "(not available)";
}

function sections(inputs: MetricInputs, names: InputName[]): string {
  return names.map((n) => `## ${SECTION_TITLES[n]}\n${inputText(inputs, n)}`).join("\n\n");
}

/** Why this metric cannot be evaluated for these inputs, or null. */
export function missingMetricInput(config: MetricConfig, inputs: MetricInputs): string | null {
  if (config.custom_prompt || !isBuiltInMetric(config.metric)) return null;
  const req = METRIC_RUBRICS[config.metric].requires;
  if (!req) return null;
  return req.anyOf.some((n) => (inputs[n] ?? "").trim() !== "") ? null : req.message;
}

export function metricSchemaName(metric: string): string {
  return `metric_${metric}`.slice(0, 64);
}

export function buildMetricSchema(scale: number): Record<string, unknown> {
  return {
    type: "object",
    properties: {
      reasoning: { type: "string" },
      score: { type: "integer", minimum: 1, maximum: scale },
    },
    required: ["reasoning", "score"],
    additionalProperties: false,
  };
}

/**
 * The exact request for one metric. A custom prompt replaces the built-in rubric; when it uses
 * placeholders ({{question}}, {{response}}, {{ground_truth}}, {{context}}, {{conversation}}) they
 * are filled in, otherwise every input is appended.
 */
export function buildMetricRequest(config: MetricConfig, inputs: MetricInputs): EvalJsonRequest {
  const scale = config.scale;
  let criteria: string;
  let user: string;
  if (config.custom_prompt) {
    const usesPlaceholders = [...config.custom_prompt.matchAll(PLACEHOLDER_RE)].some((m) => m[1] !== undefined && m[1] in PLACEHOLDERS);
    if (usesPlaceholders) {
      criteria = "Follow the evaluation instructions in the user message.";
      user = config.custom_prompt.replace(PLACEHOLDER_RE, (whole, name: string) => {
        const input = PLACEHOLDERS[name];
        return input ? inputText(inputs, input) : whole;
      });
    } else {
      criteria = config.custom_prompt;
      user = sections(inputs, ["conversation", "response", "groundTruth", "context"]);
    }
  } else if (isBuiltInMetric(config.metric)) {
    const rubric = METRIC_RUBRICS[config.metric];
    criteria = rubric.criteria;
    user = sections(inputs, rubric.uses);
  } else {
    throw new Error(`Unknown metric "${config.metric}" without a custom prompt`);
  }
  const system = [
    `You are an impartial evaluator. Score an AI agent's response on one metric: ${config.metric}.`,
    "",
    "## Criteria",
    criteria,
    "",
    "## Answer",
    `First write your reasoning, then give the score as an integer from 1 (worst) to ${scale} (best). Answer in the required JSON format only.`,
  ].join("\n");
  return {
    purpose: "metric",
    messages: [
      { role: "system", content: system },
      { role: "user", content: user },
    ],
    schemaName: metricSchemaName(config.metric),
    schema: buildMetricSchema(scale),
  };
}
