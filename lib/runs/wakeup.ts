import { EventEmitter } from "node:events";
import pg from "pg";
import { pool } from "@/lib/db";
import { env } from "@/lib/env";
import { logger } from "@/lib/logger";
import { withoutWorkspaceScope } from "@/lib/tenant-scope";

/**
 * Wake-ups for the executor: a run was queued (webhook deliveries are jobs of lib/jobs).
 * In this process they are events; executors in other processes (`npm run worker`, the executor
 * process `npm start` runs beside the web server) hear them through PostgreSQL's LISTEN/NOTIFY,
 * so a run queued by the web process starts at once instead of at their next poll. Both sides
 * still poll: a missed notification (a listener reconnecting) only costs the poll interval.
 */
const state = globalThis as unknown as { assayRunEvents?: EventEmitter };
export const runEvents = (state.assayRunEvents ??= new EventEmitter());
runEvents.setMaxListeners(50);

/** PostgreSQL channels, and what each becomes in the listening process. */
export const WAKEUP_CHANNELS = { run: "assay_run_queued" } as const;
type Channel = (typeof WAKEUP_CHANNELS)[keyof typeof WAKEUP_CHANNELS];
const RECONNECT_MS = 2_000;

export function notifyRunQueued(runId: string) {
  // Listeners run synchronously here: the executor's tick must not inherit the request's
  // workspace scope (it claims cases of every workspace, and what it starts outlives the request).
  withoutWorkspaceScope(() => runEvents.emit("queued", runId));
  publishWakeup(WAKEUP_CHANNELS.run, runId);
}

/** Tells the other processes' listeners; never throws (they poll anyway). */
export function publishWakeup(channel: Channel, payload = "") {
  pool
    .query({ name: "assay_wakeup", text: "SELECT pg_notify($1, $2)", values: [channel, payload] })
    .catch((err: unknown) => logger.debug({ err, channel }, "could not notify other processes"));
}

/**
 * Listens on one dedicated connection (reconnecting after RECONNECT_MS when it drops) and hands
 * each notification to `onWakeup`. Returns the function that stops listening.
 */
export function listenForWakeups(onWakeup: (channel: Channel, payload: string) => void): () => Promise<void> {
  let stopped = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | undefined;

  const connect = async () => {
    if (stopped || !env.DATABASE_URL) return;
    const c = new pg.Client({ connectionString: env.DATABASE_URL });
    let lost = false;
    const reconnect = (err?: unknown) => {
      if (lost) return;
      lost = true;
      if (client === c) client = null;
      void c.end().catch(() => undefined);
      if (stopped) return;
      logger.warn({ err }, "wake-up listener lost its connection; reconnecting");
      retry = setTimeout(() => void connect(), RECONNECT_MS);
    };
    c.on("error", reconnect);
    c.on("end", () => reconnect());
    c.on("notification", (msg) => {
      const channel = msg.channel as Channel;
      if (Object.values(WAKEUP_CHANNELS).includes(channel)) withoutWorkspaceScope(() => onWakeup(channel, msg.payload ?? ""));
    });
    try {
      await c.connect();
      for (const channel of Object.values(WAKEUP_CHANNELS)) await c.query(`LISTEN ${channel}`);
      if (stopped) {
        lost = true;
        await c.end().catch(() => undefined);
        return;
      }
      client = c;
    } catch (err) {
      reconnect(err);
    }
  };
  void connect();

  return async () => {
    stopped = true;
    clearTimeout(retry);
    const c = client;
    client = null;
    await c?.end().catch(() => undefined);
  };
}
