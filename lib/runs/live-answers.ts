/**
 * Answers shared by everyone watching a live run. Fifty people on the page of a running run
 * poll the same four things every second (the run, the first page of its case table, the
 * changes card, an open case); without sharing, each poll is its own transaction on the
 * database and its own JSON serialisation, and the web process spends more time answering
 * viewers than the run spends executing.
 *
 * The rule, per web process:
 * - An answer about a live run (or an open case) is kept for SHARE_MS and given to every
 *   request for the same thing in the same workspace that accepts a shared answer; a read
 *   already in flight is joined instead of repeated. The key always names the workspace, and
 *   the caller has checked the member's role before asking, so a viewer only ever gets an answer
 *   a fresh read would have given them, at most SHARE_MS older.
 * - An answer about a finished run or case is never kept: a finished run's page does not poll,
 *   and its last refresh must show the final rows. A read that finds the run finished forgets
 *   everything kept about it, and so do the writes in this process that change a run's status
 *   (cancel, the executor's finalisation): the refresh the page makes when the run ends reads
 *   afresh.
 * - A request says whether it accepts a shared answer with the standard `Cache-Control`
 *   request directives: `no-cache`, `no-store` or `max-age=0` ask for a fresh read, `max-age=N`
 *   caps the age at N seconds; no header accepts the default. The run page's polls send
 *   `max-age=1`, its reads after the run ended send `no-cache` (lib/runs/hooks.ts). The REST API
 *   under /api/v1 never shares: a script that cancels a run and reads it back sees its write.
 */
import "server-only";
import { LRUCache } from "lru-cache";

/** How long an answer about a live run is shared (the page polls every second). */
export const SHARE_MS = 500;
/** Answers kept at most (oldest dropped first): a few per watched run. */
const MAX_ENTRIES = 1_000;

type Entry = { runId: string | null; at: number; promise: Promise<unknown>; done: boolean; json?: string };

const entries = new LRUCache<string, Entry>({ max: MAX_ENTRIES });

/** How old an answer the request accepts, in ms (0: a fresh read). */
export function acceptedAgeMs(headers: Headers): number {
  const cacheControl = headers.get("cache-control");
  if (cacheControl === null) return headers.get("pragma")?.toLowerCase().includes("no-cache") ? 0 : SHARE_MS;
  let age = SHARE_MS;
  for (const part of cacheControl.toLowerCase().split(",")) {
    const [name, value] = part.split("=").map((s) => s.trim());
    if (name === "no-cache" || name === "no-store") return 0;
    if (name === "max-age" && value !== undefined && /^\d+$/.test(value)) age = Math.min(age, Number(value) * 1_000);
  }
  return age;
}

export type SharedOptions<T> = {
  /** The run the answer is about (`forgetRun` drops it), or how to tell from the answer (a case result names its run). */
  runId: string | ((value: T) => string);
  /** The oldest answer the request accepts, in ms (`acceptedAgeMs`); 0 reads afresh. */
  maxAgeMs: number;
  /** Whether the answer is about something still live, and so may be kept. */
  live: (value: T) => boolean;
  /** Whether the answer shows the run finished, so nothing kept about it holds (default: not live). */
  runFinished?: (value: T) => boolean;
  /** What a route answers with, when that is not the whole value. */
  body?: (value: T) => unknown;
};

export type SharedAnswer<T> = { value: T; /** The value as JSON, serialised once per kept answer. */ json: () => string };

/**
 * The answer for `key` (which must name the workspace and the run): a kept one young enough for
 * the request, the one being read right now, or a fresh `load()`. Errors are never kept.
 */
export async function sharedAnswer<T>(key: string, opts: SharedOptions<T>, load: () => Promise<T>): Promise<SharedAnswer<T>> {
  const now = performance.now();
  const body = opts.body ?? ((value: T) => value);
  const kept = entries.peek(key);
  if (kept && opts.maxAgeMs > 0 && (!kept.done || now - kept.at <= opts.maxAgeMs)) {
    const value = (await kept.promise) as T;
    return { value, json: () => (kept.json ??= JSON.stringify(body(value))) };
  }
  const entry: Entry = { runId: typeof opts.runId === "string" ? opts.runId : null, at: now, promise: load(), done: false };
  entries.set(key, entry);
  let value: T;
  try {
    value = (await entry.promise) as T;
  } catch (err) {
    if (entries.get(key) === entry) entries.delete(key);
    throw err;
  }
  entry.done = true;
  entry.runId = typeof opts.runId === "string" ? opts.runId : opts.runId(value);
  if (!opts.live(value)) {
    if (entries.get(key) === entry) entries.delete(key);
    if (opts.runFinished?.(value) ?? true) forgetRun(entry.runId);
  }
  return { value, json: () => (entry.json ??= JSON.stringify(body(value))) };
}

/** Drops every answer kept about the run (its status changed, or it was found finished). */
export function forgetRun(runId: string): void {
  // Also a read in flight: it may have started before the change, so no later request joins it.
  for (const [key, entry] of [...entries.entries()]) if (entry.runId === runId) entries.delete(key);
}

/**
 * How a live answer may be handled on its way: kept by no cache (it is a member's data, and a
 * second later it is old) and not transformed. `no-transform` also keeps Next's compression off
 * it: that middleware runs a zlib stream per response, which costs a poll of a few kilobytes more
 * CPU (about 2 ms, measured) than the rest of its answer, and a page polls every second. Pages
 * and everything else stay compressed.
 */
export const LIVE_ANSWER_CACHE_CONTROL = "private, no-store, no-transform";

/** A 200 JSON response with a shared answer's serialised body. */
export function jsonAnswer(answer: SharedAnswer<unknown>): Response {
  return new Response(answer.json(), {
    headers: { "content-type": "application/json", "cache-control": LIVE_ANSWER_CACHE_CONTROL },
  });
}

/** For tests: forget everything. */
export function forgetAllAnswers(): void {
  entries.clear();
}
