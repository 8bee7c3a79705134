/**
 * Lease owner ids that a later process on the same machine can prove dead.
 *
 * An executor names itself `host:pid:nonce:machine:start` — `machine` is the kernel boot id
 * plus the pid namespace (the two things that make a pid mean one process table), `start` the
 * process's start time in clock ticks since boot (so a reused pid is told apart), `nonce`
 * random per executor. After a crash the restarted app need not wait for the old leases to
 * expire (30 s): an owner from this very machine whose process no longer exists can never write
 * again, so its leases are expired at once and recovery takes the cases as usual.
 *
 * Anything that cannot be proven dead (another host, another container or boot, an older id
 * without the machine part, a live pid, /proc unreadable) is left to lease expiry.
 */
import "server-only";
import { randomBytes } from "node:crypto";
import { readFileSync, readlinkSync } from "node:fs";
import os from "node:os";

type LeaseOwner = { host: string; pid: number; nonce: string; machine: string | null; start: number | null };

function read(fn: () => string): string | null {
  try {
    return fn();
  } catch {
    return null;
  }
}

/** Boot id + pid namespace inode: equal on two processes exactly when their pids share one process table. */
function machineId(): string | null {
  const boot = read(() => readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim().replace(/-/g, ""));
  const ns = read(() => readlinkSync("/proc/self/ns/pid").replace(/\D/g, ""));
  return boot && ns ? `${boot.slice(0, 16)}.${ns}` : null;
}

/** A Linux process's start time in clock ticks since boot; null when it does not exist or /proc is unavailable. */
export function processStartTicks(pid: number): number | null {
  const stat = read(() => readFileSync(`/proc/${pid}/stat`, "utf8"));
  if (!stat) return null;
  const start = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
  return Number.isFinite(start) ? start : null;
}

/** A fresh owner id for an executor of this process. */
export function newLeaseOwnerId(): string {
  const base = `${os.hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
  const machine = machineId();
  const start = processStartTicks(process.pid);
  return machine && start !== null ? `${base}:${machine}:${start}` : base;
}

export function parseLeaseOwnerId(id: string): LeaseOwner | null {
  const [host, pid, nonce, machine, start] = id.split(":");
  if (!host || !/^\d+$/.test(pid ?? "") || !nonce) return null;
  return { host, pid: Number(pid), nonce, machine: machine || null, start: start && /^\d+$/.test(start) ? Number(start) : null };
}

/** The host-name prefix shared by every owner id this machine can judge (for a LIKE filter). */
export function leaseOwnerHostPrefix(): string {
  return `${os.hostname()}:`;
}

/**
 * True only when `ownerId` names a process of this machine (same host, boot and pid namespace)
 * that has exited: its pid no longer exists (ESRCH), is a zombie, or now belongs to a process
 * that started at another time. A process of another user (EPERM) or one we cannot inspect
 * counts as alive.
 */
export function isLeaseOwnerDead(ownerId: string, selfId: string): boolean {
  const owner = parseLeaseOwnerId(ownerId);
  const self = parseLeaseOwnerId(selfId);
  if (!owner || !self || ownerId === selfId) return false;
  if (owner.host !== self.host || !owner.machine || owner.machine !== self.machine || owner.start === null) return false;
  // Another executor in this very process (tests run several) is alive by definition.
  if (owner.pid === process.pid) return owner.start !== processStartTicks(process.pid);
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
  const stat = read(() => readFileSync(`/proc/${owner.pid}/stat`, "utf8"));
  if (!stat) return false;
  const [state, ...rest] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // A zombie has exited (init reaps it, sometimes seconds later); a new start time means a reused pid.
  return state === "Z" || Number(rest[18]) !== owner.start;
}
