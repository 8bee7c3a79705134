/**
 * Webhook delivery attempts. The durable queue is the `WebhookDelivery` rows (the UI and API
 * show their attempts); the job library (lib/jobs/queues.ts) decides when to look at them: a
 * job per queued delivery, the next job of a failed one at its due time, and a sweep every
 * minute. Each pass claims due rows with `FOR UPDATE SKIP LOCKED` and a lease (any number of
 * processes may run jobs; a row is sent by one at a time), POSTs each through the network guard
 * with a 10 s timeout, and records the attempt. 2xx = delivered; anything else (other status,
 * redirect, timeout, refused address) is retried after 1 min × 3ⁿ (capped at 6 h) until 8
 * attempts were made, then the delivery is `failed`. A process that dies mid-attempt leaves its
 * lease to expire; the next sweep then claims the row again (the lost attempt still counts).
 * The clock and the backoff base are injectable so tests need not wait minutes.
 */
import "server-only";
import os from "node:os";
import { randomBytes } from "node:crypto";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { logger } from "@/lib/logger";
import { decryptSecret } from "@/lib/crypto";
import type { FetchLike } from "@/lib/net/safe-fetch";
import { guardedFetch } from "@/lib/net/service";
import { RETRY_POLICY, retryDelayMs, signatureOf } from "./signing";
import { TEST_EVENT } from "./schemas";
import type { DeliveryAttempt } from "./dto";

export const RESPONSE_EXCERPT_BYTES = 1024;

export type WebhookWorkerOptions = {
  /** Lease owner id (default host:pid:random). */
  owner?: string;
  /** The clock for due times, leases and timestamps (default: the system clock). */
  now?: () => Date;
  /** Wait after the first failed attempt (default 60 000 ms; later waits × 3, capped at 360 × it). */
  backoffBaseMs?: number;
  maxAttempts?: number;
  /** Per-attempt timeout (default 10 s). */
  timeoutMs?: number;
  /** How long a claim holds a row before another worker may take it (default 60 s). */
  leaseMs?: number;
  /** Rows claimed per tick (sent concurrently). */
  batchSize?: number;
  /** Outbound HTTP (default: the instance's guarded fetch). */
  fetch?: FetchLike;
  /** Called after a failed attempt with the delivery's next due time (the job library sends the next attempt's job). */
  scheduleAttempt?: (deliveryId: string, at: Date) => Promise<void>;
};

type Claimed = {
  id: string;
  event: string;
  payload: unknown;
  attempts: number;
  url: string;
  secretEncrypted: string;
  enabled: boolean;
};

type Outcome = { statusCode: number | null; durationMs: number; error: string | null; excerpt: string | null };

/** Reads at most `limit` bytes of a response body as text, then lets go of the rest. */
async function readExcerpt(res: Response, limit = RESPONSE_EXCERPT_BYTES): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks)
    .subarray(0, limit)
    .toString("utf8")
    .replace(/\uFFFD+$/, "");
}

function errorText(err: unknown): string {
  if (err instanceof Error) {
    if (err.name === "TimeoutError" || err.name === "AbortError") return "Timed out";
    const cause = (err as { cause?: unknown }).cause;
    if (cause instanceof Error) return cause.message;
    return err.message;
  }
  return String(err);
}

export class WebhookWorker {
  readonly owner: string;
  private readonly now: () => Date;
  private readonly backoffBaseMs: number;
  private readonly maxAttempts: number;
  private readonly timeoutMs: number;
  private readonly leaseMs: number;
  private readonly batchSize: number;
  private readonly fetch: FetchLike;
  private readonly scheduleAttempt?: (deliveryId: string, at: Date) => Promise<void>;

  constructor(opts: WebhookWorkerOptions = {}) {
    this.owner = opts.owner ?? `${os.hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
    this.now = opts.now ?? (() => new Date());
    this.backoffBaseMs = opts.backoffBaseMs ?? RETRY_POLICY.baseDelayMs;
    this.maxAttempts = opts.maxAttempts ?? RETRY_POLICY.maxAttempts;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.leaseMs = opts.leaseMs ?? 60_000;
    this.batchSize = opts.batchSize ?? 10;
    this.fetch = opts.fetch ?? guardedFetch();
    this.scheduleAttempt = opts.scheduleAttempt;
  }

  /**
   * One round: gives up rows out of attempts, claims due rows (only `deliveryId`'s when given)
   * and sends them. Returns how many were sent.
   */
  async tick({ deliveryId }: { deliveryId?: string } = {}): Promise<number> {
    const now = this.now();
    // A lease that expired on the last allowed attempt: that attempt was lost with its worker.
    await db.$executeRaw`
      UPDATE "WebhookDelivery" SET "status" = 'failed', "leaseOwner" = NULL, "leaseExpiresAt" = NULL,
        "lastError" = 'The worker stopped during the last attempt'
      WHERE "status" = 'delivering' AND "leaseExpiresAt" < ${now} AND "attempts" >= ${this.maxAttempts}`;
    const leaseUntil = new Date(now.getTime() + this.leaseMs);
    // READ COMMITTED: the inner SELECT locks due rows other workers have not locked (SKIP
    // LOCKED), so two workers never claim one row; attempts count at claim time, so a row whose
    // worker dies mid-attempt still runs out of attempts.
    const claimed = await db.$queryRaw<Claimed[]>`
      UPDATE "WebhookDelivery" d SET "status" = 'delivering', "attempts" = d."attempts" + 1,
        "leaseOwner" = ${this.owner}, "leaseExpiresAt" = ${leaseUntil}
      FROM "Webhook" w
      WHERE w."id" = d."webhookId" AND d."id" IN (
        SELECT "id" FROM "WebhookDelivery"
        WHERE (("status" = 'pending' AND "nextAttemptAt" <= ${now})
           OR ("status" = 'delivering' AND "leaseExpiresAt" < ${now} AND "attempts" < ${this.maxAttempts}))
          ${deliveryId ? Prisma.sql`AND "id" = ${deliveryId}::uuid` : Prisma.empty}
        ORDER BY "nextAttemptAt"
        LIMIT ${this.batchSize}
        FOR UPDATE SKIP LOCKED)
      RETURNING d."id"::text AS id, d."event", d."payload", d."attempts", w."url", w."secretEncrypted", w."enabled"`;
    await Promise.all(claimed.map((row) => this.deliver(row)));
    return claimed.length;
  }

  /** When a delivery still waiting for a later attempt is due; null when it is not waiting (sent, failed, leased). */
  async waitingUntil(deliveryId: string): Promise<Date | null> {
    const row = await db.webhookDelivery.findUnique({ where: { id: deliveryId }, select: { status: true, nextAttemptAt: true } });
    return row?.status === "pending" && row.nextAttemptAt > this.now() ? row.nextAttemptAt : null;
  }

  private async attempt(row: Claimed, body: string): Promise<Outcome> {
    if (!row.enabled && row.event !== TEST_EVENT)
      return { statusCode: null, durationMs: 0, error: "The webhook is disabled", excerpt: null };
    let secret: string;
    try {
      secret = decryptSecret(row.secretEncrypted);
    } catch {
      return {
        statusCode: null,
        durationMs: 0,
        error: "The webhook's secret cannot be decrypted (was ASSAY_SECRET changed?)",
        excerpt: null,
      };
    }
    const timestamp = Math.floor(this.now().getTime() / 1000);
    const started = performance.now();
    try {
      const res = await this.fetch(row.url, {
        method: "POST",
        redirect: "manual",
        headers: {
          "content-type": "application/json",
          "user-agent": "Assay-Webhooks/1",
          "x-assay-event": row.event,
          "x-assay-delivery": row.id,
          "x-assay-timestamp": String(timestamp),
          "x-assay-signature": signatureOf(secret, timestamp, body),
        },
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const excerpt = await readExcerpt(res).catch(() => null);
      const durationMs = Math.round(performance.now() - started);
      const ok = res.status >= 200 && res.status < 300;
      return { statusCode: res.status, durationMs, error: ok ? null : `HTTP ${res.status}`, excerpt };
    } catch (err) {
      return { statusCode: null, durationMs: Math.round(performance.now() - started), error: errorText(err), excerpt: null };
    }
  }

  private async deliver(row: Claimed) {
    const body = JSON.stringify(row.payload);
    const outcome = await this.attempt(row, body);
    const now = this.now();
    const delivered = outcome.error === null;
    const outOfAttempts = row.attempts >= this.maxAttempts || (!delivered && outcome.error === "The webhook is disabled");
    const status = delivered ? "succeeded" : outOfAttempts ? "failed" : "pending";
    const next = new Date(now.getTime() + (status === "pending" ? retryDelayMs(row.attempts, this.backoffBaseMs) : 0));
    const entry: DeliveryAttempt = {
      at: now.toISOString(),
      status_code: outcome.statusCode,
      duration_ms: outcome.durationMs,
      error: outcome.error,
      response_excerpt: outcome.excerpt,
    };
    // Only while this worker still holds the lease: after an expiry another worker owns the row.
    const updated = await db.$executeRaw`
      UPDATE "WebhookDelivery" SET "status" = ${status}, "nextAttemptAt" = ${next}, "leaseOwner" = NULL, "leaseExpiresAt" = NULL,
        "lastStatusCode" = ${outcome.statusCode}, "lastDurationMs" = ${outcome.durationMs}, "lastResponse" = ${outcome.excerpt},
        "lastError" = ${outcome.error}, "attemptLog" = "attemptLog" || ${JSON.stringify([entry])}::jsonb,
        "deliveredAt" = ${delivered ? now : null}
      WHERE "id" = ${row.id}::uuid AND "leaseOwner" = ${this.owner}`;
    if (updated === 0) logger.warn({ deliveryId: row.id }, "webhook delivery lease lost before the attempt was recorded");
    else if (!delivered)
      logger.info({ deliveryId: row.id, attempts: row.attempts, status, error: outcome.error }, "webhook delivery attempt failed");
    if (updated > 0 && status === "pending")
      await this.scheduleAttempt?.(row.id, next).catch((err: unknown) =>
        logger.warn({ err, deliveryId: row.id }, "could not schedule the next attempt; the sweep will find it"),
      );
  }
}
