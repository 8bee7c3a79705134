/** Structured-output plumbing shared by the evaluators: strict JSON parsing, timeouts, the run cache. */
import { LRUCache } from "lru-cache";
import { createHash } from "node:crypto";
import type { EvalChatMessage, EvalJsonRequest, EvalLlm, EvalPurpose } from "./types";

export type JsonObject = Record<string, unknown>;
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Parses a structured-output reply into an object. Tolerates surrounding whitespace and one
 * ```json fence (some OpenAI-compatible servers add it); anything else that is not a JSON
 * object is an error.
 */
export function parseJsonObject(raw: string): Parsed<JsonObject> {
  let text = raw.trim();
  const fence = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/i.exec(text);
  if (fence?.[1] !== undefined) text = fence[1].trim();
  if (text === "") return { ok: false, error: "The judge returned an empty reply" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: `The judge reply is not valid JSON: ${preview(raw)}` };
  }
  if (!isPlainObject(value)) return { ok: false, error: `The judge reply is not a JSON object: ${preview(raw)}` };
  return { ok: true, value };
}

export function preview(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return typeof err === "string" ? err : "Unknown error";
}

export class EvalTimeoutError extends Error {
  constructor(ms: number) {
    super(`Timed out after ${ms} ms`);
    this.name = "EvalTimeoutError";
  }
}

/** Rejects with EvalTimeoutError when `promise` has not settled after `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new EvalTimeoutError(ms)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export type EvalCacheHit = {
  purpose: EvalPurpose | "embedding";
  model: string;
  schemaName: string | null;
  messages: EvalChatMessage[] | null;
  raw: string;
};

/**
 * Judge/metric/check calls cached by (model, schema name, schema, messages) — and embeddings by
 * (model, texts) — within one run. Identical calls in flight share one request; failed calls are
 * not kept. Bounded (least recently used entries are dropped) so memory stays flat on big runs.
 */
export interface EvalCache {
  json(llm: EvalLlm, req: EvalJsonRequest): Promise<{ raw: string }>;
  embed(llm: EvalLlm, texts: string[]): Promise<number[][]>;
  /** Drops a cached reply (e.g. an unparseable one before a metric retry). */
  forget(llm: EvalLlm, req: EvalJsonRequest): void;
  stats(): { hits: number; misses: number; size: number };
}

export type EvalCacheOptions = {
  maxEntries?: number;
  /** Called when a reply is served from the cache (the executor records it as a cached call). */
  onHit?: (hit: EvalCacheHit) => void;
};

function hashKey(parts: unknown[]): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
}

function jsonKey(llm: EvalLlm, req: EvalJsonRequest): string {
  return hashKey(["json", llm.model, req.schemaName, req.schema, req.messages]);
}

export function createEvalCache(options: EvalCacheOptions = {}): EvalCache {
  const maxEntries = options.maxEntries ?? 2000;
  const entries = new LRUCache<string, Promise<unknown>>({ max: Math.max(1, maxEntries) });
  let hits = 0;
  let misses = 0;

  function remember<T>(key: string, load: () => Promise<T>, onHit: (value: T) => void): Promise<T> {
    const existing = entries.get(key) as Promise<T> | undefined;
    if (existing) {
      hits++;
      return existing.then((value) => {
        onHit(value);
        return value;
      });
    }
    misses++;
    const promise = load();
    entries.set(key, promise);
    promise.catch(() => {
      if (entries.peek(key) === promise) entries.delete(key);
    });
    return promise;
  }

  return {
    json(llm, req) {
      return remember(
        jsonKey(llm, req),
        () => llm.json(req),
        (value) =>
          options.onHit?.({ purpose: req.purpose, model: llm.model, schemaName: req.schemaName, messages: req.messages, raw: value.raw }),
      );
    },
    embed(llm, texts) {
      return remember(
        hashKey(["embed", llm.model, texts]),
        () => llm.embed(texts),
        (value) =>
          options.onHit?.({ purpose: "embedding", model: llm.model, schemaName: null, messages: null, raw: JSON.stringify(value) }),
      );
    },
    forget(llm, req) {
      entries.delete(jsonKey(llm, req));
    },
    stats() {
      return { hits, misses, size: entries.size };
    },
  };
}

/** Calls `llm.json` through the cache when there is one. */
export function callJson(llm: EvalLlm, req: EvalJsonRequest, cache?: EvalCache | null): Promise<{ raw: string }> {
  return cache ? cache.json(llm, req) : llm.json(req);
}

export function callEmbed(llm: EvalLlm, texts: string[], cache?: EvalCache | null): Promise<number[][]> {
  return cache ? cache.embed(llm, texts) : llm.embed(texts);
}

/** `{reasoning, verdict}` — reasoning first so the model thinks before it decides. */
export const VERDICT_SCHEMA = {
  type: "object",
  properties: {
    reasoning: { type: "string" },
    verdict: { type: "string", enum: ["pass", "fail"] },
  },
  required: ["reasoning", "verdict"],
  additionalProperties: false,
} as const satisfies JsonObject;

/** Validates a `{reasoning, verdict}` object exactly (no missing or extra keys, known verdict). */
export function readVerdict(
  value: unknown,
  where: string,
  allowedKeys: readonly string[] = ["reasoning", "verdict"],
): Parsed<{ reasoning: string; verdict: "pass" | "fail" }> {
  if (!isPlainObject(value)) return { ok: false, error: `${where}: expected an object` };
  const extra = Object.keys(value).filter((k) => !allowedKeys.includes(k));
  if (extra.length > 0) return { ok: false, error: `${where}: unexpected key ${extra.map((k) => `"${k}"`).join(", ")}` };
  if (typeof value.reasoning !== "string") return { ok: false, error: `${where}: missing reasoning` };
  if (value.verdict !== "pass" && value.verdict !== "fail") {
    return { ok: false, error: `${where}: unknown verdict ${JSON.stringify(value.verdict ?? null)}` };
  }
  return { ok: true, value: { reasoning: value.reasoning, verdict: value.verdict } };
}
