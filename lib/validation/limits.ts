/**
 * Size limits of everything a client can send, in one place (the README's "Limits" table lists
 * them). No `server-only`: the zod schemas that forms share import these too.
 */

/** Longest text per kind of field, in characters (zod `.max()`). */
export const TEXT_LIMITS = {
  /** Test case names; the ceiling for every other name (agents, configurations: 100; suites: 200). */
  name: 255,
  /** Agent, model configuration, workspace and API key names, persona types. */
  shortName: 100,
  suiteName: 200,
  /** Tool, variable, metric and model names that code refers to. */
  identifier: 64,
  modelName: 200,
  tag: 50,
  /** Expected outcome labels. */
  label: 500,
  /** Agent and tool descriptions. */
  shortDescription: 2_000,
  suiteDescription: 5_000,
  /** Test case and persona descriptions, judge criteria and evaluation overrides, custom metric prompts, variable values, phrases. */
  description: 20_000,
  /** System prompts, persona instructions, initial messages, expected answers, ground truth. */
  prompt: 100_000,
  url: 2_000,
  headerName: 200,
  headerValue: 8_000,
  secret: 4_000,
  /** `q` text searches. */
  search: 200,
  cursor: 1_000,
} as const;

/** Free-form JSON fields (user_context, expected_outcomes, tool parameters, mock responses): serialised size. */
export const MAX_JSON_FIELD_CHARS = 100_000;

/** Deepest nesting of objects/arrays accepted in any body, query or imported document. */
export const MAX_JSON_DEPTH = 64;

/** Request bodies on /api/v1, in bytes, before they are parsed. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Test case imports (API and the UI's import dialog), in bytes. */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;

/** YAML aliases (`*name`) an imported document may use; more is refused as a possible alias bomb. */
export const MAX_YAML_ALIASES = 100;
