import { AttemptError } from "./errors";

export type Release = () => void;

type Waiter = { resolve: (release: Release) => void; reject: (err: unknown) => void; signal?: AbortSignal; onAbort?: () => void };

/** A counting semaphore whose waiters can give up through an AbortSignal. */
export class Semaphore {
  #limit: number;
  #active = 0;
  #queue: Waiter[] = [];

  constructor(limit: number) {
    this.#limit = checkLimit(limit);
  }

  get limit(): number {
    return this.#limit;
  }

  /** Raising the limit lets waiters in at once; lowering it takes effect as requests finish. */
  set limit(value: number) {
    this.#limit = checkLimit(value);
    this.#drain();
  }

  get active(): number {
    return this.#active;
  }

  get waiting(): number {
    return this.#queue.length;
  }

  acquire(signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(abortError());
    if (this.#active < this.#limit && this.#queue.length === 0) {
      this.#active++;
      return Promise.resolve(this.#releaser());
    }
    return new Promise<Release>((resolve, reject) => {
      const entry: Waiter = { resolve, reject, signal };
      if (signal) {
        entry.onAbort = () => {
          const i = this.#queue.indexOf(entry);
          if (i >= 0) this.#queue.splice(i, 1);
          reject(abortError());
        };
        signal.addEventListener("abort", entry.onAbort, { once: true });
      }
      this.#queue.push(entry);
    });
  }

  /** Runs `fn` holding one slot. */
  async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  #releaser(): Release {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.#active--;
      this.#drain();
    };
  }

  #drain() {
    while (this.#active < this.#limit && this.#queue.length > 0) {
      const next = this.#queue.shift()!;
      if (next.signal && next.onAbort) next.signal.removeEventListener("abort", next.onAbort);
      this.#active++;
      next.resolve(this.#releaser());
    }
  }
}

function checkLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`Concurrency limit must be a positive integer, got ${limit}`);
  return limit;
}

function abortError() {
  return new AttemptError("aborted", "Cancelled while waiting for a free slot");
}

/** Default cap on concurrent requests per model configuration (or HTTP agent URL). */
export const DEFAULT_ENDPOINT_CONCURRENCY = 16;

type Registry = { limiters: Map<string, Semaphore>; defaultLimit: number };
const globalKey = Symbol.for("assay.llm.endpointLimiters");
const holder = globalThis as unknown as Record<symbol, Registry | undefined>;
// Process-wide (and hot-reload safe): every run sharing an endpoint shares its cap.
const registry: Registry = (holder[globalKey] ??= { limiters: new Map(), defaultLimit: DEFAULT_ENDPOINT_CONCURRENCY });

/** The process-wide limiter of one endpoint, created with the default limit on first use. */
export function endpointLimiter(key: string): Semaphore {
  let limiter = registry.limiters.get(key);
  if (!limiter) {
    limiter = new Semaphore(registry.defaultLimit);
    registry.limiters.set(key, limiter);
  }
  return limiter;
}

/** Sets the cap of one endpoint (model configuration id, or `http:<url>` for HTTP agents). */
export function setEndpointConcurrency(key: string, limit: number): void {
  endpointLimiter(key).limit = limit;
}

/** Sets the cap used for endpoints not configured explicitly (existing limiters keep theirs). */
export function setDefaultEndpointConcurrency(limit: number): void {
  registry.defaultLimit = checkLimit(limit);
}

/** Forgets every limiter (tests). Requests in flight keep their old limiter. */
export function resetEndpointLimiters(): void {
  registry.limiters.clear();
  registry.defaultLimit = DEFAULT_ENDPOINT_CONCURRENCY;
}
