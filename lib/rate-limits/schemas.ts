/**
 * The declared provider limits of model configurations and HTTP agents, as the API and forms
 * take them: requests and tokens per minute, requests at once. No server-only imports: forms
 * validate with them too.
 */
import { z } from "zod";

/** The fields' labels in forms and their messages. */
export const RATE_LIMIT_LABELS = { rpm: "Requests per minute", tpm: "Tokens per minute", max_concurrency: "Max concurrency" } as const;

/** A declared provider limit: a positive whole number, or null / left out for none. */
function limit(label: string, max: number) {
  return z
    .number({ error: `${label} must be a whole number` })
    .int(`${label} must be a whole number`)
    .min(1, `${label} must be at least 1`)
    .max(max, `${label} must be at most ${max.toLocaleString("en-US")}`)
    .nullish()
    .transform((v) => v ?? null);
}

/**
 * Assay paces its requests to these across every process (lib/rate-limits); left out, it learns
 * the limits from 429s and x-ratelimit-* headers.
 */
export const rateLimitFields = {
  rpm: limit(RATE_LIMIT_LABELS.rpm, 10_000_000).describe(
    "The provider's requests per minute for this endpoint and key; Assay paces requests to it across every process. Null: learned from 429s and x-ratelimit-* headers",
  ),
  tpm: limit(RATE_LIMIT_LABELS.tpm, 1_000_000_000).describe(
    "The provider's tokens per minute; requests are paced by the tokens they are expected to use, corrected by the usage they report",
  ),
  max_concurrency: limit(RATE_LIMIT_LABELS.max_concurrency, 10_000).describe(
    "Requests in flight at once across every process; null: no shared cap",
  ),
};
