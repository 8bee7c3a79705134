// Process facts for crash recovery (Linux /proc where available): whether a recorded process is
// still the same live process, and stopping one with escalating signals. Shared by the
// embedded-db helper and the launcher.
import { readFileSync } from "node:fs";
import path from "node:path";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * True when a process with this pid exists and has not exited (EPERM: it exists but belongs to
 * another user). A zombie — exited, waiting for its new parent (init) to reap it, which can take
 * seconds after a crash — holds nothing any more and counts as gone.
 */
export function pidAlive(pid) {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return err.code === "EPERM";
  }
  return processState(pid) !== "Z";
}

/** Start time of a Linux process in clock ticks since boot (tells a reused pid apart); null elsewhere. */
export function processStartTicks(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
  } catch {
    return null;
  }
}

/** Whether the process recorded as {pid, start} by `processStartTicks` is still the same live process. */
export function sameProcessAlive(rec) {
  if (!rec?.pid || !pidAlive(rec.pid)) return false;
  const start = processStartTicks(rec.pid);
  return rec.start == null || start == null || start === rec.start;
}

/** A Linux process's state letter (R, S, Z for a zombie…), or null. */
export function processState(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
  } catch {
    return null;
  }
}

/** Whether a process's parent is a Node.js process (a live launcher or test runner owns it). */
export function parentIsNode(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    return ppid > 1 && path.basename(readFileSync(`/proc/${ppid}/cmdline`, "utf8").split("\0")[0]).startsWith("node");
  } catch {
    return false;
  }
}

/** SIGINT (PostgreSQL's fast shutdown), then SIGQUIT, then SIGKILL, until the process is gone. */
export async function stopPid(pid, ms) {
  const signals = [
    ["SIGINT", 0],
    ["SIGQUIT", ms * 0.6],
    ["SIGKILL", ms * 0.9],
  ];
  const started = Date.now();
  for (const [signal, at] of signals) {
    while (Date.now() - started < at) {
      if (!pidAlive(pid)) return;
      await sleep(50);
    }
    try {
      process.kill(pid, signal);
    } catch {
      return;
    }
  }
  while (pidAlive(pid) && Date.now() - started < ms * 1.5) await sleep(50);
}
