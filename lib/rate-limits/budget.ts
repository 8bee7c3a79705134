/**
 * One provider budget as a process sees it (./README.md). Requests of an endpoint with declared
 * limits, or whose limits were learned (a 429, x-ratelimit-* headers, another process's 429), are
 * paced through the shared budget in PostgreSQL (./store.ts): this process queues them, agent and
 * simulated-user calls ahead of judge and metric calls (a finished case's judge must not hold
 * back a running case's agent), and only the head of the queue asks the database, so a process
 * makes one take at a time per budget. Endpoints with nothing declared or learned are not paced
 * and cost no round trip; every few seconds in use they look whether another process learned
 * something.
 */
import "server-only";
import { logger } from "@/lib/logger";
import { AttemptError } from "@/lib/llm/errors";
import type { BudgetReply, BudgetRequest, CallPurpose, RateBudget, RatePermit } from "@/lib/llm/types";
import { readLimitSignals } from "./headers";
import { learnedState, settleBudget, takeFromBudget, type DeclaredLimits, type TakeAnswer } from "./store";
import { currentWaitReporter, WAIT_REPORT_AFTER_MS, type RateLimitWaitReporter } from "./wait-context";

/** A process without paced requests looks this often whether another one learned a limit. */
const PEEK_EVERY_MS = 2_000;
/** A waiting head asks again at least this often (a higher-priority request may have arrived). */
const MAX_SLEEP_MS = 500;
/** With the budget's database unreachable, a request waits this long, then goes unpaced. */
const UNAVAILABLE_PAUSE_MS = 1_000;
/** The request rate a 429 halves is this process's over this many seconds. */
const OBSERVE_SECONDS = 10;
/** Fewer requests sent over OBSERVE_SECONDS are not a rate to halve. */
const MIN_OBSERVED = 10;
/** Completion tokens a request is expected to use before any answer was seen. */
const FIRST_COMPLETION_GUESS = 256;

type Waiter = {
  priority: number;
  seq: number;
  /** What it asks for: its expected tokens are reckoned when it reaches the head (the estimate learns meanwhile). */
  request: BudgetRequest;
  enqueuedAt: number;
  resolve: (permit: RatePermit) => void;
  reject: (err: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
  report?: RateLimitWaitReporter;
  reported: boolean;
  reportTimer?: NodeJS.Timeout;
};

export type BudgetIdentity = { key: string; label: string; limits: DeclaredLimits };

export type SharedBudgetOptions = { owner: string; maxWaitMs: number };

export class SharedBudget implements RateBudget {
  readonly maxWaitMs: number;
  #identity: BudgetIdentity;
  readonly #owner: string;
  /** Learned here or seen in the database: requests go through the shared budget. */
  #learned = false;
  #lastPeek = 0;
  #queue: Waiter[] = [];
  #seq = 0;
  #pumping = false;
  /** Moving average of the completion tokens answers used (the expected cost of the next). */
  #completion: number | null = null;
  /** Requests this process sent per second over the last OBSERVE_SECONDS (what a 429 halves). */
  #sentPerSecond = new Map<number, number>();

  constructor(identity: BudgetIdentity, opts: SharedBudgetOptions) {
    this.#identity = identity;
    this.#owner = opts.owner;
    this.maxWaitMs = opts.maxWaitMs;
  }

  get key(): string {
    return this.#identity.key;
  }

  /** The latest declared limits (a run reads its model configuration's limits when it starts). */
  declare(limits: DeclaredLimits) {
    this.#identity = { ...this.#identity, limits };
  }

  get paced(): boolean {
    const { rpm, tpm, maxConcurrency } = this.#identity.limits;
    return this.#learned || rpm !== null || tpm !== null || maxConcurrency !== null;
  }

  acquire(request: BudgetRequest, signal?: AbortSignal): Promise<RatePermit> {
    if (signal?.aborted) return Promise.reject(cancelled());
    if (!this.paced) {
      this.#peekSometimes();
      return Promise.resolve(this.#permit(this.#expectedTokens(request), { taken: false, holdsSlot: false }));
    }
    return new Promise<RatePermit>((resolve, reject) => {
      const waiter: Waiter = {
        priority: priorityOf(request.purpose),
        seq: this.#seq++,
        request,
        enqueuedAt: performance.now(),
        resolve,
        reject,
        signal,
        report: currentWaitReporter(),
        reported: false,
      };
      if (waiter.report) {
        waiter.reportTimer = setTimeout(() => {
          waiter.reported = true;
          safely(waiter.report!, true);
        }, WAIT_REPORT_AFTER_MS);
        waiter.reportTimer.unref();
      }
      if (signal) {
        waiter.onAbort = () => {
          this.#remove(waiter);
          this.#stopReporting(waiter);
          reject(cancelled());
        };
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      this.#enqueue(waiter);
      void this.#pump();
    });
  }

  /** Inserts by priority (agent and simulated user first), first come first served within one. */
  #enqueue(waiter: Waiter) {
    const at = this.#queue.findIndex((w) => w.priority > waiter.priority);
    if (at < 0) this.#queue.push(waiter);
    else this.#queue.splice(at, 0, waiter);
  }

  #remove(waiter: Waiter) {
    const i = this.#queue.indexOf(waiter);
    if (i >= 0) this.#queue.splice(i, 1);
  }

  /** Asks the shared budget for the head of the queue until the queue is empty. */
  async #pump() {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      while (this.#queue.length > 0) {
        this.#expireWaiters();
        const head = this.#queue[0];
        if (!head) break;
        const tokens = this.#expectedTokens(head.request);
        let answer: TakeAnswer;
        try {
          answer = await takeFromBudget(this.#identity, tokens, this.#owner);
        } catch (err) {
          // The database is unreachable: after a pause, send unpaced rather than stall every run.
          logger.warn({ err, budget: this.#identity.label }, "rate-limit budget unavailable; sending unpaced");
          await sleep(UNAVAILABLE_PAUSE_MS);
          if (this.#queue[0] === head) this.#grant(head, this.#permit(tokens, { taken: false, holdsSlot: false }));
          continue;
        }
        if (answer.granted) {
          this.#grant(head, this.#permit(tokens, { taken: true, holdsSlot: this.#identity.limits.maxConcurrency !== null }));
          continue;
        }
        await sleep(Math.min(Math.max(1, answer.waitMs), MAX_SLEEP_MS));
      }
    } finally {
      this.#pumping = false;
    }
  }

  #grant(waiter: Waiter, permit: RatePermit) {
    this.#remove(waiter);
    if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener("abort", waiter.onAbort);
    this.#stopReporting(waiter);
    waiter.resolve(permit);
  }

  /** Waiters past the call's allowance fail (the case records a rate-limit error). */
  #expireWaiters() {
    const now = performance.now();
    for (const w of [...this.#queue]) {
      if (now - w.enqueuedAt < this.maxWaitMs) continue;
      this.#remove(w);
      if (w.signal && w.onAbort) w.signal.removeEventListener("abort", w.onAbort);
      this.#stopReporting(w);
      const minutes = Math.round(this.maxWaitMs / 60_000);
      w.reject(
        new AttemptError(
          "rate_limited",
          `Waited ${minutes >= 1 ? `${minutes} min` : `${Math.round(this.maxWaitMs / 1000)} s`} for the provider's rate limit (${this.#identity.label})`,
          { retryable: false },
        ),
      );
    }
  }

  #stopReporting(waiter: Waiter) {
    if (waiter.reportTimer) clearTimeout(waiter.reportTimer);
    if (waiter.reported && waiter.report) safely(waiter.report, false);
    waiter.reported = false;
  }

  /** Counts a request sent now. */
  #countSent() {
    const second = Math.floor(Date.now() / 1000);
    this.#sentPerSecond.set(second, (this.#sentPerSecond.get(second) ?? 0) + 1);
    for (const s of this.#sentPerSecond.keys()) if (s <= second - OBSERVE_SECONDS) this.#sentPerSecond.delete(s);
  }

  /** Requests per minute this process sent lately (over the seconds it has been sending, at least one). */
  #observedRpm(): number | null {
    const now = Date.now() / 1000;
    const seconds = [...this.#sentPerSecond.keys()].filter((s) => s > now - OBSERVE_SECONDS);
    const sent = seconds.reduce((sum, s) => sum + this.#sentPerSecond.get(s)!, 0);
    // A handful of requests says nothing about a rate (a 429's hold applies alone).
    if (sent < MIN_OBSERVED) return null;
    const span = Math.max(1, now - Math.min(...seconds));
    return (sent / span) * 60;
  }

  #expectedTokens(request: BudgetRequest): number {
    const completion = this.#completion ?? FIRST_COMPLETION_GUESS;
    return Math.max(
      1,
      Math.round(request.promptTokens + (request.maxTokens === null ? completion : Math.min(request.maxTokens, completion))),
    );
  }

  /**
   * The permit of one request: its settlement corrects the tokens (only those a take counted:
   * `taken`) and records what the provider said; `holdsSlot`: it counts against max_concurrency.
   */
  #permit(tokens: number, { taken, holdsSlot }: { taken: boolean; holdsSlot: boolean }): RatePermit {
    this.#countSent();
    return {
      settle: async (reply: BudgetReply) => {
        if (reply.usage) {
          const used = reply.usage.completion_tokens;
          this.#completion = this.#completion === null ? used : this.#completion * 0.8 + used * 0.2;
        }
        const signals = readLimitSignals(reply.status, reply.headers);
        const limited = reply.status === 429;
        const told = signals.limitRpm !== null || signals.limitTpm !== null || signals.blockMs > 0;
        if (!this.paced && !limited && !told) return;
        if (limited || told) this.#learned = true;
        const used = reply.usage ? reply.usage.prompt_tokens + reply.usage.completion_tokens : null;
        try {
          await settleBudget(this.#identity, this.#owner, {
            release: holdsSlot,
            refund: taken && used !== null ? tokens - used : 0,
            blockMs: signals.blockMs,
            limited,
            success: reply.status !== null && reply.status >= 200 && reply.status < 300,
            limitRpm: signals.limitRpm,
            limitTpm: signals.limitTpm,
            observedRpm: limited ? this.#observedRpm() : null,
          });
        } catch (err) {
          logger.warn({ err, budget: this.#identity.label }, "could not settle a rate-limit budget");
        }
      },
    };
  }

  /** Unpaced: now and then, whether another process learned this budget's limit. */
  #peekSometimes() {
    const now = performance.now();
    if (now - this.#lastPeek < PEEK_EVERY_MS) return;
    this.#lastPeek = now;
    learnedState(this.#identity.key)
      .then((state) => {
        if (state.paced) this.#learned = true;
      })
      .catch((err: unknown) => logger.debug({ err }, "rate-limit budget peek failed"));
  }
}

/** Agent and simulated-user calls (a running case's conversation) go before judge and metric calls. */
function priorityOf(purpose: CallPurpose): number {
  return purpose === "agent" || purpose === "simulator" ? 0 : 1;
}

function cancelled() {
  return new AttemptError("aborted", "Cancelled while waiting for the provider's rate limit");
}

function safely(report: RateLimitWaitReporter, waiting: boolean) {
  try {
    report(waiting);
  } catch (err) {
    logger.warn({ err }, "rate-limit wait report failed");
  }
}

function sleep(ms: number) {
  return new Promise<void>((resolve) => setTimeout(resolve, ms));
}
