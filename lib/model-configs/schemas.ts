import { z } from "zod";
import { booleanQuery } from "@/lib/api/query";
import { TEXT_LIMITS } from "@/lib/validation/limits";

const httpUrl = z
  .url({ protocol: /^https?$/, error: "Enter an http(s) URL" })
  .trim()
  .max(TEXT_LIMITS.url);

const nullableText = z
  .string()
  .max(TEXT_LIMITS.modelName)
  .nullish()
  .transform((v) => (v == null || v.trim() === "" ? null : v.trim()));

/** A named OpenAI-compatible endpoint. `api_key` is write-only: never returned. */
export const modelConfigInput = z.object({
  name: z.string().trim().min(1, "Name is required").max(TEXT_LIMITS.shortName, `Use at most ${TEXT_LIMITS.shortName} characters`),
  base_url: httpUrl,
  model: z.string().trim().min(1, "Model is required").max(TEXT_LIMITS.modelName),
  embedding_model: nullableText,
  /** undefined: keep the stored key (updates); null or "": remove it; a string: replace it. */
  api_key: z.string().max(TEXT_LIMITS.secret).nullish(),
  temperature: z
    .number({ error: "Temperature must be a number" })
    .min(0, "Temperature must be between 0 and 2")
    .max(2, "Temperature must be between 0 and 2")
    .nullish()
    .transform((v) => v ?? null),
  max_tokens: z
    .number({ error: "Max tokens must be a whole number" })
    .int("Max tokens must be a whole number")
    .min(1, "Max tokens must be at least 1")
    .max(1_000_000)
    .nullish()
    .transform((v) => v ?? null),
});
export type ModelConfigInput = z.input<typeof modelConfigInput>;
export type ModelConfigData = z.output<typeof modelConfigInput>;

export const modelConfigPatch = modelConfigInput.partial();

/** PATCH /api/v1/model-configs/{id}: an empty body changes nothing. */
export const modelConfigPatchBody = modelConfigPatch.default({});

/** DELETE /api/v1/model-configs/{id}: `force=true` clears the references of agents and suites that use it. */
export const modelConfigDeleteQuery = z.object({ force: booleanQuery("force") });
