// The launcher's supervisor: starts the app's processes (the web server, the run executor, a
// worker), passes their output through, and restarts one that exits unexpectedly — one dead
// process must not take the whole app down. Restarts back off 1 s, 2 s, 4 s … up to 30 s; the
// backoff starts again after a minute of health. Five exits within a minute is a crash loop: it
// is reported loudly on every exit and retried at the cap, never given up silently. Each restart
// is logged with the exit code or signal and the process's last output lines.
//
// What each process is doing is written to a JSON state file (ASSAY_SUPERVISOR_STATE for the
// children), which /api/health reads to say `executor: "restarting"` while it comes back.
import { spawn } from "node:child_process";
import { renameSync, writeFileSync } from "node:fs";

export const FIRST_DELAY_MS = 1_000;
export const MAX_DELAY_MS = 30_000;
/** A process that ran this long before exiting was healthy: the backoff starts again. */
export const HEALTHY_AFTER_MS = 60_000;
export const CRASH_LOOP_EXITS = 5;
export const CRASH_LOOP_WINDOW_MS = 60_000;
const TAIL_LINES = 20;

/**
 * How long to wait before restarting a process that exited at `now`, given its previous delay,
 * when its last start was, and the times of its recent exits (this one included).
 * Pure, so the policy is tested on its own.
 */
export function nextRestart({ previousDelayMs, startedAt, exits, now }) {
  const recent = exits.filter((t) => now - t < CRASH_LOOP_WINDOW_MS);
  const crashLoop = recent.length >= CRASH_LOOP_EXITS;
  if (crashLoop) return { delayMs: MAX_DELAY_MS, crashLoop };
  const healthy = now - startedAt >= HEALTHY_AFTER_MS;
  const delayMs = healthy || previousDelayMs === null ? FIRST_DELAY_MS : Math.min(previousDelayMs * 2, MAX_DELAY_MS);
  return { delayMs, crashLoop };
}

/** "exit code 1" / "signal SIGKILL". */
export const describeExit = (code, signal) => (signal ? `signal ${signal}` : `exit code ${code}`);

/**
 * @typedef {{
 *   name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv | undefined, cwd: string | undefined,
 *   restart: boolean, onExit: (code: number) => void, proc: import("node:child_process").ChildProcess | null,
 *   tail: string[], exits: number[], delay: number | null, restarts: number, startedAt: number,
 *   state?: string, since?: number, lastExit?: { code: number | null, signal: string | null, at: string },
 *   timer?: ReturnType<typeof setTimeout> | null,
 * }} SupervisedChild
 */

export class Supervisor {
  /**
   * @param {{ log: (line: string) => void, stateFile?: string, onChange?: () => void, now?: () => number }} opts
   *   `onChange`: called after a process (re)started, to record the pids elsewhere.
   */
  constructor({ log, stateFile, onChange = () => {}, now = Date.now }) {
    this.log = log;
    this.stateFile = stateFile;
    this.onChange = onChange;
    this.now = now;
    /** @type {Map<string, SupervisedChild>} */
    this.children = new Map();
    this.stopping = false;
  }

  /**
   * Running processes (for the launcher's orphan record).
   * @returns {import("node:child_process").ChildProcess[]}
   */
  processes() {
    return [...this.children.values()].flatMap((c) => (c.proc && c.proc.exitCode === null && c.proc.signalCode === null ? [c.proc] : []));
  }

  /**
   * Starts `name`. `restart: false` makes its exit the end of the app (`onExit(code)` is called
   * instead), as for the dev server.
   * @param {string} name
   * @param {string} cmd
   * @param {string[]} args
   * @param {{ env?: NodeJS.ProcessEnv, cwd?: string, restart?: boolean, onExit?: (code: number) => void }} opts
   * @returns {SupervisedChild}
   */
  start(name, cmd, args, { env, cwd, restart = true, onExit = () => {} }) {
    /** @type {SupervisedChild} */
    const child = {
      name,
      cmd,
      args,
      env,
      cwd,
      restart,
      onExit,
      proc: null,
      tail: [],
      exits: [],
      delay: null,
      restarts: 0,
      startedAt: this.now(),
    };
    this.children.set(name, child);
    this.#spawn(child);
    return child;
  }

  #spawn(child) {
    child.startedAt = this.now();
    const proc = spawn(child.cmd, child.args, { cwd: child.cwd, env: child.env, stdio: ["ignore", "pipe", "pipe"] });
    child.proc = proc;
    for (const [stream, out] of [
      [proc.stdout, process.stdout],
      [proc.stderr, process.stderr],
    ]) {
      let partial = "";
      stream.on("data", (chunk) => {
        out.write(chunk);
        const text = partial + chunk.toString("utf8");
        const lines = text.split("\n");
        partial = lines.pop() ?? "";
        for (const line of lines) if (line.trim()) this.#remember(child, line);
      });
      stream.on("end", () => partial.trim() && this.#remember(child, partial));
    }
    proc.on("error", (err) => this.#remember(child, `${child.name}: ${err.message}`));
    proc.on("exit", (code, signal) => this.#exited(child, proc, code, signal));
    this.#record(child, "up");
    this.onChange();
  }

  #remember(child, line) {
    child.tail.push(line.trimEnd());
    if (child.tail.length > TAIL_LINES) child.tail.shift();
  }

  #exited(child, proc, code, signal) {
    if (child.proc !== proc) return;
    if (this.stopping) return;
    if (!child.restart) {
      this.#record(child, "down", { code, signal });
      child.onExit(code ?? (signal ? 1 : 0));
      return;
    }
    const now = this.now();
    child.exits = [...child.exits.filter((t) => now - t < CRASH_LOOP_WINDOW_MS), now];
    const { delayMs, crashLoop } = nextRestart({ previousDelayMs: child.delay, startedAt: child.startedAt, exits: child.exits, now });
    child.delay = delayMs;
    child.restarts++;
    const lines = child.tail.length ? `; its last lines:\n${child.tail.map((l) => `    ${l}`).join("\n")}` : "";
    if (crashLoop) {
      this.log(
        `CRASH LOOP: the ${child.name} process exited ${child.exits.length} times within a minute (last: ${describeExit(code, signal)}); ` +
          `retrying every ${delayMs / 1000} s — see its output below and fix the cause${lines}`,
      );
    } else {
      this.log(
        `the ${child.name} process exited unexpectedly (${describeExit(code, signal)}); restarting it in ${delayMs / 1000} s${lines}`,
      );
    }
    child.tail = [];
    this.#record(child, "restarting", { code, signal });
    child.timer = setTimeout(() => {
      child.timer = null;
      if (this.stopping) return;
      this.log(`restarting the ${child.name} process (restart ${child.restarts})`);
      this.#spawn(child);
    }, delayMs);
  }

  #record(child, state, exit) {
    child.state = state;
    child.since = this.now();
    if (exit) child.lastExit = { code: exit.code, signal: exit.signal, at: new Date(child.since).toISOString() };
    if (!this.stateFile) return;
    const children = Object.fromEntries(
      [...this.children.values()].map((c) => [
        c.name,
        { state: c.state, since: c.since, pid: c.proc?.pid ?? null, restarts: c.restarts, last_exit: c.lastExit ?? null },
      ]),
    );
    const tmp = `${this.stateFile}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, JSON.stringify({ launcher: process.pid, children }), { mode: 0o644 });
      renameSync(tmp, this.stateFile);
    } catch {
      // A state file that cannot be written only costs /api/health its "restarting".
    }
  }

  /** Stops every process (SIGTERM, SIGKILL after `graceMs`); nothing is restarted from now on. */
  async stopAll(graceMs = 10_000) {
    this.stopping = true;
    for (const child of this.children.values()) if (child.timer) clearTimeout(child.timer);
    await Promise.all(
      this.processes().map(
        (proc) =>
          new Promise((resolve) => {
            const timer = setTimeout(() => {
              proc.kill("SIGKILL");
              resolve();
            }, graceMs);
            proc.once("exit", () => {
              clearTimeout(timer);
              resolve();
            });
            proc.kill("SIGTERM");
          }),
      ),
    );
  }
}
