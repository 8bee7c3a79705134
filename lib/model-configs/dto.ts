import { iso } from "@/lib/serialize";
import type { z } from "zod";
import { maskUrl } from "@/lib/url-secrets";
import type { connectionResult, modelConfigResource, modelConfigUpdateResult } from "./openapi";

/**
 * The model configuration's public shapes: the Prisma `select` (never the encrypted key), the
 * row → DTO mapper and the DTO types. No server-only imports: client components may import them.
 */

/** Everything but the encrypted key. */
export const modelConfigSelect = {
  id: true,
  name: true,
  baseUrl: true,
  model: true,
  embeddingModel: true,
  apiKeyHint: true,
  temperature: true,
  maxTokens: true,
  inputPricePerMtok: true,
  outputPricePerMtok: true,
  supportsVision: true,
  rpm: true,
  tpm: true,
  maxConcurrency: true,
  createdAt: true,
  updatedAt: true,
} as const;

type ModelConfigRow = {
  id: string;
  name: string;
  baseUrl: string;
  model: string;
  embeddingModel: string | null;
  apiKeyHint: string | null;
  temperature: number | null;
  maxTokens: number | null;
  inputPricePerMtok: number | null;
  outputPricePerMtok: number | null;
  supportsVision: boolean;
  rpm: number | null;
  tpm: number | null;
  maxConcurrency: number | null;
  createdAt: Date;
  updatedAt: Date;
};

/** The public (API and page) representation: the API key itself is never included. */
export type ModelConfigDto = z.output<typeof modelConfigResource>;

/**
 * `maskUrl` (members who cannot manage configurations): the base URL's userinfo and query values
 * show as "••••", since some endpoints carry their key there (Azure-style `?code=`).
 */
export function toModelConfigDto(row: ModelConfigRow, opts: { maskUrl?: boolean } = {}): ModelConfigDto {
  return {
    id: row.id,
    name: row.name,
    base_url: opts.maskUrl ? maskUrl(row.baseUrl) : row.baseUrl,
    model: row.model,
    embedding_model: row.embeddingModel,
    api_key_hint: row.apiKeyHint,
    has_api_key: row.apiKeyHint !== null,
    temperature: row.temperature,
    max_tokens: row.maxTokens,
    input_price_per_mtok: row.inputPricePerMtok,
    output_price_per_mtok: row.outputPricePerMtok,
    supports_vision: row.supportsVision,
    rpm: row.rpm,
    tpm: row.tpm,
    max_concurrency: row.maxConcurrency,
    created_at: iso(row.createdAt)!,
    updated_at: iso(row.updatedAt)!,
  };
}

/** What an update answers: the configuration, plus what the update did that was not asked (a key dropped). */
export type ModelConfigUpdateResult = z.output<typeof modelConfigUpdateResult>;

/** A row of the model configuration list: the DTO with how many agents and live suites use it. */
export type ModelConfigListItem = ModelConfigDto & { usage: ModelConfigUsage };
export type ModelConfigUsage = { agents: number; suites: number };

/** A configuration in a picker (agent form). */
export type ModelConfigPickerOption = { id: string; name: string; model: string };

/** The outcome of "Test connection" (POST /api/v1/model-configs/{id}/test and the page button). */
export type ConnectionResult = z.output<typeof connectionResult>;
