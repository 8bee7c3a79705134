import "server-only";
import { z } from "zod";
import { logger } from "@/lib/logger";
import { failedCall, startedCall, succeededCall } from "@/lib/llm/call-record";
import { endpointLimiter } from "@/lib/llm/concurrency";
import { AttemptError, LlmError } from "@/lib/llm/errors";
import { classifySdkError, preview, statusFailure } from "@/lib/llm/responses";
import { runWithRetry, type RetryPolicy } from "@/lib/llm/retry";
import { ExchangeTimer, yieldToIo } from "@/lib/llm/timing";
import type { CallRecord, OnRecord, RateBudget } from "@/lib/llm/types";
import type { FetchLike } from "@/lib/net/safe-fetch";
import { guardedFetch } from "@/lib/net/service";
import { displayUrl } from "@/lib/url-secrets";
import type { HttpAgentFile } from "@/lib/files/types";
import type { TranscriptMessage } from "./types";

/** What an HTTP agent must answer (README: "HTTP agents"). */
export const httpAgentResponseSchema = z.object({
  reply: z.string({ error: "reply must be a string" }),
  tool_calls: z
    .array(
      z.object({
        name: z.string().min(1),
        arguments: z.union([z.record(z.string(), z.unknown()), z.string()]).nullish(),
        /** What the tool returned, shown in the transcript when given. */
        result: z.unknown().optional(),
      }),
    )
    .nullish(),
  usage: z.object({ prompt_tokens: z.number().int().min(0).nullish(), completion_tokens: z.number().int().min(0).nullish() }).nullish(),
  end: z.boolean().nullish(),
});
export type HttpAgentResponse = z.output<typeof httpAgentResponseSchema>;

export type HttpAgentRequest = {
  messages: TranscriptMessage[];
  variables: Record<string, unknown>;
  test_case: { id: string; name: string };
  run_id: string;
  /** The execution model files of the case (present only when it has some): name, type, the budgeted markdown, the URL it came from. */
  files?: HttpAgentFile[];
};

export type HttpAgentCall = {
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
  body: HttpAgentRequest;
  signal?: AbortSignal;
  onRecord?: OnRecord;
  fetch?: FetchLike;
  retryPolicy?: Partial<RetryPolicy>;
  /** The agent's rate-limit budget (lib/rate-limits): its declared limits, or what its 429s taught. */
  budget?: RateBudget;
};

/** `latencyMs`: the answering attempt's request written → last byte (ms, float; lib/llm/timing.ts). */
export type HttpAgentResult = { response: HttpAgentResponse; latencyMs: number; attempts: number };

/**
 * POSTs the conversation to an HTTP agent with the retry policy (timeouts, connection errors,
 * 429 and 5xx retried; other 4xx and a bad response shape are not) and validates the answer.
 */
export async function callHttpAgent(call: HttpAgentCall): Promise<HttpAgentResult> {
  // The guarded fetch caps the body in bytes and aborts a trickling body with the attempt's signal.
  const doFetch = call.fetch ?? guardedFetch();
  const requestText = JSON.stringify(call.body);
  const capture: { status: number | null; text: string | null } = { status: null, text: null };
  // Records and the concurrency key use the URL without its query (it may carry a token).
  const shownUrl = displayUrl(call.url);
  const base = startedCall({ purpose: "agent", model: shownUrl, endpointId: `http:${shownUrl}`, request: call.body });
  try {
    const out = await runWithRetry(
      async ({ signal, reportLatency, reportReply }) => {
        capture.status = null;
        capture.text = null;
        const timer = new ExchangeTimer();
        let text: string;
        let res: Response;
        try {
          timer.fetchStarted();
          res = await doFetch(call.url, {
            method: "POST",
            headers: { "content-type": "application/json", accept: "application/json", ...call.headers },
            body: requestText,
            signal,
          });
          timer.responded(res);
          capture.status = res.status;
          text = await res.text();
          timer.bodyRead();
          capture.text = text;
        } finally {
          const latency = timer.latencyMs;
          if (latency !== null) reportLatency(latency);
        }
        await yieldToIo();
        if (!res.ok) reportReply({ status: res.status, headers: res.headers, usage: null });
        if (!res.ok) throw statusFailure(res.status, res.headers, `The agent answered HTTP ${res.status}: ${preview(text, 200)}`);
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          throw new AttemptError("invalid_response", `The agent's response is not JSON: ${preview(text, 200)}`);
        }
        const parsed = httpAgentResponseSchema.safeParse(json);
        if (!parsed.success) {
          const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`).join("; ");
          throw new AttemptError("invalid_response", `The agent's response does not match the HTTP agent contract (${issues})`, {
            retryable: false,
          });
        }
        const usage = parsed.data.usage;
        reportReply({
          status: res.status,
          headers: res.headers,
          usage: usage ? { prompt_tokens: usage.prompt_tokens ?? 0, completion_tokens: usage.completion_tokens ?? 0 } : null,
        });
        return parsed.data;
      },
      {
        policy: call.retryPolicy,
        timeoutMs: call.timeoutMs,
        signal: call.signal,
        limiter: endpointLimiter(`http:${shownUrl}`),
        budget: call.budget && {
          budget: call.budget,
          request: { promptTokens: Math.ceil(requestText.length / 4), maxTokens: null, purpose: "agent" },
        },
        classify: classifySdkError,
      },
    );
    emit(call.onRecord, { ...base, response: capture.text, ...succeededCall(out, capture.status) });
    return { response: out.value, latencyMs: out.latencyMs, attempts: out.attempts };
  } catch (err) {
    if (!(err instanceof LlmError)) throw err;
    err.responseText = capture.text;
    emit(call.onRecord, { ...base, response: capture.text, ...failedCall(err, capture.status) });
    throw err;
  }
}

function emit(sink: OnRecord | undefined, record: CallRecord) {
  if (!sink) return;
  try {
    sink(record);
  } catch (err) {
    logger.warn({ err }, "onRecord failed");
  }
}
