/**
 * The latency of one model or HTTP-agent call attempt, as the A/B engine defines it: from the request
 * being written to the socket to the last byte of the response body being received, on the
 * monotonic clock (performance.now()). Outside it: waiting for the concurrency limiter, backoff
 * before a retry, building the request (SDK, headers, body), connecting, decoding and parsing the
 * body, and whatever our code does after. The guarded fetch stamps both ends in node:http's own
 * socket callbacks (lib/net/safe-fetch.ts `wireTiming`); a fetch without wire timing (an injected
 * one, the in-process demo model) falls back to the fetch call → body read.
 */
import { wireTiming, type WireTiming } from "@/lib/net/safe-fetch";

export class ExchangeTimer {
  #fetchStartedAt: number | null = null;
  #bodyReadAt: number | null = null;
  #wire: WireTiming | undefined;

  /** Call right before handing the request to fetch. */
  fetchStarted(): void {
    this.#fetchStartedAt = performance.now();
    this.#bodyReadAt = null;
    this.#wire = undefined;
  }

  /** Call with the Response fetch returned (before reading its body). */
  responded(response: Response): void {
    this.#wire = wireTiming(response);
  }

  /** Call with the wire timing of a raw exchange (lib/net/safe-fetch.ts `rawExchangeOf`). */
  wired(timing: WireTiming): void {
    this.#wire = timing;
  }

  /** Call right after the body has been read in full (before parsing it). */
  bodyRead(): void {
    this.#bodyReadAt ??= performance.now();
  }

  /** Request written → last byte (ms, float); null when no request went out. */
  get latencyMs(): number | null {
    const wire = this.#wire;
    if (wire?.sentAt != null) {
      const end = wire.lastByteAt ?? this.#bodyReadAt;
      if (end !== null && end >= wire.sentAt) return end - wire.sentAt;
    }
    if (this.#fetchStartedAt === null || this.#bodyReadAt === null) return null;
    return this.#bodyReadAt - this.#fetchStartedAt;
  }
}

/** Continuations waiting for their turn (FIFO), released one per turn of the event loop. */
const waiting: (() => void)[] = [];
let head = 0;
let releasing = false;

function releaseOne(): void {
  const next = waiting[head];
  waiting[head++] = undefined as never;
  next?.(); // its continuation runs in the microtasks right after this callback
  if (head >= 1024 && head * 2 >= waiting.length) {
    // Under steady load the queue may never run empty: drop the released slots now and then.
    waiting.splice(0, head);
    head = 0;
  }
  if (head < waiting.length) {
    // Scheduled from the check phase, so it runs in the next turn: timers and the poll phase
    // (reading, and stamping, whatever arrived meanwhile) come in between.
    setImmediate(releaseOne);
  } else {
    waiting.length = 0;
    head = 0;
    releasing = false;
  }
}

/**
 * Waits for a turn of the event loop once a response has been read, before it is parsed and
 * before the caller's continuation (evaluation, database writes) runs. Responses to concurrent
 * calls arrive in bursts; without this, each one's whole continuation runs inside its socket's
 * callback and the next socket of the burst is read (its last byte stamped) only after all of
 * them: event-loop lag in the recorded latency. Here continuations are released one per turn
 * (FIFO), so between two of them the poll phase reads every socket that became ready. The CPU
 * spent is the same; a continuation waits at most for the ones queued before it.
 */
export function yieldToIo(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!releasing) {
      releasing = true;
      setImmediate(releaseOne);
    }
  });
}
