import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { z } from "zod";
import { findCause, isBlockedAddressError, isRedirectRefusedError, isResponseTooLargeError } from "@/lib/net/safe-fetch";
import { AttemptError } from "./errors";
import { parseRetryAfter } from "./retry";
import type { TokenUsage } from "./types";

/** A tool call of an assistant reply, flattened (arguments stay the raw JSON string). */
export type ReplyToolCall = { id: string; name: string; arguments: string };
export type ChatReply = { role: "assistant"; content: string | null; tool_calls: ReplyToolCall[]; refusal: string | null };

const toolCallSchema = z.object({
  id: z.string().nullish(),
  function: z.object({
    name: z.string().min(1),
    arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish(),
  }),
});

const completionSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          refusal: z.string().nullish(),
          tool_calls: z.array(toolCallSchema).nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: z.object({ prompt_tokens: z.number().nullish(), completion_tokens: z.number().nullish() }).nullish(),
});

const embeddingsSchema = z.object({
  data: z.array(z.object({ index: z.number().int().nullish(), embedding: z.array(z.number()) })),
});

export type ParsedCompletion = { message: ChatReply; usage: TokenUsage; finishReason: string | null };

function parseJsonBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AttemptError("invalid_response", `The endpoint returned a body that is not JSON: ${preview(text)}`);
  }
}

/** Parses a chat completion body; garbled or malformed bodies are retryable `invalid_response`s. */
export function parseCompletion(text: string): ParsedCompletion {
  const parsed = completionSchema.safeParse(parseJsonBody(text));
  if (!parsed.success) {
    throw new AttemptError("invalid_response", `The endpoint returned an unexpected chat completion: ${preview(text)}`);
  }
  const choice = parsed.data.choices[0]!;
  const usage = parsed.data.usage;
  return {
    message: {
      role: "assistant",
      content: choice.message.content ?? null,
      refusal: choice.message.refusal ?? null,
      tool_calls: (choice.message.tool_calls ?? []).map((c, i) => ({
        id: c.id || `call_${i + 1}`,
        name: c.function.name,
        arguments: typeof c.function.arguments === "string" ? c.function.arguments : JSON.stringify(c.function.arguments ?? {}),
      })),
    },
    usage: { prompt_tokens: usage?.prompt_tokens ?? 0, completion_tokens: usage?.completion_tokens ?? 0 },
    finishReason: choice.finish_reason ?? null,
  };
}

export function parseEmbeddings(text: string, expected: number): number[][] {
  const parsed = embeddingsSchema.safeParse(parseJsonBody(text));
  if (!parsed.success || parsed.data.data.length !== expected) {
    throw new AttemptError("invalid_response", `The endpoint returned unexpected embeddings: ${preview(text)}`);
  }
  return [...parsed.data.data]
    .map((d, i) => ({ index: d.index ?? i, embedding: d.embedding }))
    .sort((a, b) => a.index - b.index)
    .map((d) => d.embedding);
}

/** Classifies an HTTP status: 429 → rate_limited (Retry-After read), 5xx → server_error, other 4xx → client_error. */
export function statusFailure(status: number, headers: Headers | null | undefined, message: string): AttemptError {
  if (status === 429) {
    return new AttemptError("rate_limited", message, { status, retryAfterMs: parseRetryAfter(headers) });
  }
  if (status >= 500) return new AttemptError("server_error", message, { status });
  return new AttemptError("client_error", message, { status });
}

/**
 * Maps an error thrown by the openai SDK (or the fetch below it) to an AttemptError. An address
 * the guarded fetch refuses is a client error: retrying cannot help.
 */
export function classifySdkError(err: unknown): AttemptError {
  if (err instanceof AttemptError) return err;
  const blocked = findCause(err, isBlockedAddressError);
  if (blocked) return new AttemptError("client_error", blocked.message, { retryable: false, cause: err });
  const redirect = findCause(err, isRedirectRefusedError);
  if (redirect) return new AttemptError("client_error", redirect.message, { retryable: false, cause: err });
  // Asking again for an oversized (or bomb) body only downloads it again.
  const tooLarge = findCause(err, isResponseTooLargeError);
  if (tooLarge) return new AttemptError("invalid_response", tooLarge.message, { retryable: false, cause: err });
  if (err instanceof APIConnectionTimeoutError) return new AttemptError("timeout", "Request timed out", { cause: err });
  if (err instanceof APIUserAbortError) return new AttemptError("aborted", "Cancelled", { cause: err });
  if (err instanceof APIConnectionError) {
    return new AttemptError("connection", connectionMessage(err), { cause: err });
  }
  if (err instanceof APIError && typeof err.status === "number") {
    return statusFailure(err.status, err.headers, err.message);
  }
  return new AttemptError("connection", fetchFailureMessage(err), { cause: err });
}

/** A failed fetch (`TypeError: fetch failed` with the socket error as its cause) in the SDK's words. */
function fetchFailureMessage(err: unknown): string {
  const message = errorMessage(err);
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : null;
  if (err instanceof TypeError && message === "fetch failed") return cause ? `Connection error.: ${cause.message}` : "Connection error.";
  return message;
}

function connectionMessage(err: APIConnectionError): string {
  const cause = err.cause instanceof Error ? err.cause : null;
  const inner = cause?.cause instanceof Error ? cause.cause : null;
  const detail = inner?.message ?? cause?.message;
  return detail && detail !== err.message ? `${err.message}: ${detail}` : err.message;
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function preview(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}
