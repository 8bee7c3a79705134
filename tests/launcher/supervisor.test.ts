// The launcher's supervisor: a child that dies is restarted with backoff (1 s, 2 s, 4 s … 30 s,
// reset after a minute of health), a crash loop is reported loudly and retried at the cap, each
// restart is logged with the exit and the child's last lines, the state file says what is
// happening, and stopping never restarts anything.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CRASH_LOOP_EXITS, FIRST_DELAY_MS, MAX_DELAY_MS, Supervisor, nextRestart } from "../../scripts/supervisor.mjs";

const dir = mkdtempSync(path.join(os.tmpdir(), "assay-supervisor-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("restart policy", () => {
  const t0 = 1_000_000;
  it("backs off 1 s, 2 s, 4 s … up to 30 s while the process keeps dying young", () => {
    let delay: number | null = null;
    const delays: number[] = [];
    // Exits 70 s apart (no crash loop), each after a few seconds of life.
    for (let i = 0; i < 7; i++) {
      const now = t0 + i * 70_000;
      const next = nextRestart({ previousDelayMs: delay, startedAt: now - 5_000, exits: [now], now });
      delay = next.delayMs;
      delays.push(delay);
      expect(next.crashLoop).toBe(false);
    }
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
  });

  it("starts again at 1 s after a minute of health", () => {
    const now = t0 + 500_000;
    expect(nextRestart({ previousDelayMs: 16_000, startedAt: now - 61_000, exits: [now], now })).toEqual({
      delayMs: 1_000,
      crashLoop: false,
    });
  });

  it("calls five exits within a minute a crash loop, retried at the cap", () => {
    const now = t0 + 50_000;
    const exits = [t0, t0 + 10_000, t0 + 20_000, t0 + 30_000, now];
    expect(exits).toHaveLength(CRASH_LOOP_EXITS);
    expect(nextRestart({ previousDelayMs: 1_000, startedAt: now - 100, exits, now })).toEqual({ delayMs: MAX_DELAY_MS, crashLoop: true });
    // Four within the minute are not a loop yet.
    expect(nextRestart({ previousDelayMs: 1_000, startedAt: now - 100, exits: exits.slice(1), now }).crashLoop).toBe(false);
  });
});

describe("Supervisor", () => {
  it("restarts a child killed with SIGKILL within ~2 s, logs why with its last lines, and records the state", async () => {
    const lines: string[] = [];
    const stateFile = path.join(dir, "state.json");
    const script = path.join(dir, "child.mjs");
    writeFileSync(script, `console.log("child " + process.pid + " up"); setInterval(() => {}, 1000);`);
    const supervisor = new Supervisor({ log: (l: string) => lines.push(l), stateFile });
    const child = supervisor.start("executor", process.execPath, [script], { env: process.env, cwd: dir });
    try {
      const first = child.proc!.pid!;
      await waitUntil(() => readState(stateFile)?.children?.executor?.state === "up");
      // Its line, which the exit log quotes, is in once the child has printed it (slow under load).
      await waitUntil(() => child.tail.some((l: string) => l.includes(`child ${first} up`)));
      const killedAt = Date.now();
      process.kill(first, "SIGKILL");
      await waitUntil(() => readState(stateFile)?.children?.executor?.state === "restarting");
      expect(readState(stateFile).children.executor).toMatchObject({ restarts: 1, last_exit: { code: null, signal: "SIGKILL" } });
      await waitUntil(() => child.proc!.pid !== first && readState(stateFile)?.children?.executor?.state === "up");
      const restartMs = Date.now() - killedAt;
      expect(restartMs).toBeGreaterThanOrEqual(FIRST_DELAY_MS - 50);
      expect(restartMs).toBeLessThan(4_000); // 1 s of backoff plus a spawn, with room for a loaded machine
      expect(supervisor.processes().map((p) => p.pid)).toEqual([child.proc!.pid]);
      const exitLine = lines.find((l) => l.includes("exited unexpectedly"))!;
      expect(exitLine).toContain("the executor process exited unexpectedly (signal SIGKILL); restarting it in 1 s");
      expect(exitLine).toContain(`child ${first} up`);
    } finally {
      await supervisor.stopAll(2_000);
    }
  });

  it("stops every child on stopAll and restarts none of them", async () => {
    const lines: string[] = [];
    const script = path.join(dir, "sleeper.mjs");
    writeFileSync(script, `setInterval(() => {}, 1000);`);
    const supervisor = new Supervisor({ log: (l: string) => lines.push(l) });
    const a = supervisor.start("web", process.execPath, [script], { env: process.env, cwd: dir });
    const b = supervisor.start("executor", process.execPath, [script], { env: process.env, cwd: dir });
    await supervisor.stopAll(2_000);
    expect([a.proc!.signalCode, b.proc!.signalCode]).toEqual(["SIGTERM", "SIGTERM"]);
    await new Promise((r) => setTimeout(r, FIRST_DELAY_MS + 300));
    expect(supervisor.processes()).toEqual([]);
    expect(lines.filter((l) => l.includes("restart"))).toEqual([]);
  });

  it("reports a crash loop loudly and keeps retrying; a child without restart ends the app instead", async () => {
    const lines: string[] = [];
    const now = 5_000_000;
    const script = path.join(dir, "crasher.mjs");
    writeFileSync(script, `console.error("boom: cannot start"); process.exit(3);`);
    const supervisor = new Supervisor({ log: (l: string) => lines.push(l), now: () => now });
    // Four earlier exits within the minute, as if it had been crashing already.
    const child = supervisor.start("executor", process.execPath, [script], { env: process.env, cwd: dir });
    child.exits = [now - 40_000, now - 30_000, now - 20_000, now - 10_000];
    await waitUntil(() => lines.some((l) => l.startsWith("CRASH LOOP")));
    const loud = lines.find((l) => l.startsWith("CRASH LOOP"))!;
    expect(loud).toContain("exited 5 times within a minute (last: exit code 3); retrying every 30 s");
    expect(loud).toContain("boom: cannot start");
    await supervisor.stopAll(1_000);

    let ended: number | null = null;
    const dev = new Supervisor({ log: () => undefined });
    dev.start("web", process.execPath, [script], { env: process.env, cwd: dir, restart: false, onExit: (code: number) => (ended = code) });
    await waitUntil(() => ended !== null);
    expect(ended).toBe(3);
  });
});

function readState(file: string) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

async function waitUntil(ok: () => boolean, timeoutMs = 10_000) {
  const start = Date.now();
  while (!ok()) {
    if (Date.now() - start > timeoutMs) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}
