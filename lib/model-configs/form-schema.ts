import { z } from "zod";
import { modelConfigInput, type ModelConfigInput } from "./schemas";
import type { ModelConfigDto } from "./dto";
import { RATE_LIMIT_LABELS } from "@/lib/rate-limits/schemas";

/**
 * The model configuration form edits strings; this schema turns them into `modelConfigInput`
 * input and validates with it, so client and server report the same issues at the same fields.
 * A blank API key keeps the stored one when editing; "Remove the saved key" sends null.
 */
export const modelConfigFormSchema = z
  .object({
    name: z.string(),
    base_url: z.string(),
    model: z.string(),
    embedding_model: z.string(),
    api_key: z.string(),
    remove_api_key: z.boolean(),
    temperature: z.string(),
    max_tokens: z.string(),
    input_price_per_mtok: z.string().default(""),
    output_price_per_mtok: z.string().default(""),
    supports_vision: z.boolean().default(false),
    rpm: z.string().default(""),
    tpm: z.string().default(""),
    max_concurrency: z.string().default(""),
  })
  .transform((v, ctx): ModelConfigInput => {
    const number = (text: string, path: string, message: string): number | null => {
      if (text.trim() === "") return null;
      const n = Number(text.trim());
      if (Number.isNaN(n)) {
        ctx.addIssue({ code: "custom", path: [path], message });
        return null;
      }
      return n;
    };
    const candidate: ModelConfigInput = {
      name: v.name,
      base_url: v.base_url,
      model: v.model,
      embedding_model: v.embedding_model,
      api_key: v.remove_api_key ? null : v.api_key.trim() === "" ? undefined : v.api_key,
      temperature: number(v.temperature, "temperature", "Temperature must be a number"),
      max_tokens: number(v.max_tokens, "max_tokens", "Max tokens must be a whole number"),
      input_price_per_mtok: number(v.input_price_per_mtok, "input_price_per_mtok", "Input price must be a number"),
      output_price_per_mtok: number(v.output_price_per_mtok, "output_price_per_mtok", "Output price must be a number"),
      supports_vision: v.supports_vision,
      rpm: number(v.rpm, "rpm", `${RATE_LIMIT_LABELS.rpm} must be a whole number`),
      tpm: number(v.tpm, "tpm", `${RATE_LIMIT_LABELS.tpm} must be a whole number`),
      max_concurrency: number(v.max_concurrency, "max_concurrency", `${RATE_LIMIT_LABELS.max_concurrency} must be a whole number`),
    };
    const parsed = modelConfigInput.safeParse(candidate);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        ctx.addIssue({ code: "custom", path: issue.path as (string | number)[], message: issue.message });
    }
    return candidate;
  });

export type ModelConfigFormValues = z.input<typeof modelConfigFormSchema>;

/** The form's values for a new configuration, or for editing `config`. */
export function modelConfigFormDefaults(config?: ModelConfigDto): ModelConfigFormValues {
  return {
    name: config?.name ?? "",
    base_url: config?.base_url ?? "",
    model: config?.model ?? "",
    embedding_model: config?.embedding_model ?? "",
    api_key: "",
    remove_api_key: false,
    temperature: config?.temperature == null ? "" : String(config.temperature),
    max_tokens: config?.max_tokens == null ? "" : String(config.max_tokens),
    input_price_per_mtok: config?.input_price_per_mtok == null ? "" : String(config.input_price_per_mtok),
    output_price_per_mtok: config?.output_price_per_mtok == null ? "" : String(config.output_price_per_mtok),
    supports_vision: config?.supports_vision ?? false,
    rpm: config?.rpm == null ? "" : String(config.rpm),
    tpm: config?.tpm == null ? "" : String(config.tpm),
    max_concurrency: config?.max_concurrency == null ? "" : String(config.max_concurrency),
  };
}
