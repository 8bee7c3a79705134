import { z } from "zod";
import { booleanQuery } from "@/lib/api/query";
import { TEXT_LIMITS } from "@/lib/validation/limits";
import { httpUrlInput } from "@/lib/validation/fields";
import { rateLimitFields } from "@/lib/rate-limits/schemas";

const nullableText = z
  .string()
  .max(TEXT_LIMITS.modelName)
  .nullish()
  .transform((v) => (v == null || v.trim() === "" ? null : v.trim()));

function price(label: string) {
  return z
    .number({ error: `${label} must be a number` })
    .min(0, `${label} cannot be negative`)
    .max(1_000_000, `${label} must be at most 1,000,000`)
    .nullish()
    .transform((v) => v ?? null);
}

/** A named OpenAI-compatible endpoint. `api_key` is write-only: never returned. */
export const modelConfigInput = z.object({
  name: z.string().trim().min(1, "Name is required").max(TEXT_LIMITS.shortName, `Use at most ${TEXT_LIMITS.shortName} characters`),
  base_url: httpUrlInput,
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
  /** Price per million prompt (input) tokens, in the team's currency; used to estimate the cost of matrix combinations. */
  input_price_per_mtok: price("Input price"),
  /** Price per million completion (output) tokens. */
  output_price_per_mtok: price("Output price"),
  /**
   * The execution model: the model accepts images (OpenAI `image_url` parts), so image files are sent to it;
   * otherwise a case with an image records an error. Left out: false on create, unchanged on update.
   */
  supports_vision: z.boolean({ error: "supports_vision must be true or false" }).optional(),
  ...rateLimitFields,
});
export type ModelConfigInput = z.input<typeof modelConfigInput>;
/** Parsed input; the prices may be left out by internal callers (seeds, tests) and then stay unset. */
export type ModelConfigData = Omit<
  z.output<typeof modelConfigInput>,
  "input_price_per_mtok" | "output_price_per_mtok" | "rpm" | "tpm" | "max_concurrency"
> &
  Partial<Pick<z.output<typeof modelConfigInput>, "input_price_per_mtok" | "output_price_per_mtok" | "rpm" | "tpm" | "max_concurrency">>;

export const modelConfigPatch = modelConfigInput.partial();

/** PATCH /api/v1/model-configs/{id}: an empty body changes nothing. */
export const modelConfigPatchBody = modelConfigPatch.default({});

/** DELETE /api/v1/model-configs/{id}: `force=true` clears the references of agents and suites that use it. */
export const modelConfigDeleteQuery = z.object({ force: booleanQuery("force") });
