import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { listenForWakeups, notifyRunQueued, runEvents, WAKEUP_CHANNELS } from "@/lib/runs/wakeup";

// Another process, as PostgreSQL sees it: its own connection.
const other = () => new pg.Client({ connectionString: process.env.DATABASE_URL });

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** Resolves when the subscriber delivers, or fails after 5 s. */
function waitFor<T>(subscribe: (deliver: (v: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no wake-up within 5 s")), 5_000);
    subscribe((v) => {
      clearTimeout(timer);
      resolve(v);
    });
  });
}

describe("wake-ups across processes", () => {
  it("publish a queued run to PostgreSQL for the executors of other processes", async () => {
    const listener = other();
    await listener.connect();
    cleanups.push(() => listener.end());
    await listener.query(`LISTEN ${WAKEUP_CHANNELS.run}`);
    const heard: { channel: string; payload?: string }[] = [];
    const heardIt = waitFor<void>((deliver) =>
      listener.on("notification", (msg) => {
        heard.push({ channel: msg.channel, payload: msg.payload });
        if (heard.length === 1) deliver();
      }),
    );

    const runId = randomUUID();
    const local: string[] = [];
    const onQueued = (id: string) => local.push(id);
    runEvents.on("queued", onQueued);
    cleanups.push(async () => void runEvents.off("queued", onQueued));
    notifyRunQueued(runId);
    await heardIt;
    expect(local).toEqual([runId]); // this process's executor hears it at once, as before
    expect(heard).toEqual(expect.arrayContaining([{ channel: WAKEUP_CHANNELS.run, payload: runId }]));
  });

  it("hand another process's notifications to the listener until it stops", async () => {
    const heard: [string, string][] = [];
    let deliver: () => void = () => undefined;
    const stop = listenForWakeups((channel, payload) => {
      heard.push([channel, payload]);
      deliver();
    });
    cleanups.push(stop);
    const sender = other();
    await sender.connect();
    cleanups.push(() => sender.end());

    // The listener connects in the background: notify until it hears one.
    const runId = randomUUID();
    const first = waitFor<void>((d) => (deliver = d));
    const ticker = setInterval(() => void sender.query("SELECT pg_notify($1, $2)", [WAKEUP_CHANNELS.run, runId]), 50);
    await first.finally(() => clearInterval(ticker));
    expect(heard[0]).toEqual([WAKEUP_CHANNELS.run, runId]);

    // Another channel is not ours; after stop nothing more arrives.
    await sender.query("SELECT pg_notify('someone_else', 'x')");
    await stop();
    const count = heard.length;
    await sender.query("SELECT pg_notify($1, $2)", [WAKEUP_CHANNELS.run, randomUUID()]);
    await new Promise((r) => setTimeout(r, 200));
    expect(heard).toHaveLength(count);
    expect(heard.some(([c]) => c === "someone_else")).toBe(false);
  });
});
