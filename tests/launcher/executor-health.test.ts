// /api/health's executor state: up while a process beats, restarting while the launcher brings a
// dead one back (its state file says so and no beat came since), down when none beats.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const dir = mkdtempSync(path.join(os.tmpdir(), "assay-health-"));
const stateFile = path.join(dir, "supervisor-start.json");
process.env.ASSAY_SUPERVISOR_STATE = stateFile;
const { db } = await import("@/lib/db");
const { EXECUTOR_STALE_MS, executorHealth, startExecutorHeartbeat } = await import("@/lib/health/service");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The launcher's record: the executor's restarts and when it last exited (null: never). */
const supervised = (restarts: number, lastExitAt: number | null) =>
  writeFileSync(
    stateFile,
    JSON.stringify({
      launcher: 1,
      children: {
        executor: {
          state: "up",
          restarts,
          last_exit: lastExitAt ? { code: null, signal: "SIGKILL", at: new Date(lastExitAt).toISOString() } : null,
        },
      },
    }),
  );

describe("executor health", () => {
  it("is down without any executor, up while one beats, and down again once it stopped", async () => {
    rmSync(stateFile, { force: true });
    await db.executorHeartbeat.deleteMany();
    expect(await executorHealth()).toEqual({
      state: "down",
      last_heartbeat_at: null,
      seconds_since_heartbeat: null,
      processes: 0,
      restarts: null,
    });
    const stop = startExecutorHeartbeat("host:1:abc");
    try {
      await waitFor(async () => (await executorHealth()).state === "up");
      const health = await executorHealth();
      expect(health).toMatchObject({ state: "up", processes: 1 });
    } finally {
      await stop();
    }
    expect(await db.executorHeartbeat.count()).toBe(0);
    expect((await executorHealth()).state).toBe("down");
  });

  it("is restarting from the executor's exit until a process beats again, also once the new one is spawned", async () => {
    await db.executorHeartbeat.deleteMany();
    // The dead process's last beat is still recent: without the launcher's word it would look up.
    await db.executorHeartbeat.create({ data: { owner: "host:2:dead", host: "host", pid: 2, beatAt: new Date(Date.now() - 1_000) } });
    supervised(1, Date.now() - 500);
    expect(await executorHealth()).toMatchObject({ state: "restarting", processes: 1, restarts: 1 });
    const stop = startExecutorHeartbeat("host:3:new");
    try {
      await waitFor(async () => (await executorHealth()).state === "up");
      expect(await executorHealth()).toMatchObject({ state: "up", restarts: 1 });
    } finally {
      await stop();
    }
  });

  it("is down when the last beat is older than the stale limit and nothing is restarting it", async () => {
    await db.executorHeartbeat.deleteMany();
    supervised(0, null);
    const old = new Date(Date.now() - EXECUTOR_STALE_MS - 2_000);
    await db.executorHeartbeat.create({ data: { owner: "host:4:gone", host: "host", pid: 4, beatAt: old } });
    expect(await executorHealth()).toMatchObject({ state: "down", last_heartbeat_at: old.toISOString(), processes: 0, restarts: 0 });
    expect((await executorHealth()).seconds_since_heartbeat).toBeGreaterThanOrEqual(EXECUTOR_STALE_MS / 1000 + 2);
  });
});

async function waitFor(ok: () => Promise<boolean>, timeoutMs = 10_000) {
  const start = Date.now();
  while (!(await ok())) {
    if (Date.now() - start > timeoutMs) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
}
