import { iso } from "@/lib/serialize";
import { maskUrl } from "@/lib/url-secrets";

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
  createdAt: Date;
  updatedAt: Date;
};

/** The public (API and page) representation: the API key itself is never included. */
export type ModelConfigDto = {
  id: string;
  name: string;
  base_url: string;
  model: string;
  embedding_model: string | null;
  api_key_hint: string | null;
  has_api_key: boolean;
  temperature: number | null;
  max_tokens: number | null;
  /** Price per million prompt / completion tokens (cost estimates of matrix runs); null when not set. */
  input_price_per_mtok: number | null;
  output_price_per_mtok: number | null;
  /** Image files are sent to this model as image parts (spec 000); otherwise a case with an image errors. */
  supports_vision: boolean;
  created_at: string;
  updated_at: string;
};

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
    created_at: iso(row.createdAt)!,
    updated_at: iso(row.updatedAt)!,
  };
}

/** What an update answers: the configuration, plus what the update did that was not asked (a key dropped). */
export type ModelConfigUpdateResult = ModelConfigDto & { warnings?: string[] };

/** A row of the model configuration list: the DTO with how many agents and live suites use it. */
export type ModelConfigListItem = ModelConfigDto & { usage: ModelConfigUsage };
export type ModelConfigUsage = { agents: number; suites: number };

/** A configuration in a picker (agent form). */
export type ModelConfigPickerOption = { id: string; name: string; model: string };

/** The outcome of "Test connection" (POST /api/v1/model-configs/{id}/test and the page button). */
export type ConnectionResult = {
  ok: boolean;
  latency_ms: number;
  model: string;
  message: string;
};
