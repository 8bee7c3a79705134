import type { LlmClient } from "./client";
import type { CallPurpose, OnRecord } from "./types";

/** The slice of the LLM client the evaluation library needs (judge, metrics, checks). */
export type EvalLlm = {
  model: string;
  json(req: {
    purpose: "judge" | "metric" | "check";
    messages: { role: "system" | "user" | "assistant"; content: string }[];
    schemaName: string;
    schema: Record<string, unknown>;
    timeoutMs?: number;
  }): Promise<{ raw: string }>;
  embed(texts: string[]): Promise<number[][]>;
};

/** Binds a client to a case's cancellation signal and record sink. */
export function toEvalLlm(
  client: LlmClient,
  opts: { signal?: AbortSignal; onRecord?: OnRecord; embedPurpose?: CallPurpose } = {},
): EvalLlm {
  return {
    model: client.model,
    async json(req) {
      const out = await client.json({ ...req, signal: opts.signal, onRecord: opts.onRecord });
      return { raw: out.raw };
    },
    embed(texts) {
      return client.embed(texts, { purpose: opts.embedPurpose ?? "check", signal: opts.signal, onRecord: opts.onRecord });
    },
  };
}
